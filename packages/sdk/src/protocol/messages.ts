import { type Static, type TSchema, Type } from 'typebox';

/**
 * The protocol between a hub and one app process, declared once: every request each side may make, its
 * parameters and its result, and every event. The hub validates what an app sends against these schemas (an
 * app is untrusted code); the app's runner takes the hub's messages as typed.
 *
 * Adding a call: add it to {@link HubToApp} (the hub asks the app) or {@link AppToHub} (the app asks the hub)
 * with its `params` and `result` schemas; both peers then type it.
 */

const Json = Type.Unknown();
const Id = Type.String({ minLength: 1, maxLength: 200 });
export const CapabilityValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
export type CapabilityValue = Static<typeof CapabilityValue>;
const JsonObject = Type.Record(Type.String(), Json);
const None = Type.Null();

/** A device of the app as the app process mirrors it (the hub owns the record). */
export const DeviceSnapshot = Type.Object({
  id: Id,
  driverId: Id,
  name: Type.String(),
  class: Type.String(),
  data: Json,
  store: JsonObject,
  settings: JsonObject,
  capabilities: Type.Array(Type.String()),
  capabilitiesOptions: Type.Record(Type.String(), JsonObject),
  values: Type.Record(Type.String(), CapabilityValue),
  available: Type.Boolean(),
  unavailableMessage: Type.Union([Type.String(), Type.Null()]),
  warning: Type.Union([Type.String(), Type.Null()]),
  energy: Type.Union([JsonObject, Type.Null()]),
});
export type DeviceSnapshot = Static<typeof DeviceSnapshot>;

export const Geolocation = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  accuracy: Type.Number(),
  mode: Type.String(),
});
export type Geolocation = Static<typeof Geolocation>;

/** A Z-Wave node as an app sees it (`ZwaveNode`): its ids, whether it is online, and its command classes. */
export const ZwaveNodeInfo = Type.Object({
  nodeId: Type.Integer(),
  manufacturerId: Type.Union([Type.Integer(), Type.Null()]),
  productTypeId: Type.Union([Type.Integer(), Type.Null()]),
  productId: Type.Union([Type.Integer(), Type.Null()]),
  firmwareId: Type.Union([Type.Integer(), Type.Null()]),
  deviceClassBasic: Type.Union([Type.String(), Type.Null()]),
  deviceClassGeneric: Type.Union([Type.String(), Type.Null()]),
  deviceClassSpecific: Type.Union([Type.String(), Type.Null()]),
  battery: Type.Boolean(),
  online: Type.Boolean(),
  commandClasses: Type.Array(Type.Object({ id: Type.Integer(), name: Id, version: Type.Integer(), commands: Type.Array(Id) })),
});
export type ZwaveNodeInfo = Static<typeof ZwaveNodeInfo>;

/** What the hub tells an app process when it starts it. */
export const InitParams = Type.Object({
  appId: Id,
  /** The app's manifest (app.json, compose merged). */
  manifest: JsonObject,
  /** env.json of the app. */
  env: Type.Record(Type.String(), Type.String()),
  /** The app's folder (read-only to it), its userdata folder and its temporary folder (both writable). */
  dir: Type.String(),
  userdataDir: Type.String(),
  tmpDir: Type.String(),
  hubId: Type.String(),
  hubVersion: Type.String(),
  platform: Type.Union([Type.Literal('local'), Type.Literal('cloud')]),
  platformVersion: Type.Integer(),
  language: Type.String(),
  units: Type.String(),
  timezone: Type.String(),
  geolocation: Geolocation,
  /** The hub's local address, for `homey.api.getLocalUrl()` and `homey.cloud.getLocalAddress()`. */
  localUrl: Type.String(),
  settings: JsonObject,
  devices: Type.Array(DeviceSnapshot),
});
export type InitParams = Static<typeof InitParams>;

export const FlowCardKind = Type.Union([Type.Literal('trigger'), Type.Literal('condition'), Type.Literal('action')]);
export type FlowCardKind = Static<typeof FlowCardKind>;

export const PairSessionType = Type.Union([Type.Literal('pair'), Type.Literal('repair'), Type.Literal('unpair')]);
export type PairSessionType = Static<typeof PairSessionType>;

const HttpMethod = Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('DELETE')]);

interface Call {
  readonly params: TSchema;
  readonly result: TSchema;
}

