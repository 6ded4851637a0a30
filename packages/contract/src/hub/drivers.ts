import { Type } from 'typebox';
import { ANY_EVENT, managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams, OpenObject } from './options';

const op = hubManager('drivers');

/** A driver of an installed app; its id is `homey:app:<appId>:<driverId>`. */
export const Driver = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    ownerUri: Type.String(),
    class: Type.String(),
    connectivity: Type.Array(Type.String()),
    ready: Type.Boolean(),
    pair: Type.Array(OpenObject),
  },
  { additionalProperties: true },
);

/** A pair session (seed section 3): pairing a new device, or unpairing or repairing one. */
export const PairSession = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('pair'), Type.Literal('unpair'), Type.Literal('repair')]),
    driverId: Type.String(),
    driverUri: Type.String(),
    deviceId: Type.Union([Type.String(), Type.Null()]),
    zoneId: Type.Union([Type.String(), Type.Null()]),
    views: Type.Array(OpenObject),
    expiresAt: Type.String(),
  },
  { additionalProperties: true },
);

const NewPairSession = Type.Object({
  type: Type.Union([Type.Literal('pair'), Type.Literal('unpair'), Type.Literal('repair')]),
  driverId: Type.String({ minLength: 1 }),
  deviceId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  zoneId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The device a pairing view hands over (seed: "Pair device"). */
export const PairDevice = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    data: Type.Object({}, { additionalProperties: true }),
    zone: Type.Optional(Type.String()),
    store: Type.Optional(Type.Object({}, { additionalProperties: true })),
    capabilities: Type.Optional(Type.Array(Type.String())),
    capabilitiesOptions: Type.Optional(Type.Record(Type.String(), Type.Object({}, { additionalProperties: true }))),
    class: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    iconOverride: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    settings: Type.Optional(Type.Object({}, { additionalProperties: true })),
    energy: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

export const driversOperations = {
  getState: declareState(op),
  getDrivers: op({
    name: 'getDrivers',
    summary: 'Every driver of the installed apps, by id, with its class, capabilities and pairing steps.',
    method: 'GET',
    path: '/driver',
    scope: 'homey.device.readonly',
    response: Type.Record(Type.String(), Driver),
  }),
  getDriver: op({
    name: 'getDriver',
    summary: 'One driver: its app, class, capabilities and pairing steps.',
    method: 'GET',
    path: '/driver/:id',
    scope: 'homey.device.readonly',
    params: IdParams,
    response: Driver,
  }),
  getPairSession: op({
    name: 'getPairSession',
    summary: "The caller's pairing session: its driver, current view and devices found so far.",
    method: 'GET',
    path: '/pairsession/:id',
    scope: 'homey.device',
    params: IdParams,
    response: PairSession,
  }),
  createPairSession: op({
    name: 'createPairSession',
    method: 'POST',
    path: '/pairsession',
    scope: 'homey.device',
    bodyRoot: 'pairsession',
    body: NewPairSession,
    response: PairSession,
    summary: 'Starts pairing (or unpairing, repairing) with a driver. A session expires without heartbeats.',
  }),
  deletePairSession: op({
    name: 'deletePairSession',
    summary: "Ends the caller's pairing session; devices not yet added are dropped.",
    method: 'DELETE',
    path: '/pairsession/:id',
    scope: 'homey.device',
    params: IdParams,
  }),
  emitPairingHeartbeat: op({
    name: 'emitPairingHeartbeat',
    summary: "Keeps the caller's pairing session alive; a session without heartbeats expires.",
    method: 'POST',
    path: '/pairsession/:id/heartbeat',
    scope: 'homey.device',
    params: IdParams,
    response: PairSession,
  }),
  emitPairingEvent: op({
    name: 'emitPairingEvent',
    method: 'POST',
    path: '/pairsession/:id/emit',
    scope: 'homey.device',
    params: IdParams,
    body: Type.Object({ event: Type.String({ minLength: 1 }), data: Type.Optional(Type.Unknown()) }),
    response: Type.Unknown(),
    summary: "Sends a pairing view's event to the driver; answers the driver's reply.",
  }),
  emitPairingCallback: op({
    name: 'emitPairingCallback',
    method: 'POST',
    path: '/pairsession/:id/callback',
    scope: 'homey.device',
    params: IdParams,
    body: Type.Object({ callbackId: Type.String({ minLength: 1 }), data: Type.Optional(Type.Unknown()) }),
    summary: 'Answers a question the driver asked the pairing view (its callbackId).',
  }),
  createPairSessionDevice: op({
    name: 'createPairSessionDevice',
    method: 'POST',
    path: '/pairsession/:id/device',
    scope: 'homey.device',
    params: IdParams,
    bodyRoot: 'device',
    body: PairDevice,
    response: OpenObject,
    summary: 'Adds the device the pairing found; answers the new device.',
  }),
  deletePairSessionDevice: op({
    name: 'deletePairSessionDevice',
    method: 'DELETE',
    path: '/pairsession/:id/device',
    scope: 'homey.device',
    params: IdParams,
    summary: "Removes the unpair session's device.",
  }),
  getPairSessions: op({
    name: 'getPairSessions',
    method: 'GET',
    path: '/pairsession',
    scope: 'homey.device',
    response: Type.Array(PairSession),
    summary: "The caller's open pair sessions.",
  }),
  updatePairSession: op({
    name: 'updatePairSession',
    method: 'PUT',
    path: '/pairsession/:id',
    scope: 'homey.device',
    params: IdParams,
    bodyRoot: 'pairsession',
    body: Type.Object({ zoneId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])) }),
    response: PairSession,
    summary: 'Changes the zone the session adds its devices to.',
  }),
  getDriverByUri: op({
    name: 'getDriverByUri',
    method: 'GET',
    path: '/driver/:uri/:id',
    scope: 'homey.device.readonly',
    params: Type.Object({
      uri: Type.String({ minLength: 1, maxLength: 300 }),
      id: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    response: Driver,
    summary: 'A driver by its owner uri (`homey:app:<appId>`) and its id within the app.',
  }),
} as const;

/**
 * Wire events of a pair session's own URI: what its driver sends the pairing views, and view changes. The hub
 * publishes them, but a socket cannot subscribe to `homey:pairsession:<id>` yet: a pair session is its user's own,
 * and subscriptions are checked by scope only.
 */
export const driversEvents = managerEvents('drivers', {
  items: { pairsession: { [ANY_EVENT]: Type.Unknown() } },
});
