import { hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import type { EventViewer } from '../../platform/events';
import { transact } from '../../store/database';
import { rowsPerDay } from '../reports/activities';
import { type NotificationOwner, NotificationStore, notificationMigrations, type StoredNotification, visibleTo } from './store';

const READ_SCOPE = 'homey.notifications.readonly';

/** The caller's view of a notification: `readBy` tells only whether the caller read it. */
const forUser = (store: NotificationStore, userId: string, notification: StoredNotification) => ({
  ...notification,
  iconObj: null,
  readBy: store.isReadBy(notification.id, userId) ? [userId] : [],
});

function roleOf(context: HubContext, principal: HubPrincipal): string {
  return context.users.get(principal.userId)?.role ?? 'guest';
}

/** Notifications: per-owner switches, read state per user, expiry, and roles that may see each one. */
export const notificationsManager: HubManager = {
  name: 'notifications',
  migrations: notificationMigrations,
  create: (context, services) => {
    // The monthly reports count this manager's records through its counter.
    services.activities.register('notifications', rowsPerDay(context.db, 'notifications_notification', 'date_created'));
    const store = new NotificationStore(context.db, context.clock);
    let stopCard: (() => void) | undefined;
    const visible = (principal: HubPrincipal) => {
      const role = roleOf(context, principal);
      return (n: StoredNotification) => visibleTo(n, role);
    };
    const find = (principal: HubPrincipal, id: string) => {
      const notification = store.get(id);
      if (!notification || !visible(principal)(notification)) throw notFound('Notification', id);
      return notification;
    };
    const findOwner = (uri: string) => store.owner(uri) ?? (notFoundThrow('Notification owner', uri) as never);
    /** Announces a deletion to those who could see the notification. */
    const publishDeleted = (notification: StoredNotification) => {
      const data = { id: notification.id };
      const view = (viewer: EventViewer) => (visibleTo(notification, viewer.role) ? data : undefined);
      context.events.entity('notifications', 'notification', 'delete', data, READ_SCOPE, view);
    };
    const publishOwner = (owner: NotificationOwner | undefined) => {
      if (owner) context.events.entity('notifications', 'owner', 'update', owner, READ_SCOPE);
    };
    return {
      implementations: implement<typeof hubOperations.notifications, HubPrincipal>(hubOperations.notifications, {
        getState: ({ principal }) => ({
          count: store.list().filter(visible(principal)).length,
          unread: store.unreadCount(principal.userId, roleOf(context, principal)),
          owners: store.owners().length,
        }),
        getNotifications: ({ principal }) => {
          transact(context.db, () => store.purgeExpired());
          return Object.fromEntries(
            store
              .list()
              .filter(visible(principal))
              .map((n) => [n.id, forUser(store, principal.userId, n)]),
          );
        },
        getNotification: ({ principal, params }) => forUser(store, principal.userId, find(principal, params.id)),
        createNotification: ({ body }) => {
          const notification = services.notifications.notify(body);
          return notification && { ...notification, iconObj: null, readBy: [] };
        },
        markNotificationAsRead: ({ principal, params }) => {
          const notification = find(principal, params.id);
          transact(context.db, () => store.markRead(notification.id, principal.userId));
          const read = forUser(store, principal.userId, notification);
          // Read state is per user: only the reader's sessions see this notification change.
          const view = (viewer: EventViewer) => (viewer.userId === principal.userId ? read : undefined);
          context.events.entity('notifications', 'notification', 'update', read, READ_SCOPE, view);
          return read;
        },
        deleteNotification: ({ principal, params }) => {
          const notification = find(principal, params.id);
          transact(context.db, () => store.delete(notification.id));
          publishDeleted(notification);
        },
        deleteNotifications: ({ principal, query }) => {
          if (query.ownerUri !== undefined) findOwner(query.ownerUri);
          // Only what the caller can see: notifications meant for other roles stay.
          const canSee = visible(principal);
          const doomed = store.list().filter((n) => canSee(n) && (query.ownerUri === undefined || n.ownerUri === query.ownerUri));
          transact(context.db, () => {
            for (const notification of doomed) store.delete(notification.id);
          });
          for (const notification of doomed) publishDeleted(notification);
        },
        getOwners: () => Object.fromEntries(store.owners().map((o) => [o.uri, o])),
        setOwnerEnabled: ({ params, body }) => {
          findOwner(params.uri);
          const owner = transact(context.db, () => store.setOwner(params.uri, { enabled: body.enabled }));
          publishOwner(owner);
          return owner as NonNullable<typeof owner>;
        },
        setOwnerPush: ({ params, body }) => {
          findOwner(params.uri);
          const owner = transact(context.db, () => store.setOwner(params.uri, { push: body.push }));
          publishOwner(owner);
          return owner as NonNullable<typeof owner>;
        },
      }),
      start: () => {
        // Flows can post a notification to the timeline.
        stopCard = services.flowCards.registerCard({
          type: 'action',
          uri: 'homey:manager:notifications',
          id: 'create_notification',
          title: 'Create a notification',
          args: [{ name: 'text', type: 'text', title: 'Text' }],
          run: ({ args }) => {
            const text = typeof args.text === 'string' && args.text.trim() ? args.text : null;
            if (!text) throw invalidParameter('args.text', 'The notification needs a text');
            const notification = services.notifications.notify({ ownerUri: 'homey:manager:flow', excerpt: text });
            return { notificationId: notification?.id ?? null };
          },
        });
      },
      stop: () => stopCard?.(),
    };
  },
};

function notFoundThrow(what: string, id: string): never {
  throw notFound(what, id);
}
