import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedCloud } from '../testing/cloud';
import { startTestHub, type TestHub } from '../testing/hub';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

const SECRET = 'registration-test-internal-secret';
let cloud: Cloud;
let t: TestHub;

beforeAll(async () => {
  cloud = await startEmbeddedCloud({
    internalClientSecret: SECRET,
    // The demo world publishes the demo apps in the catalogue, which the hub installs from.
    demoHubs: [{ id: 'abcdef0123456789abcdef01', name: 'Registered hub', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' }],
  });
  t = await startTestHub({
    id: 'abcdef0123456789abcdef01',
    name: 'Registered hub',
    cloudUrl: cloud.url,
    cloudClientSecret: SECRET,
    // The household forwards a port of its router to the hub.
    remoteUrlForwarded: 'https://203.0.113.7:4859',
  });
});
afterAll(async () => {
  await t?.stop();
  await cloud?.stop();
});

/** A token of the provider's internal client (client credentials) from the real cloud. */
async function internalToken(): Promise<string> {
  const answer = await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`hearth-internal:${SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

it('registers its id, model, version and current address with the real cloud at start', async () => {
  await expect(t.hub.cloudRegistration).resolves.toBe(true);
  const token = await internalToken();
  const record = (await (
    await fetch(`${cloud.url}/cloud/homey/abcdef0123456789abcdef01`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as Record<string, unknown>;
  expect(record).toMatchObject({
    _id: 'abcdef0123456789abcdef01',
    name: 'Registered hub',
    model: 'hearth-pro-5q',
    platform: 'local',
    softwareVersion: '12.4.0',
    localUrl: t.url,
    remoteUrlForwarded: 'https://203.0.113.7:4859',
  });
});

it('does not register without a cloud link', async () => {
  const alone = await startTestHub();
  await expect(alone.hub.cloudRegistration).resolves.toBe(false);
  await alone.stop();
});

it("mails an app's author through the real cloud's mail service with the hub's credentials", async () => {
  const installed = await t.call<Json>('POST', '/apps/store', { id: 'com.flakyhome.sensors' });
  expect(installed.body).toMatchObject({ id: 'com.flakyhome.sensors', origin: 'appstore' });
  const answer = await t.call<Json>('POST', '/apps/app/com.flakyhome.sensors/crashlog', {
    message: 'The sensor app stops every night',
  });
  expect(answer.status).toBe(200);
  const sink = cloud.context.mail.sink;
  if (!sink) throw new Error('the test cloud has no SMTP sink');
  const mail = await sink.waitFor((message) => message.text.includes('The sensor app stops every night'));
  expect(mail.to).toContain(answer.body.to);
  expect(mail.text).toContain('abcdef0123456789abcdef01');
});

/** Signs in to the real cloud with the demo client's password grant; answers the access token. */
async function accessTokenOf(email: string, password: string): Promise<string> {
  const tokens = await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('hearth-demo:hearth-demo-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
  });
  return ((await tokens.json()) as { access_token: string }).access_token;
}

/** A delegation token for hubs (naming none) of the real cloud account `email`. */
async function delegationTokenOf(email: string, password: string): Promise<string> {
  const token = await accessTokenOf(email, password);
  const delegation = await fetch(`${cloud.url}/cloud/delegation/token?audience=homey`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return (await delegation.json()) as string;
}

it("binds the owner the cloud's registry names, and a stranger's delegation token cannot take the unowned hub", async () => {
  expect(t.hub.context.users.owner()?.athomId).toBeNull();
  // A stranger with a real cloud account asks the real cloud for a delegation token (naming no hub).
  const created = await fetch(`${cloud.url}/cloud/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await internalToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      user: { email: 'stranger@hearth.test', password: 'a-good-password-1', firstname: 'S', lastname: 'T' },
    }),
  });
  expect(created.status).toBe(201);
  const stranger = await t.call<Json>(
    'POST',
    '/users/login',
    { token: await delegationTokenOf('stranger@hearth.test', 'a-good-password-1') },
    null,
  );
  expect(stranger.status).toBe(403);
  expect(stranger.body).toMatchObject({ error: 'forbidden', error_description: 'This account is not a user of this hub' });
  expect(t.hub.context.users.owner()?.athomId).toBeNull();

  // The demo account claimed this hub in the cloud: the hub asks the cloud and binds it as the owner.
  const owner = await t.call<string>(
    'POST',
    '/users/login',
    { token: await delegationTokenOf('demo@hearth.test', 'hearth-demo-password') },
    null,
  );
  expect(owner.status).toBe(200);
  const me = await t.call<Json>('GET', '/users/user/me', undefined, owner.body);
  expect(me.body).toMatchObject({ id: t.hub.context.users.owner()?.id, role: 'owner' });
  expect(me.body.athomId).toEqual(expect.any(String));
  // Once bound, the stranger is still refused.
  const again = await t.call(
    'POST',
    '/users/login',
    { token: await delegationTokenOf('stranger@hearth.test', 'a-good-password-1') },
    null,
  );
  expect(again.status).toBe(403);
});

it("shows the cloud's one-time claim code of a hub nobody owns; whoever claims it with that code becomes its owner", async () => {
  expect(t.hub.cloudClaimToken()).toBeNull();
  const fresh = await startTestHub({ name: 'Unclaimed hub', cloudUrl: cloud.url, cloudClientSecret: SECRET });
  try {
    await expect(fresh.hub.cloudRegistration).resolves.toBe(true);
    const code = fresh.hub.cloudClaimToken();
    expect(code).toEqual(expect.any(String));
    const id = fresh.hub.context.config.id;
    const stranger = await delegationTokenOf('stranger@hearth.test', 'a-good-password-1');
    expect((await fresh.call('POST', '/users/login', { token: stranger }, null)).status).toBe(403);
    // The person holding the hub (and so its code) claims it in the cloud, then signs in to the hub as its owner.
    const claimant = await accessTokenOf('stranger@hearth.test', 'a-good-password-1');
    const activate = (body: object) =>
      fetch(`${cloud.url}/cloud/homey/${id}/activate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${claimant}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await activate({ token: 'not-the-code' })).status).toBe(403);
    expect((await activate({ token: code })).status).toBe(200);
    const owner = await fresh.call<string>('POST', '/users/login', { token: stranger }, null);
    expect(owner.status).toBe(200);
    expect((await fresh.call<Json>('GET', '/users/user/me', undefined, owner.body)).body.role).toBe('owner');
  } finally {
    await fresh.stop();
  }
});
