import { HearthError, invalidParameter } from '@hearth/contract';
import { hubSecret, ORIGIN_PROOF_PATH, originProof } from '@hearth/contract/hub-secret';
import type { FastifyInstance } from 'fastify';
import type { HubConfig } from '../config';

/** The cloud's nonces are its random secrets: base64url, of a bounded length. */
const NONCE = /^[A-Za-z0-9_-]{16,200}$/;

/**
 * Answers the cloud's check that this hub serves the origin it was reached at: before the cloud sends a person's
 * sign-in code to one of the addresses this hub registered, it asks that address for the hub's proof over a fresh
 * nonce (`originProof`, keyed with this hub's secret). A hub with no cloud secret has nothing to prove with.
 */
export function registerOriginProof(app: FastifyInstance, config: Pick<HubConfig, 'id' | 'cloudClientSecret'>): void {
  app.get(ORIGIN_PROOF_PATH, { schema: { hide: true } }, async (request, reply) => {
    const { cloudClientSecret } = config;
    if (!cloudClientSecret) throw new HearthError('not_found', 'This hub is not linked to a cloud');
    const { nonce } = request.query as { nonce?: unknown };
    if (typeof nonce !== 'string' || !NONCE.test(nonce))
      throw invalidParameter('nonce', 'a base64url string of 16 to 200 characters');
    const proof = originProof(hubSecret(cloudClientSecret, config.id), config.id, nonce);
    return reply.header('cache-control', 'no-store').send({ hubId: config.id, proof });
  });
}
