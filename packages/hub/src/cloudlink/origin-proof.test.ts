import { installErrorHandling } from '@hearth/contract/fastify';
import { hubSecret, ORIGIN_PROOF_PATH, verifyOriginProof } from '@hearth/contract/hub-secret';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerOriginProof } from './origin-proof';

const HUB_ID = '5ea7c0de00000000000000a1';
const CLOUD_SECRET = 'origin-proof-internal-secret-01';
const NONCE = 'c2VjcmV0LW5vbmNlLWZyb20tdGhlLWNsb3Vk';

async function hubApp(cloudClientSecret: string | null) {
  const app = Fastify();
  installErrorHandling(app);
  registerOriginProof(app, { id: HUB_ID, cloudClientSecret });
  await app.ready();
  return app;
}

describe('the hub’s answer to the cloud’s origin proof', () => {
  it('answers the nonce with a proof the cloud verifies with this hub’s secret, and no other hub’s', async () => {
    const app = await hubApp(CLOUD_SECRET);
    const answer = await app.inject({ method: 'GET', url: `${ORIGIN_PROOF_PATH}?nonce=${NONCE}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const { hubId, proof } = answer.json() as { hubId: string; proof: string };
    expect(hubId).toBe(HUB_ID);
    expect(verifyOriginProof(hubSecret(CLOUD_SECRET, HUB_ID), HUB_ID, NONCE, proof)).toBe(true);
    expect(verifyOriginProof(hubSecret(CLOUD_SECRET, HUB_ID), HUB_ID, `${NONCE}x`, proof)).toBe(false);
    const other = '5ea7c0de00000000000000b2';
    expect(verifyOriginProof(hubSecret(CLOUD_SECRET, other), other, NONCE, proof)).toBe(false);
    await app.close();
  });

  it('refuses a missing or malformed nonce with 400, and answers 404 when the hub has no cloud', async () => {
    const app = await hubApp(CLOUD_SECRET);
    for (const query of ['', '?nonce=short', `?nonce=${'a'.repeat(201)}`, '?nonce=has%20space%20and%20more%20chars']) {
      const answer = await app.inject({ method: 'GET', url: `${ORIGIN_PROOF_PATH}${query}` });
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'invalid_parameter' });
    }
    await app.close();
    const unlinked = await hubApp(null);
    const answer = await unlinked.inject({ method: 'GET', url: `${ORIGIN_PROOF_PATH}?nonce=${NONCE}` });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ error: 'not_found' });
    await unlinked.close();
  });
});
