import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState } from './options';

/** Bluetooth Low Energy: discovery and connections. */
const op = hubManager('ble');

const Command = Type.Object({
  command: Type.String({ minLength: 1, maxLength: 100 }),
  opts: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const bleOperations = {
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
