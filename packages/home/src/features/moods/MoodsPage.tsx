import type { Manager } from '@hearth/client/browser';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { FieldError, FormError, invalidProps } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import type { Device } from '../devices/capabilities';
import { currentState, type Mood, type Zone } from './model';

const t = strings.moods;

function MoodRow({ mood, onGone }: { mood: Mood; onGone: (id: string, gone: boolean) => void }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const count = Object.keys(mood.devices).length;

  async function set() {
    setBusy(true);
    try {
      const answer = (await hub.moods.setMood({ id: mood.id })) as { devices: number };
      notify('info', t.setDone(mood.name, answer.devices));
    } catch (failure) {
      notify('error', t.refused(mood.name, messageOf(failure)));
    } finally {
      setBusy(false);
    }
  }
  async function remove(): Promise<boolean> {
    // Gone from the list at once; back with the hub's reason if it refuses.
    onGone(mood.id, true);
    try {
      await hub.moods.deleteMood({ id: mood.id });
      notify('info', strings.deleting.done(mood.name));
      return false;
    } catch (failure) {
      onGone(mood.id, false);
      notify('error', t.refused(mood.name, messageOf(failure)));
      return true;
    }
  }

  return (
    <li className="row" data-mood-id={mood.id}>
      <span className="row__main">
        <strong>{mood.name}</strong>
        <span className="muted">{t.devices(count)}</span>
      </span>
      <span className="row__actions">
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => void set()}
          aria-label={t.setName(mood.name)}
        >
          {t.set}
        </button>
        <ConfirmDelete name={mood.name} onConfirm={remove} />
      </span>
    </li>
  );
}

/** Saves the devices of a zone as they are now as a new mood of that zone. */
function NewMood({ zones, devices }: { zones: Zone[]; devices: Device[] }) {
  const { hub } = useHub();
  const [errors, setErrors] = useState<{ name?: string; form?: string }>({});
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    const zone = String(data.get('zone') ?? '');
    if (!name) return setErrors({ name: t.nameRequired });
    const state = currentState(devices.filter((device) => device.zone === zone));
    if (Object.keys(state).length === 0) return setErrors({ form: t.nothingToSave });
    try {
      await hub.moods.createMood({ mood: { name, zone, devices: state } });
      setErrors({});
      form.reset();
    } catch (failure) {
      setErrors({ form: messageOf(failure) });
    }
  }
  return (
    <form className="card" onSubmit={(event) => void create(event)} noValidate aria-labelledby="new-mood-title">
      <h2 id="new-mood-title">{t.new}</h2>
      <p className="muted">{t.newHint}</p>
      <div className="field">
        <label htmlFor="new-mood-zone">{t.zone}</label>
        <select id="new-mood-zone" name="zone">
          {zones.map((zone) => (
            <option key={zone.id} value={zone.id}>
              {zone.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="new-mood-name">{t.name}</label>
        <input id="new-mood-name" name="name" maxLength={100} {...invalidProps('new-mood-name', errors.name)} />
        <FieldError id="new-mood-name" error={errors.name} />
      </div>
      <FormError error={errors.form} />
      <button type="submit" className="button">
        {t.create}
      </button>
    </form>
  );
}

/** The hub's moods by zone, live: set with one tap, made from how a zone's devices are now, deleted. */
export function MoodsPage() {
  const { hub } = useHub();
  const moods = useLiveItems<Mood>(hub.manager('moods') as Manager, 'mood');
  const zones = useLiveItems<Zone>(hub.manager('zones') as Manager, 'zone');
  const devices = useLiveItems<Device>(hub.manager('devices') as Manager, 'device');
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const failed = [moods, zones, devices].find((live) => live.state === 'failed');
  if (failed?.state === 'failed') return <Failed error={failed.error} title={t.title} />;
  if (moods.state !== 'ready' || zones.state !== 'ready' || devices.state !== 'ready') return <Loading title={t.title} />;

  const onGone = (id: string, gone: boolean) =>
    setHidden((current) => {
      const next = new Set(current);
      if (gone) next.add(id);
      else next.delete(id);
      return next;
    });
  const shown = moods.items.filter((mood) => !hidden.has(mood.id));
  const sortedZones = [...zones.items].sort((a, b) => a.name.localeCompare(b.name));
  const groups = [
    ...sortedZones.map((zone) => ({ key: zone.id, name: zone.name, moods: shown.filter((mood) => mood.zone === zone.id) })),
    { key: 'home', name: t.wholeHome, moods: shown.filter((mood) => !mood.zone || !zones.items.some((z) => z.id === mood.zone)) },
  ].filter((group) => group.moods.length > 0);

  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      {groups.length === 0 ? <p>{t.empty}</p> : null}
      {groups.map((group) => (
        <section key={group.key} aria-labelledby={`moods-${group.key}`} className="group">
          <h2 id={`moods-${group.key}`}>{group.name}</h2>
          <ul className="rows">
            {[...group.moods]
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((mood) => (
                <MoodRow key={mood.id} mood={mood} onGone={onGone} />
              ))}
          </ul>
        </section>
      ))}
      <NewMood zones={sortedZones} devices={devices.items} />
    </>
  );
}
