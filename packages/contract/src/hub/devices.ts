import { type Static, Type } from 'typebox';
import { DeletedItem, entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { devicesExamples } from './examples';
import { declareState, IdParams, OpenObject } from './options';

const op = hubManager('devices');

/** A device's capability as it appears in `capabilitiesObj`. */
export const DeviceCapability = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    title: Type.String(),
    getable: Type.Boolean(),
    setable: Type.Boolean(),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    lastUpdated: Type.Union([Type.String(), Type.Null()]),
    options: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

/** A device (seed section 3). Open-ended so that every field the hub builds reaches the client. */
export const Device = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    driverId: Type.String(),
    driverUri: Type.String(),
    ownerUri: Type.String(),
    zone: Type.String(),
    class: Type.String(),
    capabilities: Type.Array(Type.String()),
    capabilitiesObj: Type.Record(Type.String(), DeviceCapability),
    available: Type.Boolean(),
    ready: Type.Boolean(),
  },
  { additionalProperties: true },
);

/** A device as the hub serves it, with every Device field of the seed. */
export type DeviceCapabilityItem = Static<typeof DeviceCapability> & { [key: string]: unknown };
export type DeviceItem = Omit<Static<typeof Device>, 'capabilitiesObj'> & {
  capabilitiesObj: Record<string, DeviceCapabilityItem>;
  [key: string]: unknown;
};

const CapabilityParams = Type.Object({ deviceId: Type.String({ minLength: 1 }), capabilityId: Type.String({ minLength: 1 }) });
const CapabilityValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

const GroupDevices = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true });
const GroupFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  class: Type.String({ minLength: 1, maxLength: 100 }),
  devices: GroupDevices,
  zone: Type.String({ minLength: 1, maxLength: 100 }),
};

export const devicesOperations = {
  getState: declareState(op),
  getDevices: op({
    name: 'getDevices',
    examples: devicesExamples.getDevices,
    summary: 'Every device of the hub, by id, with its capabilities and their values.',
    method: 'GET',
    path: '/device',
    scope: 'homey.device.readonly',
    response: Type.Record(Type.String(), Device),
  }),
  getDevice: op({
    name: 'getDevice',
    examples: devicesExamples.getDevice,
    summary: 'One device, with its capabilities and their values.',
    method: 'GET',
    path: '/device/:id',
    scope: 'homey.device.readonly',
    params: IdParams,
    response: Device,
  }),
  updateDevice: op({
    name: 'updateDevice',
    method: 'PUT',
    path: '/device/:id',
    scope: 'homey.device',
    params: IdParams,
    bodyRoot: 'device',
    body: Type.Record(Type.String(), Type.Unknown()),
    response: Device,
    summary: 'Updates name, note, zone, iconOverride, virtualClass, uiIndicator, hidden; other fields are not updatable.',
  }),
  deleteDevice: op({
    name: 'deleteDevice',
    summary: 'Deletes a device from the hub, with its settings and capability values.',
    method: 'DELETE',
    path: '/device/:id',
    scope: 'homey.device',
    params: IdParams,
  }),
  getDeviceSettingsObj: op({
    name: 'getDeviceSettingsObj',
    summary: "A device's settings as its driver declares them, with their current values.",
    method: 'GET',
    path: '/device/:id/settings_obj',
    scope: 'homey.device.readonly',
    params: IdParams,
    response: Type.Array(OpenObject),
  }),
  setDeviceSettings: op({
    name: 'setDeviceSettings',
    summary: "Changes a device's settings; its driver checks and applies them.",
    method: 'PUT',
    path: '/device/:id/settings',
    scope: 'homey.device',
    params: IdParams,
    bodyRoot: 'settings',
    body: Type.Record(Type.String(), Type.Unknown()),
    response: OpenObject,
  }),
  getCapabilityValue: op({
    name: 'getCapabilityValue',
    summary: 'The current value of one capability of a device.',
    method: 'GET',
    path: '/device/:deviceId/capability/:capabilityId',
    scope: 'homey.device.readonly',
    params: CapabilityParams,
    response: CapabilityValue,
  }),
  setCapabilityValue: op({
    name: 'setCapabilityValue',
    examples: devicesExamples.setCapabilityValue,
    method: 'PUT',
    path: '/device/:deviceId/capability/:capabilityId',
    scope: 'homey.device.control',
    params: CapabilityParams,
    body: Type.Object({
      value: CapabilityValue,
      opts: Type.Optional(Type.Object({ duration: Type.Optional(Type.Number({ minimum: 0 })) }, { additionalProperties: true })),
      transactionId: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    summary: "Sets a capability's value after checking it against the capability (type, range, step, enum values).",
  }),
  createGroup: op({
    name: 'createGroup',
    method: 'POST',
    path: '/group',
    scope: 'homey.device',
    bodyRoot: 'group',
    body: Type.Object({
      name: GroupFields.name,
      devices: GroupFields.devices,
      class: Type.Optional(GroupFields.class),
      zone: Type.Optional(GroupFields.zone),
    }),
    response: Device,
    summary:
      'Groups devices of one class into a device with the capabilities they share; setting a capability of the group sets it on each of them.',
  }),
  updateGroup: op({
    name: 'updateGroup',
    method: 'PUT',
    path: '/group/:id',
    scope: 'homey.device',
    params: IdParams,
    bodyRoot: 'group',
    body: Type.Object({
      name: Type.Optional(GroupFields.name),
      devices: Type.Optional(GroupFields.devices),
      zone: Type.Optional(GroupFields.zone),
    }),
    response: Device,
    summary: 'Renames or moves a group, or sets its devices (its capabilities follow what they share).',
  }),
  deleteDeviceFromGroup: op({
    name: 'deleteDeviceFromGroup',
    method: 'DELETE',
    path: '/group/:groupId/device/:deviceId',
    scope: 'homey.device',
    params: Type.Object({ groupId: Type.String({ minLength: 1 }), deviceId: Type.String({ minLength: 1 }) }),
    response: Device,
    summary: 'Takes a device out of a group; the last device cannot leave (delete the group instead).',
  }),
  getCapabilities: op({
    name: 'getCapabilities',
    method: 'GET',
    path: '/capability',
    scope: 'homey.device.readonly',
    response: Type.Record(Type.String(), OpenObject),
    summary: 'The capability catalogue.',
  }),
  getCapability: op({
    name: 'getCapability',
    method: 'GET',
    path: '/capability/:uri/:id',
    scope: 'homey.device.readonly',
    params: Type.Object({ uri: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1 }) }),
    response: OpenObject,
    summary: 'One capability of the catalogue (`homey:manager:devices`) or of an app (`homey:app:<id>`).',
  }),
} as const;

/** What `homey:device:<id>` carries after each capability value: the caller's transactionId on the value it set. */
export const CapabilityEvent = Type.Object({
  capabilityId: Type.String(),
  value: CapabilityValue,
  transactionId: Type.String(),
  /** Epoch ms the value was stored at. */
  transactionTime: Type.Number(),
});

/** Wire events of the devices manager and of each device's own URI. */
export const devicesEvents = managerEvents('devices', {
  events: entityEvents('device', Device),
  items: { device: { capability: CapabilityEvent, update: Device, delete: DeletedItem } },
});
