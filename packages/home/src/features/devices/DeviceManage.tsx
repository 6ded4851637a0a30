import type { Manager } from '@hearth/client/browser';
import { useEffect, useState } from 'react';
import { strings } from '../../app/strings';
import { ConfirmCard } from '../../components/ConfirmCard';
import { FieldError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { ZoneOptions } from '../../components/ZoneOptions';
import { fieldChange } from '../../lib/field-change';
import { useHub, useLiveItems } from '../../lib/hub';
import type { Zone } from '../../lib/zones';
import type { Device } from './capabilities';
import { useDeviceRemoval } from './useDeviceRemoval';

const t = strings.device;

/** A device's name and zone, each changed by its own small form, and removing it after a second, explicit tap. */
export function DeviceManage({ device }: { device: Device }) {
  const { hub } = useHub();
  const notify = useNotify();
  const zones = useLiveItems<Zone>(hub.manager('zones') as Manager, 'zone');
  const [nameError, setNameError] = useState<string | null>(null);
  const [zoneError, setZoneError] = useState<string | null>(null);
  // Held here, not as the select's default: a default applies only when the select first renders, before the zones
  // arrived, so it fell to the first option and Move would have put the device there.
  const [zone, setZone] = useState(device.zone);
  useEffect(() => setZone(device.zone), [device.zone]);
  const { confirming, setConfirming, busy, setBusy, remove } = useDeviceRemoval(device.name);

  const update = fieldChange<'name' | 'zone'>({
    nameRequired: t.nameRequired,
    setBusy,
    notify,
    save: async (field, value) => {
      await hub.devices.updateDevice({ id: device.id, device: { [field]: value } });
      return field === 'name' ? t.renamed(value) : t.moved(device.name);
    },
  });

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
            value={zone}
            onChange={(event) => setZone(event.target.value)}
            {...invalidProps('device-zone', zoneError)}
          >
            {zones.state === 'ready' ? <ZoneOptions zones={zones.items} /> : null}
          </select>
          <FieldError id="device-zone" error={zoneError} />
        </div>
        <button type="submit" className="button" disabled={busy || zones.state !== 'ready'}>
          {t.move}
        </button>
      </form>
      {confirming ? (
        <ConfirmCard
          id="device-remove-question"
          question={<p>{t.removeQuestion(device.name)}</p>}
          confirm={t.removeConfirm(device.name)}
          keep={t.keep}
          busy={busy}
          onConfirm={() => void remove(() => hub.devices.deleteDevice({ id: device.id }))}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <button type="button" className="button button--quiet" onClick={() => setConfirming(true)}>
          {t.remove}
        </button>
      )}
    </section>
  );
}
