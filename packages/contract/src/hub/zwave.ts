import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareRadioCommand, declareState, OpenObject } from './options';

/** Z-Wave: the hub's controller (zwave-js on the stick `HUB_ZWAVE_PORT` names), its region and log. */
const op = hubManager('zwave');

export const ZWAVE_REGIONS = ['EU', 'US', 'ANZ', 'HK', 'IN', 'IL', 'RU', 'CN', 'JP', 'KR'] as const;

/** The controller's listen-before-talk threshold (dBm) until one is set, and the range it may be set in. */
export const ZWAVE_LBT_DEFAULT = -75;
export const ZWAVE_LBT_RANGE = { minimum: -100, maximum: -30 } as const;

export const zwaveOperations = {
  getState: declareState(op),
  ...declareOptions(op, {
    region: {
      value: Type.Enum([...ZWAVE_REGIONS]),
      read: 'homey.system.readonly',
      write: 'homey.system',
      description:
        "The region the controller runs in (older description); until set, the hub's language decides (US for en-us, else EU). " +
        '`regionOverride` (newer description) takes precedence over it.',
    },
    regionOverride: {
      value: Type.Union([Type.Enum([...ZWAVE_REGIONS]), Type.Null()]),
      read: 'homey.system.readonly',
      write: 'homey.system',
    },
  }),
  runCommand: declareRadioCommand(op, 'the Z-Wave controller', {
    summary:
      'Runs a named command of the Z-Wave controller with its options: `getNodes`, `getNode` ({nodeId}), `ping` ' +
      '({nodeId}), `heal` (rebuilds every route), `softReset`. A hub without a Z-Wave stick answers `no_controller`.',
    errors: ['no_controller', 'invalid_parameter', 'not_found', 'not_implemented'],
  }),
  getLog: op({
    name: 'getLog',
    summary: "The Z-Wave controller's log: whether it is on and its recent lines.",
    method: 'GET',
    path: '/log',
    scope: 'homey.system',
    response: Type.Object({
      enabled: Type.Boolean(),
      entries: Type.Array(Type.Object({ t: Type.String(), line: Type.String() })),
    }),
  }),
  setLogEnabled: op({
    name: 'setLogEnabled',
    summary: "Turns the Z-Wave controller's log on or off.",
    method: 'PUT',
    path: '/log',
    scope: 'homey.system',
    body: Type.Object({ enabled: Type.Boolean() }),
    response: Type.Object({ enabled: Type.Boolean() }),
  }),
  // Private tools of the older description.
  setLbtThreshold: op({
    name: 'setLbtThreshold',
    method: 'PUT',
    path: '/lbt-threshold',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ threshold: Type.Integer({ ...ZWAVE_LBT_RANGE, description: 'dBm' }) }),
    response: Type.Object({ lbtThreshold: Type.Integer() }),
    summary:
      "Sets the controller's listen-before-talk threshold: it sends only while the channel is quieter (older description).",
  }),
  attemptNvmFix: op({
    name: 'attemptNvmFix',
    method: 'PUT',
    path: '/attempt-nvm-fix',
    scope: 'homey.system',
    private: true,
    response: Type.Object({ removedNodes: Type.Integer(), nodes: Type.Integer() }),
    errors: ['no_controller', 'not_implemented'],
    summary: "Repairs the controller's memory: node entries whose device is gone are dropped (older description).",
  }),
  removeFailedDevice: op({
    name: 'removeFailedDevice',
    summary:
      "Removes a Z-Wave device's node that no longer answers from the controller (zwave-js's removeFailedNode: the " +
      'node is pinged first) and deletes the devices of that node. A node that answers is `zwave_node_not_failed`: ' +
      'exclude it instead.',
    method: 'POST',
    path: '/device/:deviceId/remove-failed',
    scope: 'homey.device',
    params: Type.Object({ deviceId: Type.String({ minLength: 1 }) }),
    response: Type.Object({ nodeId: Type.Integer(), removedDeviceIds: Type.Array(Type.String()) }),
    errors: ['no_controller', 'not_found', 'zwave_node_not_failed', 'zwave_busy', 'unavailable'],
  }),
  flashFirmware: op({
    name: 'flashFirmware',
    method: 'PUT',
    path: '/flash-firmware',
    scope: 'homey.system',
    private: true,
    body: Type.Object({
      erase: Type.Optional(Type.Boolean({ description: 'Also wipe the network (refused while devices are paired)' })),
    }),
    response: OpenObject,
    errors: ['conflict', 'no_controller', 'not_implemented'],
    summary:
      "Flashes the controller's newest firmware; with `erase` a new network whose node ids start again (older description).",
  }),
} as const;

/** Wire events of the Z-Wave manager. */
export const zwaveEvents = managerEvents('zwave', { events: optionEvents });