const call = <P extends TSchema, R extends TSchema>(params: P, result: R) => ({ params, result });

/** Requests the hub makes of an app process. Each is answered within the hub's call timeout. */
export const HubToApp = {
  /** Boot the app: construct App, drivers and devices, run their `onInit`. Answers once all resolved. */
  init: call(InitParams, None),
  /** The app is being stopped: `onUninit` of devices, drivers and the app, then timers are cleared. */
  uninit: call(Type.Object({}), None),
  /** A capability write for the device's listeners; answers once they confirmed it, fails when they refused. */
  'capability.set': call(
    Type.Object({
      deviceId: Id,
      values: Type.Record(Type.String(), CapabilityValue),
      opts: Type.Record(Type.String(), JsonObject),
    }),
    None,
  ),
  /** A device was paired: construct it, `onInit`, then `onAdded`. */
  'device.added': call(Type.Object({ device: DeviceSnapshot }), None),
  /** A device was removed from the hub: `onDeleted`, then it is gone. */
  'device.deleted': call(Type.Object({ deviceId: Id }), None),
  'device.renamed': call(Type.Object({ deviceId: Id, name: Type.String() }), None),
  /** A user changes the device's settings: `onSettings` accepts (optionally with a message) or refuses. */
  'device.settings': call(
    Type.Object({ deviceId: Id, oldSettings: JsonObject, newSettings: JsonObject, changedKeys: Type.Array(Type.String()) }),
    Type.Object({ message: Type.Union([Type.String(), Type.Null()]) }),
  ),
  /** A client opened a pair, repair or unpair session with one of the app's drivers. */
  'pair.open': call(
    Type.Object({ sessionId: Id, driverId: Id, type: PairSessionType, deviceId: Type.Union([Id, Type.Null()]) }),
    None,
  ),
  /** The client emitted an event in the session (a view's `Homey.emit`, `list_devices`, `showView`). */
  'pair.message': call(Type.Object({ sessionId: Id, event: Type.String(), data: Json }), Json),
  'pair.close': call(Type.Object({ sessionId: Id }), None),
  /** Run a flow card's run listener. Triggers answer whether the flow's args match the state. */
  'flow.run': call(
    Type.Object({
      kind: FlowCardKind,
      cardId: Id,
      args: JsonObject,
      state: JsonObject,
      tokens: JsonObject,
      deviceId: Type.Union([Id, Type.Null()]),
    }),
    Type.Object({ result: Json }),
  ),
  'flow.autocomplete': call(
    Type.Object({ kind: FlowCardKind, cardId: Id, argument: Type.String(), query: Type.String(), args: JsonObject }),
    Type.Array(JsonObject),
  ),
  /** A request to the app's web API (a route of the manifest's `api` block, by its name). */
  'api.request': call(
    Type.Object({
      route: Type.String(),
      params: Type.Record(Type.String(), Type.String()),
      query: Type.Record(Type.String(), Json),
      body: Json,
    }),
    Json,
  ),
  /**
   * Opens an image of the app for reading: answers its content type once its first bytes are known, then the app
   * sends the bytes as `image.chunk` events and closes with `image.end` (all carrying `streamId`).
   */
  'image.open': call(Type.Object({ imageId: Id, streamId: Id }), Type.Object({ contentType: Type.String() })),
  /** Run the app's garbage collector; answers its heap use after it. */
  gc: call(Type.Object({}), Type.Object({ heapUsed: Type.Number() })),
} as const satisfies Record<string, Call>;

