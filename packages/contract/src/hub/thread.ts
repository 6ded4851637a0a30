import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

/** Thread: the border router's dataset and topology. */
const op = hubManager('thread');

const ThreadEnabled = Type.Object({ enabled: Type.Boolean() });

export const threadOperations = {
  getState: declareState(op),
  getNetworkTopology: op({
    name: 'getNetworkTopology',
    summary: 'The Thread network (simulated): the border router, its routers and the devices attached to them.',
    method: 'GET',
    path: '/topology',
    scope: 'homey.device.readonly',
    response: OpenObject,
  }),
  getActiveDataset: op({
    name: 'getActiveDataset',
    summary: "The Thread network's active operational dataset: name, channel, PAN id and the dataset as TLV hex.",
    method: 'GET',
    path: '/active-dataset',
    scope: 'homey.device',
    private: true,
    response: OpenObject,
  }),
  setActiveDataset: op({
    name: 'setActiveDataset',
    summary: "Replaces the Thread network's active dataset with one given as TLV hex; answers the new dataset.",
    method: 'POST',
    path: '/active-dataset',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ tlvHex: Type.String({ pattern: '^([0-9a-fA-F]{2})+$', maxLength: 508 }) }),
    response: OpenObject,
  }),
  apiReset: op({
    name: 'apiReset',
    method: 'POST',
    path: '/reset',
    scope: 'homey.system',
    private: true,
    response: OpenObject,
    summary: 'Resets the border router: a new network (dataset), nothing discovered.',
  }),
  executeCommand: op({
    name: 'executeCommand',
    method: 'POST',
    path: '/execute-command',
    scope: 'homey.system',
    private: true,
    body: Type.Object({
      command: Type.String({ minLength: 1, maxLength: 200 }),
      timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 60_000 })),
      flush: Type.Optional(Type.Boolean()),
      preventThreadSetup: Type.Optional(Type.Boolean()),
    }),
    response: Type.Object({ command: Type.String(), output: Type.Array(Type.String()) }),
    summary: 'Runs an OpenThread CLI command (`state`, `channel`, `panid`, `dataset active -x`, `child table`, …).',
  }),
  apiDisable: op({
    name: 'apiDisable',
    summary: "Turns the hub's Thread border router off.",
    method: 'GET',
    path: '/disable',
    scope: 'homey.system',
    private: true,
    response: ThreadEnabled,
  }),
  apiEnable: op({
    name: 'apiEnable',
    summary: "Turns the hub's Thread border router on.",
    method: 'GET',
    path: '/enable',
    scope: 'homey.system',
    private: true,
    response: ThreadEnabled,
  }),
  getDiscoveredBorderRouters: op({
    name: 'getDiscoveredBorderRouters',
    method: 'GET',
    path: '/discovered-border-routers',
    scope: 'homey.device',
    private: true,
    response: Type.Array(OpenObject),
    summary: 'The other Thread border routers the last scan found on the local network.',
  }),
  rescanBorderRouters: op({
    name: 'rescanBorderRouters',
    summary: 'Scans the local network for other Thread border routers (simulated) and answers them.',
    method: 'POST',
    path: '/rescan-border-routers',
    scope: 'homey.device',
    private: true,
    response: Type.Array(OpenObject),
  }),
} as const;
