import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('cloud', '/cloud');

export const HealthResult = Type.Object({
  healthy: Type.Boolean(),
  version: Type.String(),
  database: Type.String(),
  uptimeSeconds: Type.Number(),
});

export const cloudAccountOperations = {
  getHealth: op({
    name: 'getHealth',
    method: 'GET',
    path: '/health',
    scope: null,
    auth: false,
    response: HealthResult,
    summary: 'Whether the cloud platform and its database answer.',
  }),
} as const;
