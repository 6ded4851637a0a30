import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cloud, DEMO_CLIENTS, DEMO_USER } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCloud } from '../../../testing/cloud';
import { runOverDevkit } from '../../../testing/devkit';
import { startTestHub, type TestHub } from '../../../testing/hub';
import { untilAppRunning } from '../../../testing/pairing';
import { until } from '../../../testing/until';

const SECRET = 'app-webhook-test-internal-secret';
const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.webhook');
const APP = 'com.test.webhook';

/** A developer's webhook at the cloud, keyed by the `door` of a call's query. */
async function createDeveloperWebhook(cloud: Cloud): Promise<string> {
  const signIn = await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${DEMO_CLIENTS.demo.id}:${DEMO_CLIENTS.demo.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username: DEMO_USER.email, password: DEMO_USER.password }).toString(),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const created = await fetch(`${cloud.url}/webhooks/api/webhook?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Doorbell', keyPath: 'query.door' }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/**
 * Cloud webhooks of an app, end to end with the embedded cloud: the app's `this.homey.cloud.createWebhook`
 * registers the hub at the cloud, a call of the webhook's public address is delivered to the hub and reaches the
 * app's `message` listener, and `unregister()` ends the registration.
 */
describe("an app's cloud webhook", () => {
  let cloud: Cloud;
  let t: TestHub;
  let webhookId: string;

  const callWebhook = async (query: string, body?: unknown) => {
    const answer = await fetch(`${cloud.url}/webhooks/webhook/${webhookId}?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sent-by': 'doorbell' },
      body: JSON.stringify(body ?? {}),
    });
    expect(answer.status).toBe(202);
    return ((await answer.json()) as { deliveries: number }).deliveries;
  };
  const appApi = async <T>(method: string, path: string): Promise<T> => {
    const answer = await fetch(`${t.url}/api/app/${APP}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.token}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as T;
  };
  const messages = () => appApi<{ query: Record<string, string>; body: unknown; via: string | null }[]>('GET', '/messages');

  beforeAll(async () => {
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET, webhookRetryBaseMs: 50, demoHubs: [] });
    t = await startTestHub({ id: randomBytes(12).toString('hex'), cloudUrl: cloud.url, cloudClientSecret: SECRET });
    expect(await t.hub.cloudRegistration).toBe(true);
    webhookId = await createDeveloperWebhook(cloud);
    await runOverDevkit(t, fixture, { WEBHOOK_ID: webhookId });
    await untilAppRunning(t, APP);
  });
  afterAll(async () => {
    await t?.stop();
    await cloud?.stop();
  });

  it("delivers a call of the webhook's address to the app's message listener, with its query, body and headers", async () => {
    expect(await callWebhook('door=front&visitor=ada', { rings: 2 })).toBe(1);
    const [message] = await until(messages, (list) => list.length === 1);
    expect(message).toEqual({ query: { door: 'front', visitor: 'ada' }, body: { rings: 2 }, via: 'doorbell' });
  });

  it("reaches only the hub registered with the call's key", async () => {
    expect(await callWebhook('door=back')).toBe(0);
    expect(await callWebhook('door=front&visitor=bo')).toBe(1);
    const list = await until(messages, (found) => found.length === 2);
    expect(list.map((m) => m.query.visitor)).toEqual(['ada', 'bo']);
  });

  it('ends the registration at the cloud when the app unregisters the webhook', async () => {
    await appApi('POST', '/forget');
    expect(await callWebhook('door=front&visitor=cy')).toBe(0);
    expect(await messages()).toHaveLength(2);
  });
});
