import { type Cloud, type CloudConfig, startCloud } from '@hearth/cloud';
import type { HubConfig } from '../config';
import { startTestHub, type TestHub } from './hub';

/** A real cloud for a hub test: embedded (PGlite in memory), on a free loopback port, silent. */
export function startEmbeddedCloud(overrides: Partial<CloudConfig> = {}): Promise<Cloud> {
  return startCloud({
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://127.0.0.1',
    databaseUrl: null,
    dataDir: 'memory://',
    databaseSchema: 'public',
    logLevel: 'silent',
    smtpUrl: null,
    mailFrom: 'Hearth <no-reply@hearth.test>',
    internalClientSecret: null,
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 86_400,
    region: 'eu',
    demoHubs: null,
    ...overrides,
  });
}

/** An answer of the cloud over real HTTP, its JSON body read loosely. */
export interface CloudAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read open JSON answers of the cloud
  body: any;
}

/** Calls the cloud at `path` with a Bearer token (or none) and a JSON body. */
export async function cloudCall(
  cloud: Cloud,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<CloudAnswer> {
  const answer = await fetch(`${cloud.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

/** An access token from the cloud's token endpoint for a form of `fields`, the client's credentials in Basic. */
export async function cloudToken(cloud: Cloud, fields: Record<string, string>, client: string): Promise<string> {
  const answer = await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(client).toString('base64')}`,
    },
    body: new URLSearchParams(fields).toString(),
  });
  const { access_token: token } = (await answer.json()) as { access_token?: string };
  if (!token) throw new Error(`the cloud gave no token (${answer.status})`);
  return token;
}

/**
 * Signs `email` in with the password grant of the demo world's app client (`hearth-demo`): the cloud must have
 * been started with `demoHubs` (an empty list gives the client without demo hubs).
 */
export const signInWithPassword = (cloud: Cloud, email: string, password: string): Promise<string> =>
  cloudToken(cloud, { grant_type: 'password', username: email, password }, 'hearth-demo:hearth-demo-secret');

/**
 * Buys one `sku` in the cloud's store as the user of `token`, as a person does: a billing name and country, the
 * cart, the order, and Approve on the test payment provider's page (whose signed webhook fulfils the order).
 */
export async function buyInStore(cloud: Cloud, token: string, sku: string): Promise<{ orderId: string }> {
  const step = async (what: string, answer: Promise<CloudAnswer>): Promise<CloudAnswer> => {
    const { status, body } = await answer;
    if (status >= 300) throw new Error(`${what} failed: ${status} ${JSON.stringify(body)}`);
    return { status, body };
  };
  const billing = { billing_firstname: 'Ada', billing_lastname: 'Owner', billing_country: 'NL' };
  await step('billing details', cloudCall(cloud, 'PUT', '/store/userdata', token, billing));
  await step(`adding ${sku}`, cloudCall(cloud, 'POST', '/store/cart', token, { sku, quantity: 1 }));
  const order = await step('the order', cloudCall(cloud, 'POST', '/store/order', token, {}));
  const pay = await step('paying', cloudCall(cloud, 'POST', '/store/order/pay', token, { orderId: order.body.id }));
  const approve = await fetch(`${cloud.url}${new URL(pay.body.payment.actionUrl).pathname}/approve`, { method: 'POST' });
  if (approve.status !== 200) throw new Error(`approving the payment failed: ${approve.status}`);
  const paid = await step('reading the order', cloudCall(cloud, 'GET', `/store/user/order/${order.body.id}`, token));
  if (paid.body.status !== 'paid') throw new Error(`the order is ${paid.body.status}, not paid`);
  return { orderId: order.body.id };
}

/**
 * A new cloud account, made through the cloud's internal API with the internal client's `secret`, signed in:
 * answers its access token.
 */
export async function newCloudUser(cloud: Cloud, secret: string, email: string): Promise<string> {
  const internal = await cloudToken(cloud, { grant_type: 'client_credentials' }, `hearth-internal:${secret}`);
  const password = 'a-good-password-for-tests-1';
  const made = await cloudCall(cloud, 'POST', '/cloud/user', internal, {
    user: { email, password, firstname: 'Test', lastname: 'User' },
  });
  if (made.status !== 201) throw new Error(`the cloud made no user (${made.status})`);
  return signInWithPassword(cloud, email, password);
}

/** A hub whose cloud relays it: both started, the hub's tunnel up. */
export interface RelayedHub {
  cloud: Cloud;
  hub: TestHub;
  /** The cloud's port, which every relay origin shares. */
  port: number;
  /** The hub's relay origin (`<id>.connect.localhost` on the cloud's port). */
  relayUrl: string;
}

/**
 * An embedded cloud that knows one demo hub `id`, behind a trusted loopback proxy (clients are named in
 * X-Forwarded-For, as behind a load balancer), and that hub connected to it with a fast tunnel heartbeat.
 * `connect` sets the relay's budgets; `hub` adds to the hub's configuration.
 */
export async function startRelayedHub(options: {
  id: string;
  secret: string;
  connect?: NonNullable<CloudConfig['connect']>;
  hub?: Partial<HubConfig>;
}): Promise<RelayedHub> {
  const cloud = await startEmbeddedCloud({
    internalClientSecret: options.secret,
    demoHubs: [{ id: options.id, name: 'Relayed hub', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' }],
    connect: { heartbeatMs: 300, ...options.connect },
    trustProxy: '127.0.0.1,::1',
  });
  const hub = await startTestHub({
    id: options.id,
    cloudUrl: cloud.url,
    cloudClientSecret: options.secret,
    relay: { minDelayMs: 50, maxDelayMs: 200, heartbeatMs: 300 },
    ...options.hub,
  });
  await (await hub.hub.tunnel)?.whenConnected();
  const port = Number(new URL(cloud.url).port);
  return { cloud, hub, port, relayUrl: `http://${options.id}.connect.localhost:${port}` };
}
