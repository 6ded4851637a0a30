import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

/** Thread: the border router's dataset and topology. */
const op = hubManager('thread');

export const threadOperations = {
  getState: declareState(op),
  getNetworkTopology: op({
    name: 'getNetworkTopology',
    method: 'GET',
    path: '/topology',
    scope: 'homey.device.readonly',
    response: OpenObject,
  }),
  getActiveDataset: op({
    name: 'getActiveDataset',
    method: 'GET',
    path: '/active-dataset',
    scope: 'homey.device',
    private: true,
    response: OpenObject,
  }),
  setActiveDataset: op({
    name: 'setActiveDataset',
    method: 'POST',
    path: '/active-dataset',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ tlvHex: Type.String({ pattern: '^([0-9a-fA-F]{2})+$', maxLength: 508 }) }),
    response: OpenObject,
  }),
} as const;
