import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from './address';
import { RedisLimitStore } from './redis-store';
import { type Gate, type LimitStore, MemoryLimitStore } from './store';

/** Redis for the shared store's tests: `TEST_REDIS_URL` or `REDIS_URL`; mandatory under CI. */
const redisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || null;

const counter = (key: string, free: number, extra: Partial<Gate> = {}): Gate => ({
  key,
  free,
  baseMs: 1000,
  maxMs: 60_000,
  ttlMs: 3_600_000,
  ...extra,
});

/** The same behaviour from every store; `advance` moves the store's clock (a real one only waits). */
function conformance(name: string, open: () => { store: LimitStore; advance: (ms: number) => Promise<void> }) {
  describe(name, () => {
    let store: LimitStore;
    let advance: (ms: number) => Promise<void>;
    // Keys of each run are fresh, so a shared Redis keeps runs apart.
    const key = (what: string) => `${what}:${randomBytes(6).toString('hex')}`;
    beforeAll(() => {
      ({ store, advance } = open());
    });
    afterAll(() => store.close());

    it('counts requests in a fixed window and starts a new one when it ends', async () => {
      const k = key('window');
      expect(await store.hit(k, 400)).toMatchObject({ count: 1 });
      const second = await store.hit(k, 400);
      expect(second.count).toBe(2);
      expect(second.resetMs).toBeGreaterThan(0);
      expect(second.resetMs).toBeLessThanOrEqual(400);
      await advance(450);
      expect((await store.hit(k, 400)).count).toBe(1);
    });

    it('admits free failures, then asks for a wait that doubles, and counts nothing it refuses', async () => {
      const gate = counter(key('gate'), 2);
      expect(await store.admit([gate])).toEqual({ admitted: true, counts: [1] });
      expect(await store.admit([gate])).toEqual({ admitted: true, counts: [2] });
      const refused = await store.admit([gate]);
      expect(refused).toMatchObject({ admitted: false, gate: 0 });
      if (refused.admitted) throw new Error('unreachable');
      expect(refused.waitMs).toBeGreaterThan(900);
      expect(refused.waitMs).toBeLessThanOrEqual(1000);
      await advance(1050);
      expect(await store.admit([gate])).toEqual({ admitted: true, counts: [3] });
      const longer = await store.admit([gate]);
      if (longer.admitted) throw new Error('a third failure must wait');
      expect(longer.waitMs).toBeGreaterThan(1900);
      expect(longer.waitMs).toBeLessThanOrEqual(2000);
    });

    it('lets an attempt through every gate or none, naming the gate that holds it longest', async () => {
      const open = counter(key('open'), 5);
      const shut = counter(key('shut'), 0);
      await store.admit([shut]);
      const refused = await store.admit([open, shut]);
      expect(refused).toMatchObject({ admitted: false, gate: 1 });
      expect(await store.admit([open])).toEqual({ admitted: true, counts: [1] });
    });

    it('admits exactly one of many parallel attempts at a gate with one free failure', async () => {
      const gate = counter(key('race'), 1);
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.admit([gate])));
      expect(outcomes.filter((o) => o.admitted)).toHaveLength(1);
    });

    it('counts a set gate by distinct members and forgets a forgiven member', async () => {
      const k = key('set');
      const gate = (member: string) => counter(k, 2, { member });
      expect(await store.admit([gate('a')])).toEqual({ admitted: true, counts: [1] });
      expect(await store.admit([gate('a')])).toEqual({ admitted: true, counts: [1] });
      expect(await store.admit([gate('b')])).toEqual({ admitted: true, counts: [2] });
      expect(await store.admit([gate('c')])).toMatchObject({ admitted: false });
      await store.forgive(k, { member: 'b' });
      expect(await store.admit([gate('c')])).toEqual({ admitted: true, counts: [2] });
    });

    it('forgives some or all failures of a counter', async () => {
      const gate = counter(key('forgive'), 10);
      for (let i = 0; i < 4; i++) await store.admit([gate]);
      await store.forgive(gate.key, { by: 3 });
      expect(await store.admit([gate])).toEqual({ admitted: true, counts: [2] });
      await store.forgive(gate.key);
      expect(await store.admit([gate])).toEqual({ admitted: true, counts: [1] });
      await store.forgive(key('never-seen'), { by: 2 });
    });

    it('forgets failures the gate ttl after the last one', async () => {
      const gate = counter(key('ttl'), 0, { ttlMs: 300, baseMs: 10_000 });
      expect((await store.admit([gate])).admitted).toBe(true);
      expect((await store.admit([gate])).admitted).toBe(false);
      await advance(350);
      expect(await store.admit([gate])).toEqual({ admitted: true, counts: [1] });
    });

    it('remembers a fact for its time', async () => {
      const k = key('fact');
      expect(await store.remembers(k)).toBe(false);
      await store.remember(k, 300);
      expect(await store.remembers(k)).toBe(true);
      await advance(350);
      expect(await store.remembers(k)).toBe(false);
    });
  });
}

let fakeNow = Date.UTC(2026, 0, 5);
conformance('MemoryLimitStore', () => ({
  store: new MemoryLimitStore(() => fakeNow),
  advance: async (ms) => {
    fakeNow += ms;
  },
}));

if (redisUrl) {
  conformance('RedisLimitStore', () => ({
    store: new RedisLimitStore(redisUrl, `hearth:test:${randomBytes(4).toString('hex')}:`),
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }));
} else if (process.env.CI === 'true') {
  it('RedisLimitStore needs Redis under CI', () => {
    throw new Error('CI=true but neither TEST_REDIS_URL nor REDIS_URL is set: the Redis suite is mandatory');
  });
}

describe('addressKey', () => {
  it('counts IPv4 as it is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:a:b:1:2:3:4')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:db8:a:b::99')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:0db8:000a:000b:ffff::1')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
