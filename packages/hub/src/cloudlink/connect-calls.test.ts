import { generateKeyPairSync, sign } from 'node:crypto';
import type { Cloud } from '@hearth/cloud';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCloudUser, signInWithPassword, startEmbeddedCloud } from '../testing/cloud';
import { startTestHub, type TestHub } from '../testing/hub';
import { until } from '../testing/until';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

const SECRET = 'connect-calls-internal-secret-01';
const A = 'c0ffee0123456789abcdef01';
const B = 'c0ffee0123456789abcdef02';
/** Each hub's budget through the relay in this test: small, so a flood is quick to make. */
const BUDGET = 60;
let cloud: Cloud;
let a: TestHub;
let b: TestHub;

resolveLocalhostNames();

const relayOptions = { minDelayMs: 50, maxDelayMs: 200, heartbeatMs: 1000 };

beforeAll(async () => {
  cloud = await startEmbeddedCloud({
    internalClientSecret: SECRET,
    demoHubs: [
      { id: A, name: 'Hub A', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' },
      { id: B, name: 'Hub B', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' },
    ],
    connect: { requestsPerMinute: BUDGET },
  });
  [a, b] = await Promise.all([
    startTestHub({ id: A, cloudUrl: cloud.url, cloudClientSecret: SECRET, relay: relayOptions }),
    startTestHub({ id: B, cloudUrl: cloud.url, cloudClientSecret: SECRET, relay: relayOptions }),
  ]);
  await Promise.all([(await a.hub.tunnel)?.whenConnected(), (await b.hub.tunnel)?.whenConnected()]);
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await cloud?.stop();
});

async function connect(method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${cloud.url}/connect${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** Signs the demo user (the demo hubs' owner) in to the real cloud; answers the access token. */
const demoToken = (): Promise<string> => signInWithPassword(cloud, 'demo@hearth.test', 'hearth-demo-password');

/** Waits for the next domain event `name` on hub `t`. */
function next<T>(t: TestHub, name: 'cloud.pushConfirmed' | 'cloud.oauth2Callback' | 'webhook.received'): Promise<T> {
  return new Promise((resolve) => {
    const owner = `test-${Math.random()}`;
    t.hub.context.bus.on(name, owner, (payload) => {
      t.hub.context.bus.off(owner);
      resolve(payload as T);
    });
  });
}

describe('the six connect calls, forwarded to the hub through its tunnel', () => {
  it('ping: the hub’s own answer with its headers to its owner; 404 for an id the cloud does not know', async () => {
    const owner = await demoToken();
    // Hub A is the demo world's first hub, whose owner's Premium was sold for it: the hub announces that tier once
    // it has asked the cloud (at start, after registering).
    const answer = await until(
      () => connect('GET', `/homey/${A}/ping`, undefined, owner),
      (ping) => ping.headers.get('x-homey-tier') === 'premium',
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-homey-id')).toBe(A);
    expect(answer.headers.get('x-homey-version')).toBe('12.4.0');
    expect(answer.headers.get('x-homey-tier')).toBe('premium');
    expect((await connect('GET', '/homey/0123456789abcdef01234567/ping', undefined, owner)).status).toBe(404);
  });

  it('ping tells nobody but the hub’s users whether it exists, is online, or its version', async () => {
    const unknown = '0123456789abcdef01234567';
    const stranger = await newCloudUser(cloud, SECRET, 'ping.stranger@example.test');
    // Without a token: refused alike for a hub that exists and one that does not, with none of the hub's headers.
    const [anonymousA, anonymousUnknown] = [
      await connect('GET', `/homey/${A}/ping`),
      await connect('GET', `/homey/${unknown}/ping`),
    ];
    expect(anonymousA.status).toBe(401);
    expect(anonymousA.body).toEqual(anonymousUnknown.body);
    expect(anonymousA.headers.get('x-homey-version')).toBeNull();
    // A signed-in stranger: the hub is not found, word for word as an id nobody registered.
    const strangerA = await connect('GET', `/homey/${A}/ping`, undefined, stranger);
    const strangerUnknown = await connect('GET', `/homey/${unknown}/ping`, undefined, stranger);
    expect(strangerA.status).toBe(404);
    expect(JSON.stringify(strangerA.body).replaceAll(A, '<id>')).toBe(
      JSON.stringify(strangerUnknown.body).replaceAll(unknown, '<id>'),
    );
    expect(strangerA.headers.get('x-homey-id')).toBeNull();
    expect(strangerA.headers.get('x-homey-version')).toBeNull();
  });

  it('invite accept: the hub binds the invited user with the invitation token, once', async () => {
    const invited = await a.call<Json>('POST', '/users/user', { name: 'Guest', role: 'guest' });
    expect(invited.status).toBe(200);
    const body = { athomId: 'cloud-account-of-the-guest', inviteToken: invited.body.inviteToken };
    const accepted = await connect('POST', `/homey/${A}/invite/accept`, body);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: invited.body.id, athomId: 'cloud-account-of-the-guest' });
    const again = await connect('POST', `/homey/${A}/invite/accept`, body);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('not_found');
  });

  it('push confirmation and OAuth2 callback reach the hub’s domain bus', async () => {
    const confirmed = next<Json>(a, 'cloud.pushConfirmed');
    expect((await connect('POST', `/homey/${A}/push/confirm/push-42`, { choice: 'yes' })).status).toBe(204);
    expect(await confirmed).toEqual({ pushId: 'push-42', choice: 'yes' });
    const called = next<Json>(a, 'cloud.oauth2Callback');
    expect((await connect('POST', `/homey/${A}/callback/oauth2`, { code: 'the-code', token: 'sign-in-7' })).status).toBe(204);
    expect(await called).toEqual({ code: 'the-code', token: 'sign-in-7' });
  });

  it('webhook: the hub records it and starts what waits for it; the hub’s connect path is closed to clients', async () => {
    const received = next<Json>(a, 'webhook.received');
    const answer = await connect('POST', `/homey/${A}/webhook/doorbell`, { args: { tag: 'front' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ event: 'doorbell', tag: 'front' });
    expect(await received).toMatchObject({ event: 'doorbell', tag: 'front' });
    // Neither a local client nor a client through the relay can pass for the cloud.
    const forged = { webhookId: 'doorbell', args: { tag: 'forged' } };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${a.token}` };
    const local = await fetch(`${a.url}/api/connect/webhook`, { method: 'POST', headers, body: JSON.stringify(forged) });
    expect(local.status).toBe(404);
    const relayUrl = `http://${A}.connect.localhost:${new URL(cloud.url).port}`;
    const relayed = await fetch(`${relayUrl}/api/connect/webhook`, { method: 'POST', headers, body: JSON.stringify(forged) });
    expect(relayed.status).toBe(404);
  });

  it('mobile event: forwarded as its user’s when the device’s signature verifies, refused otherwise', async () => {
    const token = await demoToken();
    const me = (await (
      await fetch(`${cloud.url}/cloud/user/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Json;
    const keys = generateKeyPairSync('ed25519');
    const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const created = await fetch(`${cloud.url}/cloud/user/${me._id}/device`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device: { name: 'Phone', platform: 'android', publicKey } }),
    });
    expect(created.status).toBe(201);
    const device = (await created.json()) as Json;
    const user = a.hub.context.users.create({ name: 'Demo', role: 'user', athomId: me._id });
    const message = JSON.stringify({ event: 'geofence.enter', data: { zone: 'home' } });
    const signature = sign(null, Buffer.from(message), keys.privateKey).toString('base64');
    const event = { deviceId: device._id, userId: me._id, message, signature };
    const answer = await connect('POST', `/mobile/event?homeyId=${A}`, event);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ event: 'geofence.enter' });
    const row = a.hub.context.db.prepare('SELECT user_id, data FROM mobile_event WHERE id = ?').get(answer.body.id) as Json;
    expect(row.user_id).toBe(user.id);
    expect(JSON.parse(row.data)).toEqual({ zone: 'home', deviceId: device._id });
    const tampered = await connect('POST', `/mobile/event?homeyId=${A}`, { ...event, message: `${message} ` });
    expect(tampered.status).toBe(403);
    const otherKey = sign(null, Buffer.from(message), generateKeyPairSync('ed25519').privateKey).toString('base64');
    expect((await connect('POST', `/mobile/event?homeyId=${A}`, { ...event, signature: otherKey })).status).toBe(403);
  });

  it('a flood at one hub is answered 429 with Retry-After, and another hub is not affected', async () => {
    const owner = await demoToken();
    const answers = await Promise.all(
      Array.from({ length: BUDGET + 10 }, () => connect('GET', `/homey/${A}/ping`, undefined, owner)),
    );
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited[0]?.body.error).toBe('rate_limited');
    // Through the relay origin too: one budget per hub for requests with credentials; those without have their own.
    const origin = `http://${A}.connect.localhost:${new URL(cloud.url).port}`;
    const relayed = await fetch(`${origin}/api/manager/zones/zone`, { headers: { authorization: 'Bearer any-token' } });
    expect(relayed.status).toBe(429);
    expect(Number(relayed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fetch(`${origin}/api/manager/system/ping`)).status).toBe(200);
    expect((await connect('GET', `/homey/${B}/ping`, undefined, owner)).status).toBe(200);
  });

  it('ping answers 503 with a clear body while the hub has no tunnel; to a stranger it is still not found', async () => {
    const owner = await demoToken();
    await (await b.hub.tunnel)?.stop();
    const offline = await until(
      () => connect('GET', `/homey/${B}/ping`, undefined, owner),
      (answer) => answer.status === 503,
    );
    expect(offline.status).toBe(503);
    expect(offline.body).toEqual({
      error: 'hub_offline',
      error_description: 'This hub is offline: it is not connected to the cloud right now',
      statusCode: 503,
    });
    const stranger = await newCloudUser(cloud, SECRET, 'offline.stranger@example.test');
    expect((await connect('GET', `/homey/${B}/ping`, undefined, stranger)).status).toBe(404);
  });
});
