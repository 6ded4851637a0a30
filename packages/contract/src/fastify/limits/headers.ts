import type { FastifyReply } from 'fastify';
import { HearthError } from '../../errors';

/**
 * A quota policy as the `RateLimit-Policy` field announces it (IETF draft-ietf-httpapi-ratelimit-headers):
 * `quota` requests per `windowSeconds`. A throttle announces its free attempts and how long failures count.
 */
export interface RatePolicy {
  /** The policy's name in the fields, e.g. `token`. */
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/** Where a request stands under one policy: quota left, and seconds until it is restored. */
export interface RateState {
  readonly policy: RatePolicy;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** Every field a limit answer may carry; browsers may read them (CORS). */
export const RATE_LIMIT_HEADERS = ['Retry-After', 'RateLimit', 'RateLimit-Policy'] as const;

/** Writes `RateLimit-Policy` and `RateLimit` for the policies that applied to a request. */
export function writeRateLimitFields(reply: FastifyReply, states: readonly RateState[]): void {
  let policies = '';
  let limits = '';
  for (const { policy, remaining, resetSeconds } of states) {
    const separator = policies ? ', ' : '';
    policies += `${separator}"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`;
    limits += `${separator}"${policy.name}";r=${Math.max(0, remaining)};t=${Math.max(0, resetSeconds)}`;
  }
  if (!policies) return;
  reply.header('RateLimit-Policy', policies);
  reply.header('RateLimit', limits);
}

/**
 * A refusal by a rate limit or throttle: the uniform `rate_limited` body, and `Retry-After` with the fields of
 * the policy that refused (only that one, so no other limiter's quota misleads the client).
 */
export class RateLimited extends HearthError {
  readonly retryAfterSeconds: number;

  constructor(
    readonly policy: RatePolicy,
    waitMs: number,
    message = `Too many requests. Try again in ${Math.max(1, Math.ceil(waitMs / 1000))} seconds.`,
  ) {
    super('rate_limited', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  }

  /** Sets `Retry-After`, `RateLimit-Policy` and `RateLimit` (nothing left until the wait is over). */
  writeHeaders(reply: FastifyReply): void {
    reply.header('Retry-After', String(this.retryAfterSeconds));
    writeRateLimitFields(reply, [{ policy: this.policy, remaining: 0, resetSeconds: this.retryAfterSeconds }]);
  }
}