/** Requests an app process makes of its hub (`this.homey`'s managers, devices, flow cards). */
export const AppToHub = {
  'device.setCapabilityValue': call(Type.Object({ deviceId: Id, capabilityId: Id, value: CapabilityValue }), None),
  'device.setCapabilityOptions': call(Type.Object({ deviceId: Id, capabilityId: Id, options: JsonObject }), None),
  'device.addCapability': call(Type.Object({ deviceId: Id, capabilityId: Id }), None),
  'device.removeCapability': call(Type.Object({ deviceId: Id, capabilityId: Id }), None),
  'device.setAvailable': call(
    Type.Object({ deviceId: Id, available: Type.Boolean(), message: Type.Union([Type.String(), Type.Null()]) }),
    None,
  ),
  'device.setWarning': call(Type.Object({ deviceId: Id, message: Type.Union([Type.String(), Type.Null()]) }), None),
  'device.setStore': call(Type.Object({ deviceId: Id, store: JsonObject }), None),
  'device.setSettings': call(Type.Object({ deviceId: Id, settings: JsonObject }), None),
  'device.setClass': call(Type.Object({ deviceId: Id, class: Id }), None),
  'device.setEnergy': call(Type.Object({ deviceId: Id, energy: JsonObject }), None),
  /** The device shows the image as its album art, or as its camera `id` titled `title`. */
  'device.setImage': call(
    Type.Object({
      deviceId: Id,
      kind: Type.Union([Type.Literal('albumart'), Type.Literal('camera')]),
      id: Id,
      imageId: Id,
      title: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
    }),
    None,
  ),
  'settings.set': call(Type.Object({ key: Id, value: Json }), None),
  'settings.unset': call(Type.Object({ key: Id }), None),
  /** Fire a trigger card; with `deviceId`, the device card of that device. */
  'flow.trigger': call(
    Type.Object({ cardId: Id, tokens: JsonObject, state: JsonObject, deviceId: Type.Union([Id, Type.Null()]) }),
    None,
  ),
  /** The arguments of every flow using the card (`getArgumentValues`). */
  'flow.argumentValues': call(
    Type.Object({ kind: FlowCardKind, cardId: Id, deviceId: Type.Union([Id, Type.Null()]) }),
    Type.Array(JsonObject),
  ),
  'flow.createToken': call(
    Type.Object({
      id: Id,
      type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('image')]),
      title: Type.String({ minLength: 1 }),
      value: Json,
    }),
    None,
  ),
  'flow.setTokenValue': call(Type.Object({ id: Id, value: Json }), None),
  'flow.unregisterToken': call(Type.Object({ id: Id }), None),
  'notifications.create': call(Type.Object({ excerpt: Type.String({ minLength: 1, maxLength: 1000 }) }), None),
  'insights.createLog': call(
    Type.Object({
      id: Id,
      title: Type.String({ minLength: 1 }),
      type: Type.Union([Type.Literal('number'), Type.Literal('boolean')]),
      units: Type.Union([Type.String(), Type.Null()]),
      decimals: Type.Union([Type.Integer(), Type.Null()]),
    }),
    None,
  ),
  'insights.getLogs': call(Type.Object({}), Type.Array(Type.Object({ id: Id, title: Type.String(), type: Type.String() }))),
  'insights.deleteLog': call(Type.Object({ id: Id }), None),
  'insights.createEntry': call(Type.Object({ id: Id, value: Type.Union([Type.Number(), Type.Boolean()]) }), None),
  'images.create': call(Type.Object({}), Type.Object({ id: Id })),
  /** Where the image's bytes come from: a file of the app, a URL, or the app itself (`image.read`). */
  'images.update': call(
    Type.Object({
      id: Id,
      source: Type.Union([
        Type.Object({ kind: Type.Literal('path'), path: Type.String() }),
        Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
        Type.Object({ kind: Type.Literal('stream') }),
      ]),
    }),
    None,
  ),
  'images.unregister': call(Type.Object({ id: Id }), None),
  /** A realtime event on the app's own uri (`homey:app:<id>`). */
  'api.realtime': call(Type.Object({ event: Type.String({ minLength: 1, maxLength: 200 }), data: Json }), None),
  /** A call to the hub's web API as the app (`homey:manager:api` permission) or to another app's web API. */
  'api.request': call(Type.Object({ method: HttpMethod, uri: Type.String({ minLength: 1, maxLength: 2000 }), body: Json }), Json),
  'api.getOwnerApiToken': call(Type.Object({}), Type.String()),
  'apps.getInstalled': call(Type.Object({ appId: Id }), Type.Boolean()),
  'apps.getVersion': call(Type.Object({ appId: Id }), Type.Union([Type.String(), Type.Null()])),
  'pair.emit': call(Type.Object({ sessionId: Id, event: Type.String({ minLength: 1 }), data: Json }), Json),
  'pair.showView': call(Type.Object({ sessionId: Id, viewId: Id }), None),
  'pair.nextView': call(Type.Object({ sessionId: Id }), None),
  'pair.prevView': call(Type.Object({ sessionId: Id }), None),
  'pair.done': call(Type.Object({ sessionId: Id }), None),
  'speech.say': call(Type.Object({ text: Type.String({ minLength: 1, maxLength: 1000 }) }), None),
  /** The Z-Wave node of the app's device: ids, state and command classes (`this.homey.zwave.getNode`). */
  'zwave.getNode': call(Type.Object({ deviceId: Id }), ZwaveNodeInfo),
  /** A command of one of the node's command classes, with the ecosystem's field names; a GET answers its report. */
  'zwave.command': call(
    Type.Object({ deviceId: Id, commandClass: Id, command: Id, args: JsonObject }),
    Type.Union([JsonObject, Type.Null()]),
  ),
  /** A raw command to the node (`ZwaveNode.sendCommand`): its command class, command and parameter bytes. */
  'zwave.sendCommand': call(
    Type.Object({
      deviceId: Id,
      commandClassId: Type.Integer({ minimum: 0, maximum: 255 }),
      commandId: Type.Integer({ minimum: 0, maximum: 255 }),
      params: Type.Array(Type.Integer({ minimum: 0, maximum: 255 }), { maxItems: 64 }),
    }),
    None,
  ),
  /** Listen to cloud webhook `id` (the hub registers for it at its cloud with `data`). */
  'cloud.registerWebhook': call(Type.Object({ id: Id, data: JsonObject }), None),
  'cloud.unregisterWebhook': call(Type.Object({ id: Id }), None),
} as const satisfies Record<string, Call>;

