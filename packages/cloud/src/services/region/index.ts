import { timingSafeEqual } from 'node:crypto';
import { cloudOperations, HearthError, STATUS_SECRET_HEADER } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { CLOUD_VERSION } from '../../config';
import { probeDatabase } from '../../database';
import type { CloudPrincipal } from '../../platform/context';
import type { CloudService } from '../service';

const regionOps = cloudOperations.region;

/** Compares two secrets in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The cloud-region service (`/region`): the region this cloud serves, and the node's health for monitors, which
 * authenticate with the status secret in a header (monitors hold no user token).
 */
export const regionService: CloudService = {
  name: 'region',
  create: (context) => ({
    implementations: () =>
      implement<typeof regionOps, CloudPrincipal>(regionOps, {
        getRegion: () => ({ region: context.config.region }),
        getSystemStatus: async ({ request, reply }) => {
          const expected = context.config.statusSecret;
          if (!expected)
            throw new HearthError('unavailable', 'The status of this cloud is not published (no status secret is set)');
          const header = request.headers[STATUS_SECRET_HEADER];
          if (typeof header !== 'string' || header === '')
            throw new HearthError('missing_token', `Missing Token: send the status secret in the ${STATUS_SECRET_HEADER} header`);
          if (!sameSecret(header, expected)) throw new HearthError('forbidden', 'Invalid status secret');
          let elapsedMs: number;
          try {
            elapsedMs = await probeDatabase(context.database);
          } catch (error) {
            // Monitors act on the status code; the details stay in the log.
            request.log.error({ err: error }, 'status: database check failed');
            throw new HearthError('unavailable', 'The database does not answer');
          }
          const latencyMs = Math.round(elapsedMs * 100) / 100;
          reply.header('cache-control', 'no-store');
          return {
            ok: true,
            region: context.config.region,
            version: CLOUD_VERSION,
            uptime: Math.round((context.clock.now() - context.startedAt.getTime()) / 1000),
            startedAt: context.startedAt.toISOString(),
            database: { ok: true, kind: context.database.kind, latencyMs },
          };
        },
      }),
  }),
};
