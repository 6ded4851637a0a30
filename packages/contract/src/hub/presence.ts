import { Type } from 'typebox';
import { managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams } from './options';

const op = hubManager('presence');

// The wire lists `value` as optional: a call without it leaves the flag as it is and answers its current value.
const Value = Type.Object({ value: Type.Optional(Type.Boolean()) });
const ValueMe = Type.Object({
  value: Type.Optional(Type.Boolean()),
  opts: Type.Optional(Type.Object({ forceFlowTrigger: Type.Optional(Type.Boolean()) })),
});

export const presenceOperations = {
  getState: declareState(op),
  setPresentMe: op({
    name: 'setPresentMe',
    summary: 'Says whether the signed-in member is home.',
    method: 'PUT',
    path: '/me/present',
    scope: 'homey.presence.self',
    body: ValueMe,
    response: Type.Boolean(),
  }),
  setPresent: op({
    name: 'setPresent',
    summary: 'Says whether a member is home.',
    method: 'PUT',
    path: '/:id/present',
    scope: 'homey.presence',
    params: IdParams,
    body: Value,
    response: Type.Boolean(),
  }),
  getPresent: op({
    name: 'getPresent',
    summary: 'Whether a member is home.',
    method: 'GET',
    path: '/:id/present',
    scope: 'homey.presence.readonly',
    params: IdParams,
    response: Type.Boolean(),
  }),
  setAsleepMe: op({
    name: 'setAsleepMe',
    summary: 'Says whether the signed-in member is asleep.',
    method: 'PUT',
    path: '/me/asleep',
    scope: 'homey.presence.self',
    body: ValueMe,
    response: Type.Boolean(),
  }),
  setAsleep: op({
    name: 'setAsleep',
    summary: 'Says whether a member is asleep.',
    method: 'PUT',
    path: '/:id/asleep',
    scope: 'homey.presence',
    params: IdParams,
    body: Value,
    response: Type.Boolean(),
  }),
  getAsleep: op({
    name: 'getAsleep',
    summary: 'Whether a member is asleep.',
    method: 'GET',
    path: '/:id/asleep',
    scope: 'homey.presence.readonly',
    params: IdParams,
    response: Type.Boolean(),
  }),
} as const;

/** Wire events of the presence manager: a user's presence flag changed (or a flow trigger was forced). */
export const presenceEvents = managerEvents('presence', {
  events: {
    'presence.update': Type.Object({
      id: Type.String(),
      present: Type.Boolean(),
      asleep: Type.Boolean(),
      changed: Type.Enum(['present', 'asleep']),
      forced: Type.Boolean(),
    }),
  },
});
