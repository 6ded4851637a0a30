import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { Cron } from 'croner';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { nextOccurance, repeats } from './schedule';
import { type Alarm, AlarmStore, alarmMigrations } from './store';

const READ_SCOPE = 'homey.alarm.readonly';

/**
 * Keeps one timer per enabled alarm. When an alarm goes off it publishes `alarm.fire` on the alarms manager,
 * then moves `nextOccurance` on (repeating alarms) or switches the alarm off (one-off alarms) and publishes
 * `alarm.update`.
 */
class AlarmScheduler {
  private readonly timers = new Map<string, Cron>();

  constructor(
    private readonly context: HubContext,
    private readonly store: AlarmStore,
  ) {}

  schedule(alarm: Alarm): void {
    this.cancel(alarm.id);
    if (!alarm.enabled || !alarm.nextOccurance) return;
    const at = new Date(alarm.nextOccurance);
    this.timers.set(alarm.id, new Cron(at, { maxRuns: 1, unref: true }, () => this.fire(alarm.id, at)));
  }

  cancel(id: string): void {
    this.timers.get(id)?.stop();
    this.timers.delete(id);
  }

  stop(): void {
    for (const id of [...this.timers.keys()]) this.cancel(id);
  }

  private fire(id: string, at: Date): void {
    this.timers.delete(id);
    // A hub stopped without telling its managers which one it was leaves its timers; they end here.
    if (!this.context.db.open) {
      this.stop();
      return;
    }
    const alarm = this.store.get(id);
    if (!alarm?.enabled) return;
    this.context.events.publish({
      uri: 'homey:manager:alarms',
      event: 'alarm.fire',
      data: { ...alarm, firedAt: new Date().toISOString() },
      scope: READ_SCOPE,
    });
    const updated = transact(this.context.db, () =>
      this.store.save(
        repeats(alarm.repetition)
          ? { ...alarm, nextOccurance: nextOccurance(alarm.time, alarm.repetition, at) }
          : { ...alarm, enabled: false, nextOccurance: null },
      ),
    );
    this.context.events.entity('alarms', 'alarm', 'update', updated, READ_SCOPE);
    this.schedule(updated);
  }
}

/** A stored alarm with its next occurrence recomputed from its time and repetition (`null` while disabled). */
function withNext(alarm: Omit<Alarm, 'nextOccurance' | 'id'> & { id?: string }) {
  return { ...alarm, nextOccurance: alarm.enabled ? nextOccurance(alarm.time, alarm.repetition) : null };
}

/** One scheduler per hub: several hubs may run in one process. */
const schedulers = new WeakMap<HubContext, AlarmScheduler>();

export const alarmsManager: HubManager = {
  name: 'alarms',
  migrations: alarmMigrations,
  implementations: (context) => {
    const store = new AlarmStore(context.db);
    const scheduler = () => schedulers.get(context);
    const find = (id: string) => {
      const alarm = store.get(id);
      if (!alarm) throw notFound('Alarm', id);
      return alarm;
    };
    return implement<typeof hubOperations.alarms, HubPrincipal>(hubOperations.alarms, {
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
            withNext({ name: body.name, time: body.time, enabled: body.enabled ?? true, repetition: body.repetition }),
          ),
        );
        scheduler()?.schedule(alarm);
        context.events.entity('alarms', 'alarm', 'create', alarm, READ_SCOPE);
        return alarm;
      },
      updateAlarm: ({ params, body }) => {
        const alarm = transact(context.db, () => {
          const current = find(params.id);
          return store.save({
            ...withNext({
              name: body.name ?? current.name,
              time: body.time ?? current.time,
              enabled: body.enabled ?? current.enabled,
              repetition: body.repetition ?? current.repetition,
            }),
            id: current.id,
          });
        });
        scheduler()?.schedule(alarm);
        context.events.entity('alarms', 'alarm', 'update', alarm, READ_SCOPE);
        return alarm;
      },
      deleteAlarm: ({ params }) => {
        if (!transact(context.db, () => store.delete(params.id))) throw notFound('Alarm', params.id);
        scheduler()?.cancel(params.id);
        context.events.entity('alarms', 'alarm', 'delete', { id: params.id }, READ_SCOPE);
      },
    });
  },
  start: (context) => {
    const store = new AlarmStore(context.db);
    const scheduler = new AlarmScheduler(context, store);
    schedulers.set(context, scheduler);
    // Occurrences missed while the hub was off are not replayed: each alarm moves on to its next occurrence.
    for (const alarm of store.list()) {
      const fresh = alarm.enabled ? withNext(alarm) : alarm;
      const saved = fresh.nextOccurance === alarm.nextOccurance ? alarm : store.save({ ...fresh, id: alarm.id });
      scheduler.schedule(saved);
    }
  },
  stop: (context?: HubContext) => {
    if (!context) return;
    schedulers.get(context)?.stop();
    schedulers.delete(context);
  },
};
