import { Redis } from 'ioredis';
import type { Admission, Gate, LimitStore, WindowCount } from './store';

// Each operation is one Lua script, so it is atomic across the cloud's nodes. A script touches several keys of
// one attempt; that needs one Redis (or keys that share a cluster slot), which is what the cloud runs.

const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

// ARGV: now, then six per gate: kind (c counter, s set), free, baseMs, maxMs, ttlMs, member. The wait follows
// gateWaitMs in store.ts.
const ADMIT = `
local now = tonumber(ARGV[1])
local worst, refusing = 0, 0
for i = 1, #KEYS do
  local o = 1 + (i - 1) * 6
  local kind, free, base, max, ttl = ARGV[o + 1], tonumber(ARGV[o + 2]), tonumber(ARGV[o + 3]), tonumber(ARGV[o + 4]), tonumber(ARGV[o + 5])
  local failures, last = 0, 0
  if kind == 'c' then
    local v = redis.call('HMGET', KEYS[i], 'c', 't')
    failures = tonumber(v[1]) or 0
    last = tonumber(v[2]) or 0
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - ttl)
    failures = redis.call('ZCARD', KEYS[i])
    local top = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
    if top[2] then last = tonumber(top[2]) end
  end
  if failures >= free then
    local wait = last + math.min(base * 2 ^ math.min(failures - free, 40), max) - now
    if wait > worst then worst = wait; refusing = i end
  end
end
if refusing > 0 then return {0, math.ceil(worst), refusing - 1} end
local counts = {1}
for i = 1, #KEYS do
  local o = 1 + (i - 1) * 6
  if ARGV[o + 1] == 'c' then
    counts[i + 1] = redis.call('HINCRBY', KEYS[i], 'c', 1)
    redis.call('HSET', KEYS[i], 't', ARGV[1])
  else
    redis.call('ZADD', KEYS[i], ARGV[1], ARGV[o + 6])
    counts[i + 1] = redis.call('ZCARD', KEYS[i])
  end
  redis.call('PEXPIRE', KEYS[i], ARGV[o + 5])
end
return counts`;

// ARGV: how many failures to take back ('' for all).
const FORGIVE = `
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local left = redis.call('HINCRBY', KEYS[1], 'c', -tonumber(ARGV[1]))
if left <= 0 then redis.call('DEL', KEYS[1]) end
return left`;

interface Scripts {
  limitsHit(key: string, windowMs: number): Promise<[number, number]>;
  limitsAdmit(keyCount: number, ...args: (string | number)[]): Promise<number[]>;
  limitsForgive(key: string, by: string): Promise<number>;
}

/**
 * The store shared by several cloud nodes (`REDIS_URL`). Keys carry `prefix`, so one Redis may serve other
 * uses; each expires by itself, so nothing needs sweeping.
 */
export class RedisLimitStore implements LimitStore {
  private readonly redis: Redis & Scripts;

  /**
   * `now` is the clock the sign-in holds are measured on (a cloud passes its own, so tests can move time); the
   * request windows and every key's expiry keep Redis's own time.
   */
  constructor(
    url: string,
    private readonly prefix = 'hearth:limits:',
    private readonly now: () => number = Date.now,
  ) {
    // A command fails within a second when Redis is away, so callers decide (the limits let requests through,
    // sign-in answers 503) instead of requests hanging; ioredis keeps reconnecting meanwhile.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    redis.on('error', () => {}); // each command reports its own failure
    redis.defineCommand('limitsHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('limitsAdmit', { lua: ADMIT });
    redis.defineCommand('limitsForgive', { numberOfKeys: 1, lua: FORGIVE });
    this.redis = redis as Redis & Scripts;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, resetMs] = await this.redis.limitsHit(this.prefix + key, windowMs);
    return { count, resetMs };
  }

  async admit(gates: readonly Gate[]): Promise<Admission> {
    const keys = gates.map((gate) => this.prefix + gate.key);
    const args = gates.flatMap((gate) => [
      gate.member === undefined ? 'c' : 's',
      gate.free,
      gate.baseMs,
      gate.maxMs,
      gate.ttlMs,
      gate.member ?? '',
    ]);
    const [admitted, ...rest] = await this.redis.limitsAdmit(keys.length, ...keys, this.now(), ...args);
    if (admitted === 1) return { admitted: true, counts: rest };
    return { admitted: false, waitMs: rest[0] as number, gate: rest[1] as number };
  }

  async forgive(key: string, options: { by?: number; member?: string } = {}): Promise<void> {
    if (options.member !== undefined) await this.redis.zrem(this.prefix + key, options.member);
    else await this.redis.limitsForgive(this.prefix + key, options.by === undefined ? '' : String(options.by));
  }

  async remember(key: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, '1', 'PX', ttlMs);
  }

  async remembers(key: string): Promise<boolean> {
    return (await this.redis.exists(this.prefix + key)) === 1;
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
