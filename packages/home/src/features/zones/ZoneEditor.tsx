import type { DeviceItem } from '@hearth/contract';
import { useState } from 'react';
import { strings } from '../../app/strings';
import { ConfirmCard } from '../../components/ConfirmCard';
import { FieldError, FormError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { ZoneOptions } from '../../components/ZoneOptions';
import { asSentence, messageOf } from '../../lib/errors';
import { fieldChange } from '../../lib/field-change';
import { useHub } from '../../lib/hub';
import { selfAndDescendants, type Zone } from '../../lib/zones';

const t = strings.zones;

/** What a deletion was confirmed with: the devices and zones it moves, as the person was told (not as they are now). */
interface Plan {
  parent: Zone;
  devices: { id: string; name: string }[];
  zones: { id: string; name: string }[];
}

interface Props {
  zone: Zone;
  zones: readonly Zone[];
  /** The devices in this zone itself, and its child zones (each moved up whole by a deletion). */
  devices: readonly DeviceItem[];
  childZones: readonly Zone[];
  onDeleted(): void;
}

/** One zone's rename, move (to any zone not below it) and deletion; the top zone can only be renamed. */
export function ZoneEditor({ zone, zones, devices, childZones, onDeleted }: Props) {
  const { hub } = useHub();
  const notify = useNotify();
  const [nameError, setNameError] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [busy, setBusy] = useState(false);
  const parent = zones.find((other) => other.id === zone.parent);
  const id = `zone-${zone.id}`;

  const change = fieldChange<'name' | 'parent'>({
    nameRequired: t.nameRequired,
    setBusy,
    notify,
    save: async (field, value) => {
      await hub.zones.updateZone({ id: zone.id, zone: { [field]: value } });
      const newParent = zones.find((other) => other.id === value)?.name ?? '';
      return field === 'name' ? t.renamed(value) : t.moved(zone.name, newParent);
    },
    refused: (message) => t.refused(zone.name, asSentence(message)),
  });

  // The hub deletes only an empty zone: what the person agreed to move goes to the parent first, then the zone.
  // Anything that arrived after they were asked is not moved, so the hub refuses and says why; the question then
  // names what the zone holds now, for a second answer.
  async function remove(confirmed: Plan) {
    setBusy(true);
    setDeleteError(null);
    try {
      for (const child of confirmed.zones) await hub.zones.updateZone({ id: child.id, zone: { parent: confirmed.parent.id } });
      for (const device of confirmed.devices)
        await hub.devices.updateDevice({ id: device.id, device: { zone: confirmed.parent.id } });
      await hub.zones.deleteZone({ id: zone.id });
      notify('info', t.deleted(zone.name));
      onDeleted();
    } catch (failure) {
      setDeleteError(t.notDeleted(zone.name, asSentence(messageOf(failure))));
      setPlan(planNow());
      setBusy(false);
    }
  }

  const pick = ({ id: itemId, name }: { id: string; name: string }) => ({ id: itemId, name });
  const planNow = () => (parent ? { parent, devices: devices.map(pick), zones: childZones.map(pick) } : null);
  return (
    <div className="card zone-editor" id={`zone-editor-${zone.id}`}>
      <form className="inline-form" onSubmit={(event) => void change(event, 'name', setNameError)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t.name}</label>
          <input
            id={`${id}-name`}
            name="name"
            defaultValue={zone.name}
            key={zone.name}
            maxLength={255}
            required
            {...invalidProps(`${id}-name`, nameError)}
          />
          <FieldError id={`${id}-name`} error={nameError} />
        </div>
        <button type="submit" className="button" disabled={busy}>
          {t.rename}
        </button>
      </form>
      {parent ? (
        <>
          <form className="inline-form" onSubmit={(event) => void change(event, 'parent', setMoveError)}>
            <div className="field">
              <label htmlFor={`${id}-parent`}>{t.parent}</label>
              <select
                id={`${id}-parent`}
                name="parent"
                defaultValue={parent.id}
                key={parent.id}
                {...invalidProps(`${id}-parent`, moveError)}
              >
                <ZoneOptions zones={zones} except={selfAndDescendants(zones, zone.id)} />
              </select>
              <FieldError id={`${id}-parent`} error={moveError} />
            </div>
            <button type="submit" className="button" disabled={busy}>
              {t.move}
            </button>
          </form>
          {plan ? (
            <ConfirmCard
              id={`${id}-delete-question`}
              question={
                plan.devices.length === 0 && plan.zones.length === 0 ? (
                  <p>{t.deleteEmpty(zone.name)}</p>
                ) : (
                  <>
                    <p>{t.deleteQuestion(zone.name)}</p>
                    {plan.devices.length > 0 ? (
                      <p>
                        {t.devicesMove(
                          plan.devices.map((device) => device.name),
                          plan.parent.name,
                        )}
                      </p>
                    ) : null}
                    {plan.zones.length > 0 ? (
                      <p>
                        {t.zonesMove(
                          plan.zones.map((child) => child.name),
                          plan.parent.name,
                        )}
                      </p>
                    ) : null}
                  </>
                )
              }
              error={<FormError error={deleteError} />}
              confirm={t.deleteConfirm(zone.name)}
              keep={t.keep}
              busy={busy}
              onConfirm={() => void remove(plan)}
              onKeep={() => {
                setPlan(null);
                setDeleteError(null);
              }}
            />
          ) : (
            <button type="button" className="button button--quiet" onClick={() => setPlan(planNow())}>
              {t.deleteName(zone.name)}
            </button>
          )}
        </>
      ) : (
        <p className="muted">{t.topZone}</p>
      )}
    </div>
  );
}
