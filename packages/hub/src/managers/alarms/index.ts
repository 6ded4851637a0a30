import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { serveAlarmCards } from './cards';
import { nextOccurance, repeats } from './schedule';
import { type Alarm, AlarmStore, alarmMigrations } from './store';

const READ_SCOPE = 'homey.alarm.readonly';

const ALARM_JOB = 'alarm.due';
/** An alarm found more than this late (the hub was off when it was due) is not replayed: it moves on. */
const ALARM_GRACE_MS = 60_000;

/**
 * One durable scheduler job per enabled alarm (`alarm.due`, owner `alarm:<id>`). When an alarm goes off it
 * publishes `alarm.fire` on the alarms manager and `alarm.due` on the domain bus, then moves `nextOccurance` on
 * (repeating alarms) or switches the alarm off (one-off alarms) and publishes `alarm.update`. An occurrence missed
 * while the hub was off is recorded by the scheduler and not replayed: the alarm moves on to its next one.
 */
class AlarmSchedule {
  constructor(
    private readonly context: HubContext,
    private readonly store: AlarmStore,
  ) {}

  /** Replaces the alarm's job with one for its `nextOccurance` (none while it is disabled). */
  schedule(alarm: Alarm): void {
    this.cancel(alarm.id);
    if (!alarm.enabled || !alarm.nextOccurance) return;
    this.context.scheduler.schedule({
      kind: ALARM_JOB,
      owner: `alarm:${alarm.id}`,
      dueAt: Date.parse(alarm.nextOccurance),
      payload: { alarmId: alarm.id },
      misfire: { kind: 'drop', graceMs: ALARM_GRACE_MS },
    });
  }

  cancel(id: string): void {
    this.context.scheduler.cancelOwner(`alarm:${id}`);
  }

  /** Handles the alarms' jobs; answers the undo. */
  handle(): () => void {
    return this.context.scheduler.handle<{ alarmId: string }>(ALARM_JOB, {
      run: (job) => this.fire(job.payload.alarmId, job.dueAt),
      missed: (job) => this.moveOn(job.payload.alarmId, this.context.clock.now()),
    });
  }

  private fire(id: string, at: number): void {
    const alarm = this.store.get(id);
    if (!alarm?.enabled) return;
    const firedAt = new Date(this.context.clock.now()).toISOString();
    this.context.events.manager('alarms', 'alarm.fire', { ...alarm, firedAt }, READ_SCOPE);
    this.context.bus.emit('alarm.due', { alarmId: alarm.id, name: alarm.name, at });
    this.moveOn(id, at);
  }

  /** Moves a repeating alarm to its next occurrence after `after`; switches a one-off alarm off. */
  private moveOn(id: string, after: number): void {
    const alarm = this.store.get(id);
    if (!alarm) return;
    const updated = transact(this.context.db, () =>
      this.store.save(
        alarm.enabled && repeats(alarm.repetition)
          ? { ...alarm, nextOccurance: nextOccurance(alarm.time, alarm.repetition, new Date(after)) }
          : { ...alarm, enabled: false, nextOccurance: null },
      ),
    );
    this.context.events.entity('alarms', 'alarm', 'update', updated, READ_SCOPE);
    this.schedule(updated);
  }
}

/** A stored alarm with its next occurrence recomputed from its time and repetition (`null` while disabled). */
function withNext(alarm: Omit<Alarm, 'nextOccurance' | 'id'> & { id?: string }, now: number) {
  return { ...alarm, nextOccurance: alarm.enabled ? nextOccurance(alarm.time, alarm.repetition, new Date(now)) : null };
}

export const alarmsManager: HubManager = {
  name: 'alarms',
  migrations: alarmMigrations,
  create: (context, services) => {
    const store = new AlarmStore(context.db, context.clock);
    const schedule = new AlarmSchedule(context, store);
    services.summary.provide('alarms', () => {
      const due = store.list().flatMap((a) => (a.enabled && a.nextOccurance ? [a.nextOccurance] : []));
      return { enabled: due.length, next: due.sort()[0] ?? null };
    });
    let stopHandling: (() => void) | undefined;
    const now = () => context.clock.now();
    const find = (id: string) => {
      const alarm = store.get(id);
      if (!alarm) throw notFound('Alarm', id);
      return alarm;
    };
    return {
      implementations: implement<typeof hubOperations.alarms, HubPrincipal>(hubOperations.alarms, {
        getState: () => {
          const next = store
            .list()
            .flatMap((a) => (a.nextOccurance ? [a] : []))
            .sort((a, b) => (a.nextOccurance as string).localeCompare(b.nextOccurance as string))[0];
          return { count: store.list().length, next: next ? { id: next.id, nextOccurance: next.nextOccurance } : null };
        },
        getAlarms: () => Object.fromEntries(store.list().map((a) => [a.id, a])),
        getAlarm: ({ params }) => find(params.id),
        createAlarm: ({ body }) => {
          const alarm = transact(context.db, () =>
            store.create(
              withNext({ name: body.name, time: body.time, enabled: body.enabled ?? true, repetition: body.repetition }, now()),
            ),
          );
          schedule.schedule(alarm);
          context.events.entity('alarms', 'alarm', 'create', alarm, READ_SCOPE);
          return alarm;
        },
        updateAlarm: ({ params, body }) => {
          const alarm = transact(context.db, () => {
            const current = find(params.id);
            return store.save({
              ...withNext(
                {
                  name: body.name ?? current.name,
                  time: body.time ?? current.time,
                  enabled: body.enabled ?? current.enabled,
                  repetition: body.repetition ?? current.repetition,
                },
                now(),
              ),
              id: current.id,
            });
          });
          schedule.schedule(alarm);
          context.events.entity('alarms', 'alarm', 'update', alarm, READ_SCOPE);
          return alarm;
        },
        deleteAlarm: ({ params }) => {
          if (!transact(context.db, () => store.delete(params.id))) throw notFound('Alarm', params.id);
          schedule.cancel(params.id);
          context.events.entity('alarms', 'alarm', 'delete', { id: params.id }, READ_SCOPE);
          // Flows that start on this alarm are broken now.
          services.flowCards.changed();
        },
      }),
      start: () => {
        // Alarms stored before they had scheduler jobs (or whose job was lost) get one.
        const scheduled = new Set(context.scheduler.list({ kind: ALARM_JOB }).map((job) => job.owner));
        for (const alarm of store.list()) if (!scheduled.has(`alarm:${alarm.id}`)) schedule.schedule(alarm);
        const stopJobs = schedule.handle();
        const stopCards = serveAlarmCards(services.flowCards, context.bus, store);
        stopHandling = () => {
          stopJobs();
          stopCards();
        };
      },
      stop: () => stopHandling?.(),
    };
  },
};