/** Events the hub sends an app (no answer). */
export const HubToAppEvents = {
  /** A setting changed by someone else (the app's settings page, the web API). */
  setting: Type.Object({ key: Type.String(), value: Json, removed: Type.Boolean() }),
  /** The app's memory use is close to its limit (`limit`: its heap cap in MB); free what you can. */
  memwarn: Type.Object({ count: Type.Integer(), limit: Type.Integer() }),
  /** The app keeps the processor busy; after `limit` warnings it is stopped. */
  cpuwarn: Type.Object({ count: Type.Integer(), limit: Type.Integer() }),
  /** The app is about to be stopped. */
  unload: Type.Object({}),
  /** A flow card's arguments changed (a flow using it was saved): FlowCard `update`. */
  'flow.cardUpdated': Type.Object({ kind: FlowCardKind, cardId: Id }),
  /** A report a Z-Wave node of the app's device sent (or answered), in the ecosystem's form: ZwaveCommandClass `report`. */
  'zwave.report': Type.Object({
    deviceId: Id,
    commandClass: Id,
    command: Id,
    commandId: Type.Integer(),
    report: JsonObject,
  }),
  /** A Z-Wave node of the app's device was found dead, or alive again (asleep is online): ZwaveNode `online`. */
  'zwave.online': Type.Object({ deviceId: Id, online: Type.Boolean() }),
  /** A call of a cloud webhook the app listens to, as the cloud delivered it. */
  'cloud.webhook': Type.Object({
    webhookId: Id,
    headers: Type.Record(Type.String(), Type.String()),
    query: Type.Record(Type.String(), Type.String()),
    body: Json,
  }),
} as const satisfies Record<string, TSchema>;

/** Events an app sends its hub. */
export const AppToHubEvents = {
  /** Sent from the uncaught-exception handler just before the process exits: the crash message. */
  crash: Type.Object({ message: Type.String(), stack: Type.Union([Type.String(), Type.Null()]) }),
  /** Bytes of an image opened with `image.open`, in order. */
  'image.chunk': Type.Object({ streamId: Id, data: Type.String({ contentEncoding: 'base64', maxLength: 2 * 1024 * 1024 }) }),
  /** The image's bytes ended (`error`: why they stopped early). */
  'image.end': Type.Object({ streamId: Id, error: Type.Union([Type.String(), Type.Null()]) }),
} as const satisfies Record<string, TSchema>;

export type HubToAppMethods = {
  [K in keyof typeof HubToApp]: {
    params: Static<(typeof HubToApp)[K]['params']>;
    result: Static<(typeof HubToApp)[K]['result']>;
  };
};
export type AppToHubMethods = {
  [K in keyof typeof AppToHub]: {
    params: Static<(typeof AppToHub)[K]['params']>;
    result: Static<(typeof AppToHub)[K]['result']>;
  };
};
export type HubToAppEventMap = { [K in keyof typeof HubToAppEvents]: Static<(typeof HubToAppEvents)[K]> };
export type AppToHubEventMap = { [K in keyof typeof AppToHubEvents]: Static<(typeof AppToHubEvents)[K]> };
