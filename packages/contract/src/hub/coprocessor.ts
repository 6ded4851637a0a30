import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

/** The radio coprocessor: bridges and debug logging. */
const op = hubManager('coprocessor');

export const coprocessorOperations = {
  getState: declareState(op),
  getBridges: op({
    name: 'getBridges',
    summary: 'The bridges paired with the radio coprocessor, with their radios and connection state.',
    method: 'GET',
    path: '/bridge',
    scope: 'homey.system.readonly',
    response: Type.Array(OpenObject),
  }),
  pairBridge: op({
    name: 'pairBridge',
    summary: 'Pairs a bridge by its serial hash with the radio coprocessor; answers the paired bridge.',
    method: 'POST',
    path: '/bridge',
    scope: 'homey.system',
    body: Type.Object({ serialHash: Type.String({ pattern: '^[0-9a-fA-F]{16,64}$' }) }),
    response: OpenObject,
  }),
  setDebugLogging: op({
    name: 'setDebugLogging',
    summary: 'Turns debug logging of one coprocessor peripheral (or all) on or off; answers the setting per peripheral.',
    method: 'PUT',
    path: '/debug',
    scope: 'homey.system',
    private: true,
    body: Type.Object({ peripheral: Type.Optional(Type.String()), enabled: Type.Boolean() }),
    response: OpenObject,
  }),
} as const;
