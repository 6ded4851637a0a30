import type { Manager } from '@hearth/client/browser';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { strings } from '../../app/strings';
import { ConfirmDanger } from '../../components/ConfirmDanger';
import { FieldError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import type { Device } from './capabilities';
import { useDeviceRemoval } from './useDeviceRemoval';

const t = strings.device;

interface Zone {
  id: string;
  name: string;
}

/** A device's name and zone, each changed by its own small form, and removing it after a second, explicit tap. */
export function DeviceManage({ device }: { device: Device }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [, _navigate] = useLocation();
  const zones = useLiveItems<Zone>(hub.manager('zones') as Manager, 'zone');
  const [nameError, setNameError] = useState<string | null>(null);
  const [zoneError, setZoneError] = useState<string | null>(null);
  const { confirming, setConfirming, busy, setBusy, remove } = useDeviceRemoval(device.name);

  async function update(event: FormEvent<HTMLFormElement>, field: 'name' | 'zone', fail: (message: string | null) => void) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get(field) ?? '').trim();
    if (field === 'name' && !value) return fail(t.nameRequired);
    fail(null);
    setBusy(true);
    try {
      await hub.devices.updateDevice({ id: device.id, device: { [field]: value } });
      notify('info', field === 'name' ? t.renamed(value) : t.moved(device.name));
    } catch (error) {
      fail(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const zoneList = zones.state === 'ready' ? [...zones.items].sort((a, b) => a.name.localeCompare(b.name)) : [];
  return (
    <section aria-labelledby="device-manage" className="manage">
      <h2 id="device-manage">{t.manage}</h2>
      <form className="inline-form" onSubmit={(event) => void update(event, 'name', setNameError)} noValidate>
        <div className="field">
          <label htmlFor="device-name">{t.name}</label>
          <input
            id="device-name"
            name="name"
            defaultValue={device.name}
            key={device.name}
            maxLength={255}
            required
            {...invalidProps('device-name', nameError)}
          />
          <FieldError id="device-name" error={nameError} />
        </div>
        <button type="submit" className="button" disabled={busy}>
          {t.rename}
        </button>
      </form>
      <form className="inline-form" onSubmit={(event) => void update(event, 'zone', setZoneError)}>
        <div className="field">
          <label htmlFor="device-zone">{t.zone}</label>
          <select
            id="device-zone"
            name="zone"
            defaultValue={device.zone}
            key={device.zone}
            {...invalidProps('device-zone', zoneError)}
          >
            {zoneList.map((zone) => (
              <option key={zone.id} value={zone.id}>
                {zone.name}
              </option>
            ))}
          </select>
          <FieldError id="device-zone" error={zoneError} />
        </div>
        <button type="submit" className="button" disabled={busy || zoneList.length === 0}>
          {t.move}
        </button>
      </form>
      {confirming ? (
        <div className="card danger">
          <ConfirmDanger
            id="device-remove-question"
            question={t.removeQuestion(device.name)}
            confirm={t.removeConfirm(device.name)}
            keep={t.keep}
            busy={busy}
            onConfirm={() => void remove(() => hub.devices.deleteDevice({ id: device.id }))}
            onKeep={() => setConfirming(false)}
          />
        </div>
      ) : (
        <button type="button" className="button button--quiet" onClick={() => setConfirming(true)}>
          {t.remove}
        </button>
      )}
    </section>
  );
}
