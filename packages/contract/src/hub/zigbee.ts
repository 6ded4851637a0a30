import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState } from './options';

/** Zigbee: the simulated coordinator. */
const op = hubManager('zigbee');

const Command = Type.Object({
  command: Type.String({ minLength: 1, maxLength: 100 }),
  opts: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const zigbeeOperations = {
  getState: declareState(op),
  runCommand: op({
    name: 'runCommand',
    method: 'POST',
    path: '/command',
    scope: 'homey.system',
    body: Command,
    response: Type.Unknown(),
  }),
} as const;
