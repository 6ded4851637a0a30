import { type Cloud, startCloud } from '@hearth/cloud';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

const SECRET = 'registration-test-internal-secret';
let cloud: Cloud;
let t: TestHub;

beforeAll(async () => {
  cloud = await startCloud({
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://127.0.0.1',
    databaseUrl: null,
    dataDir: 'memory://',
    databaseSchema: 'public',
    logLevel: 'silent',
    smtpUrl: null,
    mailFrom: 'Hearth <no-reply@hearth.test>',
    internalClientSecret: SECRET,
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 86_400,
    // The demo world publishes the demo apps in the catalogue, which the hub installs from.
    demoHubs: [{ id: 'abcdef0123456789abcdef01', name: 'Registered hub', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' }],
  });
  t = await startTestHub({
    id: 'abcdef0123456789abcdef01',
    name: 'Registered hub',
    cloudUrl: cloud.url,
    cloudClientSecret: SECRET,
  });
});
afterAll(async () => {
  await t?.stop();
  await cloud?.stop();
});

it('registers its id, model, version and current address with the real cloud at start', async () => {
  await expect(t.hub.cloudRegistration).resolves.toBe(true);
  const tokenAnswer = await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`hearth-internal:${SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
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
