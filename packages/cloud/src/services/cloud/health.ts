import { cloudOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { CLOUD_VERSION } from '../../config';
import { probeDatabase } from '../../database';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';

const healthOps = pick(cloudOperations.cloud, ['getHealth']);

/**
 * `GET /cloud/health`: answers only after a real round trip to the database, within a second: `503 unavailable`
 * naming the database when it does not answer in time (load balancers then send traffic elsewhere).
 */
export const healthImplementations = (context: CloudContext) =>
  implement<typeof healthOps, CloudPrincipal>(healthOps, {
    getHealth: async () => {
      await probeDatabase(context.database);
      return {
        healthy: true,
        version: CLOUD_VERSION,
        database: context.database.kind,
        uptimeSeconds: Math.round((context.clock.now() - context.startedAt.getTime()) / 1000),
      };
    },
  });
