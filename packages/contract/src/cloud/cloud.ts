import { Type } from 'typebox';
import { cloudBridgeOperations } from './cloud-bridges';
import { op } from './cloud-helpers';
import { cloudHubOperations } from './cloud-hubs';
import { cloudMailOperations } from './cloud-mail';
import { cloudTokenOperations } from './cloud-oauth';
import { cloudStatisticsOperations } from './cloud-statistics';
import { cloudUserOperations } from './cloud-users';

export const HealthResult = Type.Object({
  healthy: Type.Boolean(),
  version: Type.String(),
  database: Type.String(),
  uptimeSeconds: Type.Number(),
});

/**
 * The `cloud` service's accounts, tokens, hubs, bridges, mail and statistics, each topic in its own file. Spread in
 * this order, the order routes are registered in and the API reference lists them.
 */
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
  ...cloudTokenOperations,
  ...cloudUserOperations,
  ...cloudBridgeOperations,
  ...cloudHubOperations,
  ...cloudMailOperations,
  ...cloudStatisticsOperations,
} as const;
