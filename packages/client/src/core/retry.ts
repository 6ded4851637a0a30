import { APIError } from './errors';

/** How many times a call that may go again is sent again (so at most three sends in all). */
export const DEFAULT_RETRIES = 2;
/** The longest `Retry-After` waited for; a longer one is the server asking for patience, not a quick retry. */
const MAX_WAIT_MS = 5_000;
/** Methods whose repetition has the effect of one call (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** What a load balancer answers when the node behind it went away or is not there (yet). */
const UNAVAILABLE = new Set([502, 503, 504]);

/** The outcome of one send: an answer, or the network error it threw. */
export type Outcome = { status: number; headers: Headers; body: unknown } | { error: unknown };

/**
 * Whether a failed send may go again, and after how long (milliseconds), or `null` when it must not. A cloud of
 * several nodes answers 502/503/504 (with `Retry-After`) when the node handling a request died or none is up: a
 * request that reached no node (`no_node_available`) may always go again; one that may have reached a node only
 * when repeating it does no harm — an idempotent method, or the same `Idempotency-Key`. A network error is treated
 * like the latter. Timeouts are not retried: the first request may still be running.
 */
export function retryDelay(method: string, headers: Record<string, string>, outcome: Outcome, attempt: number): number | null {
  const repeatable =
    IDEMPOTENT.has(method.toUpperCase()) || Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
  const backoff = Math.min(200 * 2 ** attempt, 2_000) * (0.5 + Math.random() / 2);
  if ('error' in outcome) {
    return outcome.error instanceof APIError && outcome.error.code === 'network_error' && repeatable ? backoff : null;
  }
  if (!UNAVAILABLE.has(outcome.status)) return null;
  const code = (outcome.body as { error?: unknown } | undefined)?.error;
  if (!repeatable && !(outcome.status === 503 && code === 'no_node_available')) return null;
  const after = outcome.headers.get('retry-after');
  if (after === null) return backoff;
  const seconds = Number(after);
  if (!Number.isFinite(seconds) || seconds * 1000 > MAX_WAIT_MS) return null;
  return Math.max(seconds * 1000, backoff);
}
