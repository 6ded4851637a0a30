import { Type } from 'typebox';
import { managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

const op = hubManager('mobile');

export const MobileSummary = Type.Object(
  {
    name: Type.String(),
    usersPresent: Type.Integer(),
    usersAsleep: Type.Integer(),
    notificationsUnread: Type.Integer(),
    alarmsEnabled: Type.Integer(),
    nextAlarm: Type.Union([Type.Null(), Type.String()]),
    flows: Type.Integer(),
    variables: Type.Integer(),
  },
  { additionalProperties: true },
);

export const mobileOperations = {
  getState: declareState(op),
  getSummary: op({
    name: 'getSummary',
    method: 'GET',
    path: '/summary',
    scope: 'homey.system.readonly',
    response: MobileSummary,
    summary: "A summary of the home for the caller's mobile app.",
  }),
  sendEvent: op({
    name: 'sendEvent',
    method: 'POST',
    path: '/event',
    scope: 'homey.presence.self',
    body: Type.Object({ event: Type.String({ minLength: 1, maxLength: 100 }), data: Type.Optional(OpenObject) }),
    response: Type.Object({ id: Type.String(), event: Type.String(), receivedAt: Type.String() }),
    summary: 'An event from the mobile app (e.g. a geofence crossing).',
    description:
      "Needs `homey.presence.self`, as the event speaks for the caller's own whereabouts (every role holds it; a token narrowed to other scopes does not). The event is recorded for, and announced with, the caller's own user, never anyone else's (a `data.userId` naming another user is refused with 403), and starts nothing by itself.",
  }),
} as const;

/** Wire events of the mobile manager: a mobile event, with who sent it and its data. */
export const mobileEvents = managerEvents('mobile', {
  events: {
    event: Type.Object(
      { ...mobileOperations.sendEvent.response.properties, userId: Type.String(), data: Type.Unknown() },
      { additionalProperties: true },
    ),
  },
});
