import { expectLimited, fetchFrom, limitFields } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../server';
import {
  call,
  createUser,
  DEMO_USER,
  describeOnDatabases,
  describeOnLimitStores,
  startTestCloud,
  tokenRequest,
} from '../testing';

describeOnDatabases('Rate limits', (backend) => {
  describeOnLimitStores('general API limits', (overrides) => {
    let cloud: Cloud;
    beforeAll(async () => {
      cloud = await startTestCloud(backend, { ...overrides, rateLimits: { perToken: 6, perAddress: 40, windowSeconds: 60 } });
    });
    afterAll(() => cloud.stop());

    it('limits each token on its own, answering 429 with Retry-After and the RateLimit fields of that limit', async () => {
      // Each user comes from an address of their own, so only the token limit is in play.
      const runaway = await createUser(cloud, 'runaway@hearth.test');
      const calm = await createUser(cloud, 'calm@hearth.test');
      const script = fetchFrom('127.0.1.1');
      const answers: Response[] = [];
      for (let i = 0; i < 6; i++) answers.push(await call(cloud, 'GET', '/cloud/user/me', runaway.token, undefined, script));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // Answers announce the limits once half of one is used: the third call leaves 3 of the token's 6.
      expect(limitFields(answers[1] as Response).policy).toEqual({});
      expect(limitFields(answers[2] as Response)).toMatchObject({
        policy: { address: { q: 40, w: 60 }, token: { q: 6, w: 60 } },
        limit: { address: { r: 37 }, token: { r: 3 } },
      });

      await expectLimited(await call(cloud, 'GET', '/cloud/user/me', runaway.token, undefined, script), {
        token: { q: 6, w: 60 },
      });
      // Another token from the same address is not starved.
      expect((await call(cloud, 'GET', '/cloud/user/me', calm.token, undefined, script)).status).toBe(200);
    });

    it('limits each address, whatever token it uses, and lets browsers read the fields', async () => {
      const crowd = fetchFrom('127.0.1.2');
      const headers = { origin: 'https://app.example' };
      let last: Response | null = null;
      for (let i = 0; i < 41; i++) {
        last = await crowd(`${cloud.url}/cloud/user/me`, { headers });
        if (i < 40) expect(last.status).toBe(401);
      }
      await expectLimited(last as Response, { address: { q: 40, w: 60 } });
      const exposed = (last as Response).headers.get('access-control-expose-headers') ?? '';
      for (const name of ['Retry-After', 'RateLimit', 'RateLimit-Policy']) expect(exposed).toContain(name);
      // Another address is not held.
      expect((await fetchFrom('127.0.1.3')(`${cloud.url}/cloud/user/me`)).status).toBe(401);
    });
  });
});

describe('CLOUD_TRUST_PROXY', () => {
  let direct: Cloud;
  let proxied: Cloud;
  beforeAll(async () => {
    const limits = { perToken: 100, perAddress: 3, windowSeconds: 60 };
    direct = await startTestCloud('pglite', { rateLimits: limits });
    proxied = await startTestCloud('pglite', { rateLimits: limits, trustProxy: '127.0.2.1' });
  });
  afterAll(async () => {
    await direct.stop();
    await proxied.stop();
  });

  const from = (cloud: Cloud, proxy: string, client: string) =>
    fetchFrom(proxy)(`${cloud.url}/region/`, { headers: { 'x-forwarded-for': client } });

  it('counts the client a trusted proxy names, and the peer of an untrusted one', async () => {
    for (let i = 0; i < 3; i++) expect((await from(proxied, '127.0.2.1', '198.51.100.1')).status).toBe(200);
    expect((await from(proxied, '127.0.2.1', '198.51.100.1')).status).toBe(429);
    expect((await from(proxied, '127.0.2.1', '198.51.100.2')).status).toBe(200);
    // A peer that is not the trusted proxy cannot pick the address it is counted as.
    for (let i = 0; i < 3; i++) expect((await from(proxied, '127.0.2.2', `198.51.100.${10 + i}`)).status).toBe(200);
    expect((await from(proxied, '127.0.2.2', '198.51.100.99')).status).toBe(429);
    // Without the setting every header is ignored.
    for (let i = 0; i < 3; i++) expect((await from(direct, '127.0.2.3', `198.51.100.${20 + i}`)).status).toBe(200);
    expect((await from(direct, '127.0.2.3', '198.51.100.98')).status).toBe(429);
  });
});

describe('with the Redis of the counters away', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // Nothing listens on port 1: every command fails, as when Redis is down.
    cloud = await startTestCloud('pglite', {
      redisUrl: 'redis://127.0.0.1:1',
      rateLimits: { perToken: 5, perAddress: 5, windowSeconds: 60 },
    });
  });
  afterAll(() => cloud.stop());

  it('lets API calls through uncounted, and refuses password sign-in with 503 rather than let guessing run unslowed', async () => {
    for (let i = 0; i < 8; i++) {
      const answer = await fetch(`${cloud.url}/region/`);
      expect(answer.status).toBe(200);
      expect(limitFields(answer).policy).toEqual({});
    }
    const signIn = await tokenRequest(cloud, { grant_type: 'password', username: DEMO_USER.email, password: DEMO_USER.password });
    expect(signIn.status).toBe(503);
    expect(await signIn.json()).toMatchObject({ error: 'unavailable', statusCode: 503 });
  });
});
