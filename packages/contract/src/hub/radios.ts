import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareOptions, declareState, OpenObject } from './options';

/** Radio and network managers (seed section 7) served with a simulated controller. */
const zwave = hubManager('zwave');
const zigbee = hubManager('zigbee');
const ble = hubManager('ble');
const rf = hubManager('rf');
const coprocessor = hubManager('coprocessor');
const matter = hubManager('matter');
const thread = hubManager('thread');

export const ZWAVE_REGIONS = ['EU', 'US', 'ANZ', 'HK', 'IN', 'IL', 'RU', 'CN', 'JP', 'KR'] as const;

const Command = Type.Object({
  command: Type.String({ minLength: 1, maxLength: 100 }),
  opts: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
const NodeParams = Type.Object({ id: Type.String({ minLength: 1 }) });
const Pulses = Type.Array(Type.Integer({ minimum: 1, maximum: 100_000 }), { minItems: 1, maxItems: 4096 });
const Frequency = Type.Enum(['433', '868', 'ir']);

export const zwaveOperations = {
  getState: declareState(zwave),
  ...declareOptions(zwave, {
    regionOverride: {
      value: Type.Union([Type.Enum([...ZWAVE_REGIONS]), Type.Null()]),
      read: 'homey.system.readonly',
      write: 'homey.system',
    },
  }),
  runCommand: zwave({
    name: 'runCommand',
    method: 'POST',
    path: '/command',
    scope: 'homey.system',
    body: Command,
    response: Type.Unknown(),
  }),
  getLog: zwave({
    name: 'getLog',
    method: 'GET',
    path: '/log',
    scope: 'homey.system',
    response: Type.Object({
      enabled: Type.Boolean(),
      entries: Type.Array(Type.Object({ t: Type.String(), line: Type.String() })),
    }),
  }),
  setLogEnabled: zwave({
    name: 'setLogEnabled',
    method: 'PUT',
    path: '/log',
    scope: 'homey.system',
    body: Type.Object({ enabled: Type.Boolean() }),
    response: Type.Object({ enabled: Type.Boolean() }),
  }),
} as const;

export const zigbeeOperations = {
  getState: declareState(zigbee),
  runCommand: zigbee({
    name: 'runCommand',
    method: 'POST',
    path: '/command',
    scope: 'homey.system',
    body: Command,
    response: Type.Unknown(),
  }),
} as const;

export const bleOperations = {
  getState: declareState(ble),
  runCommand: ble({
    name: 'runCommand',
    method: 'POST',
    path: '/command',
    scope: 'homey.system',
    body: Command,
    response: Type.Unknown(),
  }),
} as const;

const Transmission = Type.Object(
  { frequency: Type.String(), pulses: Type.Integer(), durationMs: Type.Number() },
  { additionalProperties: true },
);

export const rfOperations = {
  getState: declareState(rf),
  record: rf({
    name: 'record',
    method: 'POST',
    path: '/record',
    scope: 'homey.system',
    body: Type.Object({
      frequency: Type.Optional(Frequency),
      timeout: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
    }),
    response: Type.Object({ frequency: Type.String(), data: Type.Array(Type.Integer()) }),
    summary: 'Records a signal from a remote (simulated: a remote is always pressed in time).',
  }),
  replay: rf({
    name: 'replay',
    method: 'POST',
    path: '/replay',
    scope: 'homey.system',
    body: Type.Object({ frequency: Frequency, data: Pulses }),
    response: Transmission,
  }),
  emulate: rf({
    name: 'emulate',
    method: 'POST',
    path: '/:frequency/emulate',
    scope: 'homey.system',
    params: Type.Object({ frequency: Frequency }),
    bodyRoot: 'data',
    body: Pulses,
    response: Transmission,
  }),
  set433MHzConfig: rf({
    name: 'set433MHzConfig',
    method: 'POST',
    path: '/mhz433/config',
    scope: 'homey.system',
    body: Type.Object({
      modulation: Type.Optional(Type.Enum(['ASK', 'OOK', 'FSK', 'GFSK'])),
      carrier: Type.Optional(Type.Number({ minimum: 432_000_000, maximum: 435_000_000 })),
      deviation: Type.Optional(Type.Number({ minimum: 0, maximum: 380_000 })),
      channelSpacing: Type.Optional(Type.Number({ minimum: 0, maximum: 400_000 })),
      filterBandwidth: Type.Optional(Type.Number({ minimum: 50_000, maximum: 800_000 })),
      baudrate: Type.Optional(Type.Number({ minimum: 100, maximum: 100_000 })),
      power: Type.Optional(Type.Number({ minimum: -30, maximum: 10 })),
    }),
    response: OpenObject,
  }),
  txInfraredProntohex: rf({
    name: 'txInfraredProntohex',
    method: 'POST',
    path: '/ir/prontohex',
    scope: 'homey.system',
    body: Type.Object({
      payload: Type.String({ minLength: 4, maxLength: 8192 }),
      repetitions: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
    }),
    response: Transmission,
  }),
} as const;

export const coprocessorOperations = {
  getState: declareState(coprocessor),
  getBridges: coprocessor({
    name: 'getBridges',
    method: 'GET',
    path: '/bridge',
    scope: 'homey.system.readonly',
    response: Type.Array(OpenObject),
  }),
  pairBridge: coprocessor({
    name: 'pairBridge',
    method: 'POST',
    path: '/bridge',
    scope: 'homey.system',
    body: Type.Object({ serialHash: Type.String({ pattern: '^[0-9a-fA-F]{16,64}$' }) }),
    response: OpenObject,
  }),
  setDebugLogging: coprocessor({
    name: 'setDebugLogging',
    method: 'PUT',
    path: '/debug',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ peripheral: Type.Optional(Type.String()), enabled: Type.Boolean() }),
    response: OpenObject,
  }),
} as const;

