import { Type } from 'typebox';
import { hubManager } from '../operation';

const op = hubManager('system');

/** Answer of `GET /api/manager/system/ping`; clients read the `X-Homey-ID` header and only need a body that is not `false`. */
export const PingResult = Type.Object({ id: Type.String(), version: Type.String() });

export const SystemInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    model: Type.String(),
    modelName: Type.String(),
    platform: Type.Union([Type.Literal('local'), Type.Literal('cloud')]),
    platformVersion: Type.Number(),
    softwareVersion: Type.String(),
    language: Type.String(),
    uptime: Type.Number(),
    bootTime: Type.String(),
    nodeVersion: Type.String(),
    videoCoreUnderVoltageCurrentlyRatio: Type.Optional(Type.Number()),
  },
  { additionalProperties: true },
);

export const systemOperations = {
  ping: op({
    name: 'ping',
    method: 'GET',
    path: '/ping',
    scope: null,
    auth: false,
    query: Type.Object({ id: Type.Optional(Type.String({ description: 'The hub id the caller expects' })) }),
    response: PingResult,
    summary: 'Answers with the hub id and version in the X-Homey-ID and X-Homey-Version headers.',
  }),
  getInfo: op({
    name: 'getInfo',
    method: 'GET',
    path: '/',
    scope: 'homey.system.readonly',
    response: SystemInfo,
    summary: 'Facts about the hub: model, versions, uptime.',
  }),
  getSystemName: op({
    name: 'getSystemName',
    method: 'GET',
    path: '/name',
    scope: 'homey.system.readonly',
    response: Type.String(),
  }),
  setSystemName: op({
    name: 'setSystemName',
    method: 'PUT',
    path: '/name',
    scope: 'homey.system',
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.String(),
  }),
} as const;
