import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams, Nullable, OpenObject } from './options';

const op = hubManager('notifications');

export const Notification = Type.Object({
  id: Type.String(),
  ownerUri: Type.String(),
  dateCreated: Type.String(),
  dateExpires: Type.Union([Type.Null(), Type.String()]),
  excerpt: Type.String(),
  icon: Type.Union([Type.Null(), Type.String()]),
  iconObj: Type.Union([Type.Null(), Type.Object({ id: Type.String(), url: Type.String() })]),
  priority: Type.Enum(['INFO', 'WARNING', 'CRITICAL']),
  /** The users who read it, as far as the caller may know: the caller's own id once the caller has read it. */
  readBy: Type.Array(Type.String()),
  /** The user roles that see it; empty for everyone. */
  roles: Type.Array(Type.String()),
  meta: OpenObject,
});

export const NotificationOwner = Type.Object({
  uri: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  push: Type.Boolean(),
});

const OwnerParams = Type.Object({ uri: Type.String({ minLength: 1 }) });

export const notificationsOperations = {
  getState: declareState(op),
  getNotifications: op({
    name: 'getNotifications',
    summary: "The notifications on the caller's timeline, by id, each with whether the caller has read it.",
    method: 'GET',
    path: '/notification',
    scope: 'homey.notifications.readonly',
    response: Type.Record(Type.String(), Notification),
  }),
  getNotification: op({
    name: 'getNotification',
    summary: "One notification of the caller's timeline.",
    method: 'GET',
    path: '/notification/:id',
    scope: 'homey.notifications.readonly',
    params: IdParams,
    response: Notification,
  }),
  createNotification: op({
    name: 'createNotification',
    method: 'POST',
    path: '/notification',
    scope: 'homey.notifications',
    private: true,
    body: Type.Object({
      ownerUri: Type.String({ minLength: 1 }),
      ownerName: Type.Optional(Type.String()),
      excerpt: Type.String({ minLength: 1, maxLength: 1000 }),
      priority: Type.Optional(Type.Enum(['INFO', 'WARNING', 'CRITICAL'])),
      roles: Type.Optional(Type.Array(Type.Enum(['owner', 'manager', 'user', 'guest']))),
      dateExpires: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
      meta: Type.Optional(OpenObject),
    }),
    response: Type.Union([Type.Null(), Notification]),
    summary: "Internal: the hub's parts and apps post notifications here.",
  }),
  markNotificationAsRead: op({
    name: 'markNotificationAsRead',
    summary: 'Marks a notification as read by the caller (read state is per user).',
    method: 'POST',
    path: '/notification/:id/read',
    scope: 'homey.notifications.readonly',
    params: IdParams,
    response: Notification,
  }),
  deleteNotification: op({
    name: 'deleteNotification',
    summary: 'Deletes a notification from the timeline.',
    method: 'DELETE',
    path: '/notification/:id',
    scope: 'homey.notifications',
    params: IdParams,
  }),
  deleteNotifications: op({
    name: 'deleteNotifications',
    summary: 'Deletes every notification the caller can see, or only those of one owner.',
    method: 'DELETE',
    path: '/notification',
    scope: 'homey.notifications',
    query: Type.Object({ ownerUri: Type.Optional(Type.String({ minLength: 1 })) }),
  }),
  getOwners: op({
    name: 'getOwners',
    summary:
      "Everything that posts notifications (the hub's parts and apps), by uri, with whether it may post and whether it pushes to phones.",
    method: 'GET',
    path: '/owner',
    scope: 'homey.notifications.readonly',
    response: Type.Record(Type.String(), NotificationOwner),
  }),
  setOwnerEnabled: op({
    name: 'setOwnerEnabled',
    summary: 'Lets a notification owner post to the timeline or stops it; answers the owner.',
    method: 'PUT',
    path: '/owner/:uri/enabled',
    scope: 'homey.notifications',
    params: OwnerParams,
    body: Type.Object({ enabled: Type.Boolean() }),
    response: NotificationOwner,
  }),
  setOwnerPush: op({
    name: 'setOwnerPush',
    summary: 'Turns push messages to phones on or off for a notification owner; answers the owner.',
    method: 'PUT',
    path: '/owner/:uri/push',
    scope: 'homey.notifications',
    params: OwnerParams,
    body: Type.Object({ push: Type.Boolean() }),
    response: NotificationOwner,
  }),
} as const;

/** Wire events of the notifications manager. */
export const notificationsEvents = managerEvents('notifications', {
  events: { ...entityEvents('notification', Notification), 'owner.update': NotificationOwner },
});
