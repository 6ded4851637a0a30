import { Type } from 'typebox';
import { DateTime, Id, OptionalString, op, open } from './cloud-helpers';

export const Bridge = open({
  _id: Type.String(),
  id: Type.String(),
  serial: Type.String(),
  model: Type.String(),
  build: Type.Number(),
  zwaveCalibration: Type.Array(Type.Unknown()),
  manufacturedAt: Type.Optional(DateTime),
  activationHistory: Type.Array(open({})),
  homeyId: OptionalString,
  userId: OptionalString,
});

/** Bridges: extra radios registered by serial number and tied to a hub. */
export const cloudBridgeOperations = {
  getBridges: op({
    name: 'getBridges',
    summary: 'The bridges registered in the cloud.',
    method: 'GET',
    path: '/bridge/',
    scope: null,
    private: true,
    query: Type.Object({ serial: OptionalString, serialHash: OptionalString }),
    response: Type.Array(Bridge),
  }),
  createBridge: op({
    name: 'createBridge',
    summary: 'Registers a bridge by its serial number.',
    method: 'POST',
    path: '/bridge/',
    scope: null,
    private: true,
    body: Type.Object({
      bridge: Type.Object(
        {
          serial: Type.String({ minLength: 1, maxLength: 64 }),
          model: Type.String({ minLength: 1, maxLength: 64 }),
          build: Type.Optional(Type.Integer({ minimum: 0 })),
          zwaveCalibration: Type.Optional(Type.Array(Type.Unknown())),
          manufacturedAt: Type.Optional(DateTime),
        },
        { additionalProperties: false },
      ),
    }),
    response: Bridge,
    successStatus: 201,
  }),
  getBridge: op({
    name: 'getBridge',
    summary: 'One bridge by its serial number.',
    method: 'GET',
    path: '/bridge/:serial',
    scope: null,
    params: Type.Object({ serial: Id }),
    response: Bridge,
  }),
  updateBridge: op({
    name: 'updateBridge',
    summary: 'Changes a registered bridge (its owner hub, name or firmware facts).',
    method: 'PUT',
    path: '/bridge/:serial',
    scope: null,
    private: true,
    params: Type.Object({ serial: Id }),
    body: Type.Object({
      bridge: Type.Object(
        {
          model: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          build: Type.Optional(Type.Integer({ minimum: 0 })),
          zwaveCalibration: Type.Optional(Type.Array(Type.Unknown())),
          manufacturedAt: Type.Optional(DateTime),
        },
        { additionalProperties: false },
      ),
    }),
    response: Bridge,
  }),
  activateBridge: op({
    name: 'activateBridge',
    method: 'POST',
    path: '/bridge/:serial/activate',
    scope: null,
    params: Type.Object({ serial: Id }),
    body: Type.Object({ homeyId: Id, userId: OptionalString }),
    response: Bridge,
    summary: 'Ties a bridge to a hub. A user may activate a bridge only into a hub they own.',
  }),
} as const;