export const matterOperations = {
  getState: declareState(matter),
  ...declareOptions(matter, {
    paaSettings: { value: Type.Object({}, { additionalProperties: true }), read: 'homey.system', write: 'homey.system' },
  }),
  getMatterNodes: matter({
    name: 'getMatterNodes',
    method: 'GET',
    path: '/nodes',
    scope: 'homey.system.readonly',
    response: Type.Array(OpenObject),
  }),
  getMatterNode: matter({
    name: 'getMatterNode',
    method: 'GET',
    path: '/node/:id',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
  }),
  deleteMatterNode: matter({
    name: 'deleteMatterNode',
    method: 'DELETE',
    path: '/node/:id',
    scope: 'homey.system',
    params: NodeParams,
  }),
  getNodeFabrics: matter({
    name: 'getNodeFabrics',
    method: 'GET',
    path: '/node/:id/fabrics',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: Type.Array(OpenObject),
  }),
  pingNode: matter({
    name: 'pingNode',
    method: 'POST',
    path: '/node/:id/ping',
    scope: 'homey.system',
    params: NodeParams,
    response: OpenObject,
  }),
} as const;

export const threadOperations = {
  getState: declareState(thread),
  getNetworkTopology: thread({
    name: 'getNetworkTopology',
    method: 'GET',
    path: '/topology',
    scope: 'homey.device.readonly',
    response: OpenObject,
  }),
  getActiveDataset: thread({
    name: 'getActiveDataset',
    method: 'GET',
    path: '/active-dataset',
    scope: 'homey.device',
    private: true,
    response: OpenObject,
  }),
  setActiveDataset: thread({
    name: 'setActiveDataset',
    method: 'POST',
    path: '/active-dataset',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ tlvHex: Type.String({ pattern: '^([0-9a-fA-F]{2})+$', maxLength: 508 }) }),
    response: OpenObject,
  }),
} as const;
