import { expectLimited, fetchFrom, limitFields } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';

describe('rate limits of the local API', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub({ rateLimits: { perToken: 6, perAddress: 40, windowSeconds: 60 } });
  });
  afterAll(() => t.stop());

  const zones = (token: string | null, from: string) =>
    fetchFrom(from)(`${t.url}/api/manager/zones/zone`, {
      headers: { 'x-homey-id': t.hub.context.config.id, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  it('limits each token on its own, answering 429 with Retry-After and the RateLimit fields of that limit', async () => {
    const runaway = t.sessionFor('user');
    const calm = t.sessionFor('user');
    const answers: Response[] = [];
    for (let i = 0; i < 6; i++) answers.push(await zones(runaway, '127.0.1.1'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Answers announce the limits once half of one is used: the third call leaves 3 of the token's 6.
    expect(limitFields(answers[1] as Response).policy).toEqual({});
    expect(limitFields(answers[2] as Response)).toMatchObject({
      policy: { address: { q: 40, w: 60 }, token: { q: 6, w: 60 } },
      limit: { address: { r: 37 }, token: { r: 3 } },
    });

    await expectLimited(await zones(runaway, '127.0.1.1'), { token: { q: 6, w: 60 } });
    // The same token is refused from anywhere; another token from the same address is not starved.
    expect((await zones(runaway, '127.0.1.2')).status).toBe(429);
    expect((await zones(calm, '127.0.1.1')).status).toBe(200);
  });

  it('limits each address, whatever tokens it uses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await zones(i % 2 ? t.sessionFor('guest') : null, '127.0.1.3')).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    await expectLimited(await zones(t.sessionFor('guest'), '127.0.1.3'), { address: { q: 40, w: 60 } });
    expect((await zones(t.sessionFor('guest'), '127.0.1.4')).status).toBe(200);
  });
});
