import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { logicExamples } from './examples';
import { declareState, IdParams } from './options';

const op = hubManager('logic');

/**
 * Variable types: `string`, `number`, `boolean` (older description) and the single letters `n`, `u`, `m`, `b`,
 * `e`, `r` of the newer one. The letters spell out `number`: the newer description's type list is the word
 * `number` split into characters, so the hub treats every letter as the number type and stores the type as sent.
 */
export const VariableType = Type.Enum(['string', 'number', 'boolean', 'n', 'u', 'm', 'b', 'e', 'r']);
export const VariableValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

export const Variable = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  value: VariableValue,
});

export const VariableCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  type: VariableType,
  value: VariableValue,
});

export const VariableUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  type: Type.Optional(VariableType),
  value: Type.Optional(VariableValue),
});

export const WebhookEvent = Type.Object({
  id: Type.String(),
  event: Type.String(),
  tag: Type.Union([Type.Null(), Type.String()]),
  receivedAt: Type.String(),
});

export const logicOperations = {
  getState: declareState(op),
  getVariables: op({
    name: 'getVariables',
    examples: logicExamples.getVariables,
    summary: 'Every Logic variable, by id, with its type and value.',
    method: 'GET',
    path: '/variable',
    scope: 'homey.logic.readonly',
    response: Type.Record(Type.String(), Variable),
  }),
  getVariable: op({
    name: 'getVariable',
    summary: 'One Logic variable.',
    method: 'GET',
    path: '/variable/:id',
    scope: 'homey.logic.readonly',
    params: IdParams,
    response: Variable,
  }),
  createVariable: op({
    name: 'createVariable',
    examples: logicExamples.createVariable,
    summary: 'Creates a variable (number, boolean or text) with its first value.',
    method: 'POST',
    path: '/variable',
    scope: 'homey.logic',
    body: VariableCreate,
    bodyRoot: 'variable',
    response: Variable,
  }),
  updateVariable: op({
    name: 'updateVariable',
    examples: logicExamples.updateVariable,
    summary: 'Renames a variable or sets its value; flows waiting on it run.',
    method: 'PUT',
    path: '/variable/:id',
    scope: 'homey.logic',
    params: IdParams,
    body: VariableUpdate,
    bodyRoot: 'variable',
    response: Variable,
  }),
  deleteVariable: op({
    name: 'deleteVariable',
    summary: 'Deletes a logic variable and its value.',
    method: 'DELETE',
    path: '/variable/:id',
    scope: 'homey.logic',
    params: IdParams,
  }),
  triggerWebhook: op({
    name: 'triggerWebhook',
    method: 'GET',
    path: '/webhook/:event',
    scope: null,
    params: Type.Object({ event: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$' }) }),
    query: Type.Object({ tag: Type.Optional(Type.String({ maxLength: 500 })) }),
    response: WebhookEvent,
    summary: 'A webhook call for flows that start on a webhook event.',
    description:
      'Any signed-in session may call it, as the wire has it: it only starts the flows the household built to start on this webhook event (their trigger card), with the event name and `tag` as their only input, and records the call. It reads nothing and changes no device, flow or setting itself.',
  }),
  registerCloudWebhook: op({
    name: 'registerCloudWebhook',
    method: 'PUT',
    path: '/cloudwebhook',
    scope: 'homey.logic',
    body: Type.Optional(Type.Object({ renew: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
    response: Type.Object({ url: Type.String(), registeredAt: Type.String() }),
    errors: ['unavailable', 'offline'],
    summary: 'Registers the hub with the cloud for webhook calls from anywhere, and answers their address.',
    description:
      'Calling `<url>&event=<event>&tag=<tag>` (GET, or POST with `event` and `tag` in a JSON body) from anywhere starts the flows that start on that webhook event, as `GET /webhook/{event}` does on the hub itself. The address holds a random key, kept until `renew` makes a new one (the old address stops working).',
  }),
} as const;

/** Wire events of the logic manager. */
export const logicEvents = managerEvents('logic', {
  events: { ...entityEvents('variable', Variable), webhook: WebhookEvent },
});
