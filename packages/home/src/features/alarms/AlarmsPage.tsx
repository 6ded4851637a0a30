import type { Manager } from '@hearth/client/browser';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { FieldError, FormError } from '../../components/FieldError';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { type Alarm, DAYS, repetitionOf, summary, whenNext } from './model';

const t = strings.alarms;

/** The time, name and weekdays of an alarm, as a form; `initial` fills it when editing. */
function AlarmFields({ id, initial }: { id: string; initial?: Alarm }) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-time`}>{t.time}</label>
        <input id={`${id}-time`} name="time" type="time" required defaultValue={initial?.time.slice(0, 5) ?? '07:00'} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t.name}</label>
        <input id={`${id}-name`} name="name" maxLength={100} defaultValue={initial?.name ?? ''} />
      </div>
      <fieldset className="choices choices--inline">
        <legend>{t.repeat}</legend>
        {DAYS.map((day) => (
          <label key={day} className="choice">
            <input type="checkbox" name="days" value={day} defaultChecked={initial?.repetition[day] ?? false} />
            <span>{t.days[day]}</span>
          </label>
        ))}
      </fieldset>
    </>
  );
}

const read = (form: HTMLFormElement) => {
  const data = new FormData(form);
  return {
    time: String(data.get('time') ?? ''),
    name: String(data.get('name') ?? '').trim(),
    repetition: repetitionOf(data.getAll('days').map(String)),
  };
};

function AlarmRow({ alarm }: { alarm: Alarm }) {
  const { hub } = useHub();
  const notify = useNotify();
  // The switch moves at once; the hub's answer (its realtime update) or its refusal settles it.
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = enabled ?? alarm.enabled;
  const id = `alarm-${alarm.id}`;

  async function toggle() {
    const next = !shown;
    setEnabled(next);
    try {
      await hub.alarms.updateAlarm({ id: alarm.id, alarm: { enabled: next } });
    } catch (failure) {
      notify('error', t.refused(alarm.name, messageOf(failure)));
    } finally {
      setEnabled(null);
    }
  }
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { time, name, repetition } = read(event.currentTarget);
    if (!time) return setError(t.timeRequired);
    try {
      await hub.alarms.updateAlarm({ id: alarm.id, alarm: { time, repetition, ...(name ? { name } : {}) } });
      setError(null);
      setEditing(false);
      notify('info', t.saved(name || alarm.name));
    } catch (failure) {
      setError(messageOf(failure));
    }
  }
  async function remove(): Promise<boolean> {
    try {
      await hub.alarms.deleteAlarm({ id: alarm.id });
      notify('info', strings.deleting.done(alarm.name));
      return false;
    } catch (failure) {
      notify('error', t.refused(alarm.name, messageOf(failure)));
      return true;
    }
  }

  return (
    <li className="row alarm" data-alarm-id={alarm.id}>
      <span className="row__main">
        <strong className="alarm__time" id={`${id}-label`}>
          {alarm.time.slice(0, 5)} <span className="alarm__name">{alarm.name}</span>
        </strong>
        <span className="muted">
          {summary(alarm.repetition)}
          {shown && alarm.nextOccurance ? ` · ${t.next(whenNext(alarm.nextOccurance))}` : ''}
        </span>
      </span>
      <span className="row__actions">
        <button
          type="button"
          role="switch"
          aria-checked={shown}
          aria-label={t.enabledName(alarm.name, alarm.time.slice(0, 5))}
          className={`switch${shown ? ' switch--on' : ''}`}
          onClick={() => void toggle()}
        >
          <span className="switch__label">{shown ? t.on : t.off}</span>
        </button>
        <button
          type="button"
          className="button button--small button--quiet"
          aria-expanded={editing}
          aria-label={t.editName(alarm.name)}
          onClick={() => setEditing(!editing)}
        >
          {t.edit}
        </button>
        <ConfirmDelete name={alarm.name} onConfirm={remove} />
      </span>
      {editing ? (
        <form className="row__more" onSubmit={(event) => void save(event)} noValidate aria-label={t.editName(alarm.name)}>
          <AlarmFields id={id} initial={alarm} />
          <FieldError id={`${id}-form`} error={error} />
          <button type="submit" className="button">
            {t.save}
          </button>
        </form>
      ) : null}
    </li>
  );
}

function NewAlarm() {
  const { hub } = useHub();
  const [error, setError] = useState<string | null>(null);
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { time, name, repetition } = read(form);
    if (!time) return setError(t.timeRequired);
    try {
      await hub.alarms.createAlarm({ alarm: { time, name: name || t.defaultName, repetition, enabled: true } });
      setError(null);
      form.reset();
    } catch (failure) {
      setError(messageOf(failure));
    }
  }
  return (
    <form className="card" onSubmit={(event) => void create(event)} noValidate aria-labelledby="new-alarm-title">
      <h2 id="new-alarm-title">{t.new}</h2>
      <AlarmFields id="new-alarm" />
      <FormError error={error} />
      <button type="submit" className="button">
        {t.create}
      </button>
    </form>
  );
}

/** The hub's alarms, live: switched on and off at once, their time and weekdays edited, made and deleted. */
export function AlarmsPage() {
  const { hub } = useHub();
  const alarms = useLiveItems<Alarm>(hub.manager('alarms') as Manager, 'alarm');
  if (alarms.state === 'failed') return <Failed error={alarms.error} title={t.title} />;
  if (alarms.state === 'loading') return <Loading title={t.title} />;
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      {alarms.items.length === 0 ? <p>{t.empty}</p> : null}
      <ul className="rows">
        {[...alarms.items]
          .sort((a, b) => a.time.localeCompare(b.time) || a.name.localeCompare(b.name))
          .map((alarm) => (
            <AlarmRow key={alarm.id} alarm={alarm} />
          ))}
      </ul>
      <NewAlarm />
    </>
  );
}
