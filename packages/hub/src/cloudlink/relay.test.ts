import type { Cloud } from '@hearth/cloud';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRelayedHub } from '../testing/cloud';
import type { TestHub } from '../testing/hub';
import { ack, connectRealtime } from '../testing/socket';
import { until } from '../testing/until';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

const SECRET = 'relay-test-internal-secret-0123';
const HUB_ID = 'bcdef0123456789abcdef012';
let cloud: Cloud;
let t: TestHub;
/** The hub's relay origin, as the cloud lists it (`remoteUrl`). */
let relayUrl: string;

resolveLocalhostNames();

beforeAll(async () => {
  ({ cloud, hub: t, relayUrl } = await startRelayedHub({ id: HUB_ID, secret: SECRET, connect: { requestsPerMinute: 100_000 } }));
});
afterAll(async () => {
  await t?.stop();
  await cloud?.stop();
});

/** Calls the hub's API at `base` over real HTTP. */
async function call(base: string, method: string, path: string, body?: unknown, token: string | null = t.token) {
  const headers: Record<string, string> = { 'X-Homey-ID': HUB_ID };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api/manager${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Json = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, body: json, headers: response.headers };
}

it('opens a tunnel once registered, and the cloud lists the relay origin as the hub’s remoteUrl', async () => {
  expect((await t.hub.tunnel)?.connected()).toBe(true);
  const row = await cloud.context.database.db.selectFrom('hubs').select('remote_url').where('id', '=', HUB_ID).executeTakeFirst();
  expect(row?.remote_url).toBe(relayUrl);
});

it('answers the discovery ping through the relay with the hub’s own headers', async () => {
  const answer = await call(relayUrl, 'GET', `/system/ping?id=${HUB_ID}`, undefined, null);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-homey-id')).toBe(HUB_ID);
  expect(answer.headers.get('x-homey-version')).toBe('12.4.0');
});

it('carries manager calls with the client’s own Authorization, reads and writes alike', async () => {
  const direct = await call(t.url, 'GET', '/zones/zone');
  const relayed = await call(relayUrl, 'GET', '/zones/zone');
  expect(relayed.status).toBe(200);
  expect(relayed.body).toEqual(direct.body);
  expect(relayed.headers.get('content-type')).toMatch(/^application\/json/);
  // The relay adds no credential of its own: without the client's token the hub refuses.
  expect((await call(relayUrl, 'GET', '/zones/zone', undefined, null)).status).toBe(401);
  expect((await call(relayUrl, 'GET', '/zones/zone', undefined, 'not-a-token')).status).toBe(401);
  const root = Object.values(direct.body as Record<string, Json>).find((zone) => zone.parent === null);
  const created = await call(relayUrl, 'POST', '/zones/zone', { name: 'Relayed attic', icon: 'attic', parent: root.id });
  expect(created.status).toBe(200);
  expect((await call(t.url, 'GET', `/zones/zone/${created.body.id}`)).body.name).toBe('Relayed attic');
});

it('streams a request body to the hub, which applies its own body limit', async () => {
  const big = JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) });
  const answer = await call(relayUrl, 'POST', '/zones/zone', big);
  expect(answer.status).toBe(413);
  expect(answer.body.error).toBe('payload_too_large');
  // Many calls at once share the one tunnel.
  const many = await Promise.all(Array.from({ length: 40 }, () => call(relayUrl, 'GET', '/zones/zone')));
  expect(many.map((a) => a.status)).toEqual(many.map(() => 200));
});

it('carries the socket.io realtime connection (its WebSocket upgrade) through the relay', async () => {
  const realtime = await connectRealtime({ ...t, url: relayUrl });
  try {
    expect(realtime.handshake).toEqual([null, { namespace: '/api' }]);
    const events: unknown[][] = [];
    realtime.api.on('homey:manager:zones', (...args: unknown[]) => events.push(args));
    expect(await ack(realtime.api, 'subscribe', 'homey:manager:zones')).toEqual([null]);
    const zones = (await call(t.url, 'GET', '/zones/zone')).body as Record<string, Json>;
    const root = Object.values(zones).find((zone) => zone.parent === null);
    await call(t.url, 'POST', '/zones/zone', { name: 'Seen remotely', icon: 'attic', parent: root.id });
    const seen = await until(
      () => events,
      (list) => list.some(([event, data]) => event === 'zone.create' && (data as Json).name === 'Seen remotely'),
    );
    expect(seen.some(([event]) => event === 'zone.create')).toBe(true);
  } finally {
    realtime.close();
  }
});

it('gives the hub each client’s own address behind a trusted proxy: one client’s failed sign-ins do not hold another’s', async () => {
  const credentials = { username: 'relay-owner', password: 'kettle-harbour-plum-9' };
  expect((await call(t.url, 'PUT', '/users/user/me/local-credentials', credentials)).status).toBeLessThan(300);
  const signIn = (client: string, password: string) =>
    fetch(`${relayUrl}/api/manager/users/login-local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-homey-id': HUB_ID, 'x-forwarded-for': client },
      body: JSON.stringify({ username: credentials.username, password, clientId: 'relay-test', clientName: 'Relay test' }),
    });
  const guesser = '203.0.113.7';
  for (let i = 0; i < 5; i++) expect((await signIn(guesser, `wrong-guess-${i}`)).status).toBe(401);
  const held = await signIn(guesser, credentials.password);
  expect(held.status).toBe(429);
  expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
  // Another client through the same relay (and the same balancer) is its own address to the hub: not held.
  const rightful = await signIn('198.51.100.9', credentials.password);
  expect(rightful.status).toBe(200);
  expect(typeof (await rightful.json())).toBe('string');
});

it('answers 503 with a clear body for a hub without a tunnel, and the cloud’s own routes stay the cloud’s', async () => {
  const other = `http://cdef0123456789abcdef0123.connect.localhost:${new URL(cloud.url).port}`;
  const answer = await call(other, 'GET', '/system/ping', undefined, null);
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({ error: 'hub_offline', statusCode: 503 });
  expect(answer.body.error_description).toMatch(/This hub is offline/);
  expect((await fetch(`${cloud.url}/region/`)).status).toBe(200);
});

it('refuses a tunnel without the hub credential, or for a hub it does not know', async () => {
  const refusal = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${cloud.url.replace('http', 'ws')}/connect/tunnel`, { headers });
      ws.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => reject(new Error('the cloud accepted the tunnel')));
      ws.on('error', () => {});
    });
  expect(await refusal({ 'x-homey-id': HUB_ID })).toBe(401);
  expect(await refusal({ 'x-homey-id': HUB_ID, authorization: `Bearer ${t.token}` })).toBe(401);
  const internal = await t.hub.context.cloud.bearer();
  expect(await refusal({ 'x-homey-id': 'cdef0123456789abcdef0123', authorization: `Bearer ${internal}` })).toBe(403);
});
