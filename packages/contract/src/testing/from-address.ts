import { request } from 'node:http';
import { expect } from 'vitest';

export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A `fetch` whose requests leave from one local address. */
export type Fetcher = (url: string, init?: FetchInit) => Promise<Response>;

/**
 * A `fetch` (of what the tests need) whose connections leave from `localAddress`: on Linux every 127.x.y.z
 * reaches a server on 127.0.0.1, so tests can be several clients at distinct addresses over real TCP, without
 * trusting a forwarding header. Redirects are not followed.
 */
export function fetchFrom(localAddress: string): Fetcher {
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const outgoing = request(
        url,
        { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
            }
            const status = incoming.statusCode ?? 500;
            const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status, headers }));
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(init.body);
    });
}

/**
 * Makes `failures` failed attempts as a patient attacker would: `attempt(i)` is tried again after the
 * `Retry-After` of each 429 (a second when it has none). Answers how many 429s it met on the way. `wait` waits
 * that long (real time by default); a test that owns its server's clock moves the clock forward instead of sleeping.
 */
export async function failRepeatedly(
  failures: number,
  attempt: (i: number) => Promise<Response>,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<number> {
  let held = 0;
  for (let failed = 0; failed < failures; ) {
    const response = await attempt(failed);
    await response.arrayBuffer();
    if (response.status === 429) {
      held += 1;
      // A second when the answer names no wait: the tests of the fields check them; this one plays the attacker.
      const seconds = Number(response.headers.get('retry-after')) || 1;
      await wait(seconds * 1000 + 50);
    } else if (response.status >= 200 && response.status < 300) throw new Error(`attempt ${failed} succeeded`);
    else failed += 1;
  }
  return held;
}

type Items = Record<string, Record<string, number>>;

/**
 * The limit fields of an answer, parsed for assertions: `Retry-After` in seconds (`null` when absent), the
 * `RateLimit-Policy` and `RateLimit` items by policy name (`{"token": {q: 1200, w: 60}}`), and the names of any
 * older `X-RateLimit-*` headers.
 */
export function limitFields(response: Response): { retryAfter: number | null; policy: Items; limit: Items; legacy: string[] } {
  const items = (field: string): Items =>
    Object.fromEntries(
      (response.headers.get(field) ?? '')
        .split(',')
        .filter((item) => item.trim())
        .map((item) => {
          const [name = '', ...parameters] = item.trim().split(';');
          return [
            JSON.parse(name) as string,
            Object.fromEntries(parameters.map((p) => [p.split('=')[0] as string, Number(p.split('=')[1])])),
          ];
        }),
    );
  const retryAfter = response.headers.get('retry-after');
  return {
    retryAfter: retryAfter === null ? null : Number(retryAfter),
    policy: items('ratelimit-policy'),
    limit: items('ratelimit'),
    legacy: [...response.headers.keys()].filter((name) => name.startsWith('x-ratelimit')),
  };
}

/**
 * Limits for test suites and benchmarks that drive a server harder than any client should: the limiter stays
 * on (its cost is in every figure) with a quota beyond what a load generator or a suite sends with one token.
 * The suites of the limits themselves set small ones.
 */
export const LOAD_TEST_RATE_LIMITS = { perToken: 1_000_000_000, perAddress: 1_000_000_000, windowSeconds: 60 } as const;

/**
 * Asserts that `response` is a refusal by the limit `policy` (`{"token": {q: 6, w: 60}}`): 429, `Retry-After`,
 * the `RateLimit-Policy` and `RateLimit` fields of that policy alone with nothing left, no `X-RateLimit-*`, and
 * (for JSON answers) the uniform `rate_limited` body. Answers the `Retry-After` seconds.
 */
export async function expectLimited(response: Response, policy: Record<string, { q: number; w: number }>): Promise<number> {
  expect(response.status).toBe(429);
  const fields = limitFields(response);
  const retryAfter = fields.retryAfter ?? 0;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(Math.max(...Object.values(policy).map((p) => p.w)));
  expect(fields.policy).toEqual(policy);
  expect(fields.limit).toEqual(Object.fromEntries(Object.keys(policy).map((name) => [name, { r: 0, t: retryAfter }])));
  expect(fields.legacy).toEqual([]);
  if (response.headers.get('content-type')?.startsWith('application/json'))
    expect(await response.json()).toEqual({
      error: 'rate_limited',
      error_description: expect.stringContaining('Try again in'),
      statusCode: 429,
    });
  return retryAfter;
}
