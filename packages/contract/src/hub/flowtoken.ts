import { Type } from 'typebox';
import { managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('flowtoken');

export const FlowToken = Type.Object({
  /** `<owner uri>|<token id>`, e.g. `homey:manager:logic|<variable id>`. */
  id: Type.String(),
  /**
   * The owner (the seed's `uri`). Sent as `ownerUri`: clients treat a `uri` field on an item as the item's own
   * realtime URI (wire-protocol.md), which the owner's uri is not.
   */
  ownerUri: Type.String(),
  title: Type.String(),
  type: Type.Enum(['string', 'number', 'boolean', 'image']),
  value: Type.Union([Type.Null(), Type.String(), Type.Number(), Type.Boolean()]),
  uriObj: Type.Object({ type: Type.String(), id: Type.String(), name: Type.String() }),
});

export const flowtokenOperations = {
  getState: declareState(op),
  getFlowTokens: op({
    name: 'getFlowTokens',
    summary: 'Every flow token (a value flows can use) by `<owner uri>|<id>`, with its type and value.',
    method: 'GET',
    path: '/flowtoken',
    scope: 'homey.flow.readonly',
    response: Type.Record(Type.String(), FlowToken),
  }),
  getFlowToken: op({
    name: 'getFlowToken',
    summary: 'One flow token: its owner, title, type and value.',
    method: 'GET',
    path: '/flowtoken/:id',
    scope: 'homey.flow.readonly',
    params: Type.Object({ id: Type.String({ minLength: 1 }) }),
    response: FlowToken,
  }),
  getFlowTokenByUri: op({
    name: 'getFlowTokenByUri',
    method: 'GET',
    path: '/flowtoken/:uri/:id',
    scope: 'homey.flow.readonly',
    params: Type.Object({ uri: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1 }) }),
    response: FlowToken,
    summary: 'Older form: the token by its owner uri and local id.',
  }),
  getFlowTokenValue: op({
    name: 'getFlowTokenValue',
    summary: 'Only the current value of one flow token.',
    method: 'GET',
    path: '/flowtoken/:id/value',
    scope: 'homey.flow.readonly',
    params: Type.Object({ id: Type.String({ minLength: 1 }) }),
    response: Type.Union([Type.Null(), Type.String(), Type.Number(), Type.Boolean()]),
  }),
} as const;

/** Wire events of the flow token manager: an app's token got a new value (`id` is `<owner uri>|<token id>`). */
export const flowtokenEvents = managerEvents('flowtoken', {
  events: { 'flowtoken.update': Type.Object({ id: Type.String(), value: Type.Unknown() }) },
});
