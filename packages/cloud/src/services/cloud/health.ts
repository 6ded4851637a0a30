import { cloudOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { sql } from 'kysely';
import { CLOUD_VERSION } from '../../config';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';

const healthOps = pick(cloudOperations.cloud, ['getHealth']);

/** `GET /cloud/health`: answers only after a real round trip to the database. */
export const healthImplementations = (context: CloudContext) =>
  implement<typeof healthOps, CloudPrincipal>(healthOps, {
    getHealth: async () => {
      await sql`SELECT 1`.execute(context.database.db);
      return {
        healthy: true,
        version: CLOUD_VERSION,
        database: context.database.kind,
        uptimeSeconds: Math.round((Date.now() - context.startedAt.getTime()) / 1000),
      };
    },
  });
