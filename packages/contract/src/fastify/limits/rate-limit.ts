import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addressKey } from './address';
import { RateLimited, type RatePolicy, type RateState, writeRateLimitFields } from './headers';
import type { LimitStore, WindowCount } from './store';

/** The general limits of a server's API: requests per window per token and per address. */
export interface RateLimits {
  /** Requests one token (session) may make per window. */
  readonly perToken: number;
  /** Requests one address (IPv6: its /64) may make per window, whatever tokens it uses. */
  readonly perAddress: number;
  readonly windowSeconds: number;
}

/**
 * Generous: a household's apps, dashboards and scripts stay far below them, while a runaway loop is cut off
 * before it takes the server from everyone else. The README's "Rate limits" quotes these numbers.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = { perToken: 1200, perAddress: 6000, windowSeconds: 60 };

export interface RateLimitOptions {
  readonly store: LimitStore;
  readonly limits?: RateLimits;
  /** The session an authenticated request belongs to (its token's record id), or `null`. */
  sessionOf(request: FastifyRequest): string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Where the request stands under each limit that counted it, for the `RateLimit` fields. */
    rateStates: RateState[] | null;
  }
}

/** `count` under `policy`, or the refusal when over quota. */
function judge(policy: RatePolicy, { count, resetMs }: WindowCount): RateState {
  if (count > policy.quota) throw new RateLimited(policy, resetMs);
  return { policy, remaining: policy.quota - count, resetSeconds: Math.ceil(resetMs / 1000) };
}

/**
 * Counts requests against policies in the shared store and refuses with {@link RateLimited} over quota. Written
 * here rather than taken from `@fastify/rate-limit`: its store cannot be the one the throttles share, it counts
 * before authentication only, and it announces the older `X-RateLimit-*` / `RateLimit-Limit` fields rather
 * than the current draft's `RateLimit` and `RateLimit-Policy`.
 */
export class RateLimiter {
  constructor(private readonly store: LimitStore) {}

  /**
   * Counts `request` under `policy` for `partition` (an address, a token) and keeps its state for the fields;
   * throws when over quota. Routes with a policy of their own (the token endpoint, the sign-in pages) call it
   * from an `onRequest` hook. The in-process store answers at once, and the hot path then makes no promise.
   */
  count(request: FastifyRequest, policy: RatePolicy, partition: string): void | Promise<void> {
    const counted = this.store.hit(`rate:${policy.name}:${partition}`, policy.windowSeconds * 1000);
    const keep = (window: WindowCount) => {
      const state = judge(policy, window);
      if (!request.rateStates) request.rateStates = [state];
      else request.rateStates.push(state);
    };
    // A store that cannot answer (Redis away) lets the request through uncounted: an outage of the counters
    // must not become an outage of the API.
    if (counted instanceof Promise)
      return counted.then(keep, (error: unknown) => request.log.warn({ err: error }, 'rate-limit store unavailable'));
    keep(counted);
  }
}

/**
 * Answers announce their limits once half of a quota is used: a client pacing itself learns in time, and the
 * many answers far from any limit do not carry (or cost) the fields. Refusals always carry them.
 */
const nearQuota = (state: RateState) => state.remaining * 2 <= state.policy.quota;

/**
 * Limits every request of `app` per address (before authentication, so a flood of bad tokens is cut off too)
 * and every authenticated request per token (after authentication, before its body is read), and announces
 * the limits that counted it once one is half used. Answers the limiter, for routes that add a policy of their
 * own.
 */
export function installRateLimits(app: FastifyInstance, options: RateLimitOptions): RateLimiter {
  const limits = options.limits ?? DEFAULT_RATE_LIMITS;
  const perAddress: RatePolicy = { name: 'address', quota: limits.perAddress, windowSeconds: limits.windowSeconds };
  const perToken: RatePolicy = { name: 'token', quota: limits.perToken, windowSeconds: limits.windowSeconds };
  const limiter = new RateLimiter(options.store);
  app.decorateRequest('rateStates', null);
  // Callback hooks: with the in-process store a request passes both without a promise, which matters at
  // thousands of requests a second.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      const counted = limiter.count(request, perAddress, addressKey(request.ip));
      if (counted) counted.then(() => done(), done);
      else done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    const announce = () => {
      const states = request.rateStates;
      if (states?.some(nearQuota)) writeRateLimitFields(reply, states);
      done(null, payload);
    };
    try {
      const session = options.sessionOf(request);
      const counted = session === null ? undefined : limiter.count(request, perToken, session);
      if (counted) counted.then(announce, done);
      else announce();
    } catch (error) {
      done(error as Error);
    }
  });
  return limiter;
}

/** `HEARTH_RATE_LIMIT_TOKEN` and `HEARTH_RATE_LIMIT_ADDRESS` (requests per minute), over the defaults. */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimits {
  const perMinute = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);
  return {
    perToken: perMinute(env.HEARTH_RATE_LIMIT_TOKEN, DEFAULT_RATE_LIMITS.perToken),
    perAddress: perMinute(env.HEARTH_RATE_LIMIT_ADDRESS, DEFAULT_RATE_LIMITS.perAddress),
    windowSeconds: 60,
  };
}

/** Readable problems of a limits configuration, for the servers' start-up checks. */
export function rateLimitProblems(limits: RateLimits | undefined): string[] {
  if (!limits) return [];
  const problems: string[] = [];
  for (const [name, value] of [
    ['HEARTH_RATE_LIMIT_TOKEN', limits.perToken],
    ['HEARTH_RATE_LIMIT_ADDRESS', limits.perAddress],
  ] as const)
    if (!Number.isInteger(value) || value < 1)
      problems.push(`${name} must be a whole number of requests per minute, got ${value}`);
  if (!Number.isInteger(limits.windowSeconds) || limits.windowSeconds < 1)
    problems.push(`the rate-limit window must be a whole number of seconds, got ${limits.windowSeconds}`);
  return problems;
}
