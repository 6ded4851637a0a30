import type { Manager } from '@hearth/client/browser';
import type { DeviceItem } from '@hearth/contract';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { FieldError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { ZoneOptions } from '../../components/ZoneOptions';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { type Zone, zonesInTreeOrder } from '../../lib/zones';
import { ZoneEditor } from './ZoneEditor';
import './zones.css';

const t = strings.zones;

/**
 * The zones of the home as a tree: each says what it holds and opens its editor (rename, move, delete); a form
 * below adds a zone. Everything goes through the hub's zone operations and follows its realtime events.
 */
export function ZonesPage() {
  const { hub } = useHub();
  const zones = useLiveItems<Zone>(hub.manager('zones') as Manager, 'zone');
  const devices = useLiveItems<DeviceItem>(hub.manager('devices') as Manager, 'device');
  const [editing, setEditing] = useState<string | null>(null);
  if (zones.state === 'failed') return <Failed error={zones.error} title={t.title} />;
  if (devices.state === 'failed') return <Failed error={devices.error} title={t.title} />;
  if (zones.state === 'loading' || devices.state === 'loading') return <Loading title={t.title} />;

  const tree = zonesInTreeOrder(zones.items);
  const devicesIn = (id: string) => devices.items.filter((device) => device.zone === id);
  const childrenOf = (id: string) => zones.items.filter((zone) => zone.parent === id);
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <p className="muted">{t.intro}</p>
      <ul className="rows zone-tree" aria-label={t.tree}>
        {tree.map(({ zone, depth }) => {
          const open = editing === zone.id;
          return (
            <li key={zone.id} className="zone-tree__item" style={{ '--depth': Math.min(depth, 6) } as object}>
              <div className="row">
                <span className="row__main">
                  <span className="row__name" id={`zone-name-${zone.id}`}>
                    {zone.name}
                  </span>
                  <span className="muted">{t.holds(devicesIn(zone.id).length, childrenOf(zone.id).length)}</span>
                </span>
                <span className="row__actions">
                  <button
                    type="button"
                    className="button button--small button--quiet"
                    aria-expanded={open}
                    aria-controls={open ? `zone-editor-${zone.id}` : undefined}
                    aria-label={open ? t.closeName(zone.name) : t.editName(zone.name)}
                    onClick={() => setEditing(open ? null : zone.id)}
                  >
                    {open ? t.close : t.edit}
                  </button>
                </span>
              </div>
              {open ? (
                <ZoneEditor
                  zone={zone}
                  zones={zones.items}
                  devices={devicesIn(zone.id)}
                  childZones={childrenOf(zone.id)}
                  onDeleted={() => setEditing(null)}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      <NewZone zones={zones.items} />
    </>
  );
}

/** Adds a zone under a chosen parent (the top zone unless another is chosen). */
function NewZone({ zones }: { zones: readonly Zone[] }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const root = zones.find((zone) => zone.parent === null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    if (!name) return setError(t.nameRequired);
    setError(null);
    setBusy(true);
    try {
      // The contract asks for an icon; a new zone starts with the ecosystem's plain one.
      await hub.zones.createZone({ zone: { name, parent: String(data.get('parent')), icon: 'default' } });
      notify('info', t.created(name));
      form.reset();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="zone-new" className="manage">
      <h2 id="zone-new">{t.new}</h2>
      <form className="inline-form" onSubmit={(event) => void create(event)} noValidate>
        <div className="field">
          <label htmlFor="zone-new-name">{t.name}</label>
          <input id="zone-new-name" name="name" maxLength={255} required {...invalidProps('zone-new-name', error)} />
          <FieldError id="zone-new-name" error={error} />
        </div>
        <div className="field">
          <label htmlFor="zone-new-parent">{t.parent}</label>
          <select id="zone-new-parent" name="parent" defaultValue={root?.id} key={root?.id}>
            <ZoneOptions zones={zones} />
          </select>
        </div>
        <button type="submit" className="button" disabled={busy}>
          {t.create}
        </button>
      </form>
    </section>
  );
}
