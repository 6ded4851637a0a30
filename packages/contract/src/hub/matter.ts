import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareOptions, declareState, OpenObject } from './options';

/** Matter: commissioned nodes and their fabrics. */
const op = hubManager('matter');

const NodeParams = Type.Object({ id: Type.String({ minLength: 1 }) });

export const matterOperations = {
  getState: declareState(op),
  ...declareOptions(op, {
    paaSettings: { value: Type.Object({}, { additionalProperties: true }), read: 'homey.system', write: 'homey.system' },
  }),
  getMatterNodes: op({
    name: 'getMatterNodes',
    method: 'GET',
    path: '/nodes',
    scope: 'homey.system.readonly',
    response: Type.Array(OpenObject),
  }),
  getMatterNode: op({
    name: 'getMatterNode',
    method: 'GET',
    path: '/node/:id',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
  }),
  deleteMatterNode: op({
    name: 'deleteMatterNode',
    method: 'DELETE',
    path: '/node/:id',
    scope: 'homey.system',
    params: NodeParams,
  }),
  getNodeFabrics: op({
    name: 'getNodeFabrics',
    method: 'GET',
    path: '/node/:id/fabrics',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: Type.Array(OpenObject),
  }),
  pingNode: op({
    name: 'pingNode',
    method: 'POST',
    path: '/node/:id/ping',
    scope: 'homey.system',
    params: NodeParams,
    response: OpenObject,
  }),
} as const;
