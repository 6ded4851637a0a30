import { randomUUID } from 'node:crypto';
import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { isoNow } from '../../core/clock';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import { rowsPerDay } from '../reports/activities';
import { hubName } from '../system';

const KEEP = 100;

const migrations: Migration[] = [
  {
    id: 'mobile-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE mobile_event (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        event TEXT NOT NULL,
        data TEXT NOT NULL,
        received_at TEXT NOT NULL
      )`),
  },
];

/** What the mobile app shows at a glance, and the events it sends (geofence crossings, app opened, …). */
export const mobileManager: HubManager = {
  name: 'mobile',
  migrations,
  create: (context, services) => {
    // The monthly reports count this manager's records through its counter.
    services.activities.register('mobileEvents', rowsPerDay(context.db, 'mobile_event', 'received_at'));
    const { summary, notifications } = services;
    return {
      implementations: implement<typeof hubOperations.mobile, HubPrincipal>(hubOperations.mobile, {
        getState: ({ principal }) => ({
          events: context.db
            .prepare('SELECT COUNT(*) FROM mobile_event WHERE user_id = ?')
            .pluck()
            .get(principal.userId) as number,
          lastEvent: (context.db
            .prepare(
              'SELECT event, received_at AS receivedAt FROM mobile_event WHERE user_id = ? ORDER BY received_at DESC LIMIT 1',
            )
            .get(principal.userId) ?? null) as Record<string, unknown> | null,
        }),
        getSummary: ({ principal }) => {
          const users = context.users.list();
          const alarms = summary.alarms();
          return {
            name: hubName(context),
            usersPresent: users.filter((u) => u.present).length,
            usersAsleep: users.filter((u) => u.asleep).length,
            notificationsUnread: notifications.unreadCount(principal.userId, principal.role),
            alarmsEnabled: alarms.enabled,
            nextAlarm: alarms.next,
            flows: summary.flows(),
            variables: summary.variables(),
          };
        },
        sendEvent: ({ principal, body }) => {
          // The call asks for no scope: an event is only ever the caller's own, so flows and apps reading who it
          // is about can trust it.
          const about = body.data?.userId;
          if (about !== undefined && about !== principal.userId)
            throw new HearthError('forbidden', "A mobile event is the caller's own: data.userId must be the caller");
          const entry = { id: randomUUID(), event: body.event, receivedAt: isoNow(context.clock) };
          transact(context.db, () => {
            context.db
              .prepare('INSERT INTO mobile_event (id, user_id, event, data, received_at) VALUES (?, ?, ?, ?, ?)')
              .run(entry.id, principal.userId, body.event, JSON.stringify(body.data ?? {}), entry.receivedAt);
            context.db
              .prepare(
                'DELETE FROM mobile_event WHERE user_id = ? AND id NOT IN (SELECT id FROM mobile_event WHERE user_id = ? ORDER BY received_at DESC LIMIT ?)',
              )
              .run(principal.userId, principal.userId, KEEP);
          });
          // Flows that start on a mobile event (e.g. arriving home) listen for this.
          context.events.manager(
            'mobile',
            'event',
            { ...entry, userId: principal.userId, data: body.data ?? {} },
            'homey.system',
          );
          return entry;
        },
      }),
    };
  },
};
