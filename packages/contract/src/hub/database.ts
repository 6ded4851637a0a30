import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('database');

export const databaseOperations = {
  getState: declareState(op),
  optimize: op({
    name: 'optimize',
    method: 'POST',
    path: '/optimize',
    scope: 'homey.system',
    response: Type.Object({ sizeBefore: Type.Integer(), sizeAfter: Type.Integer(), durationMs: Type.Number() }),
    summary: "Vacuums and re-analyses the hub's database.",
  }),
} as const;
