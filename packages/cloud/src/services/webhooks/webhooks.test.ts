import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HUB_LOGIC_WEBHOOK_ID, WEBHOOK_SIGNATURE_HEADER } from '@hearth/contract';
import { hubSecret, verifyWebhookDelivery } from '@hearth/contract/hub-secret';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  describeOnDatabases,
  INTERNAL_SECRET,
  internalToken,
  type Json,
  readJson,
  startTestCloud,
  TEST_PUBLIC_URL,
} from '../../testing';

/**
 * A stand-in for a hub's delivery endpoint: checks each delivery's signature with the hub's secret as a hub does,
 * records what it accepted, and answers `failFirst` of them with 503 (then 200), or always `status` when set.
 */
async function fakeHub(hubId: string, options: { failFirst?: number; status?: number } = {}) {
  const received: Json[] = [];
  let requests = 0;
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      requests += 1;
      const { delivery } = JSON.parse(text) as { delivery: string };
      const signature = String(request.headers[WEBHOOK_SIGNATURE_HEADER]);
      const now = Math.floor(Date.now() / 1000);
      const valid =
        request.url === '/api/manager/cloud/webhook' &&
        verifyWebhookDelivery(hubSecret(INTERNAL_SECRET, hubId), delivery, signature, now, 300);
      const status = !valid ? 403 : (options.status ?? (requests <= (options.failFirst ?? 0) ? 503 : 200));
      if (status === 200) received.push(JSON.parse(delivery) as Json);
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describeOnDatabases('Cloud webhooks', (backend) => {
  let cloud: Cloud;
  let internal: string;
  let developer: { id: string; token: string };
  const hubs = [randomBytes(12).toString('hex'), randomBytes(12).toString('hex'), randomBytes(12).toString('hex')] as const;
  const servers: Awaited<ReturnType<typeof fakeHub>>[] = [];
  const api = (method: string, path: string, body?: unknown) => call(cloud, method, `/webhooks${path}`, null, body);

  beforeAll(async () => {
    cloud = await startTestCloud(backend, { webhookRetryBaseMs: 50 });
    internal = await internalToken(cloud);
    developer = await createUser(cloud, `webhooks-${backend}@hearth.test`);
    servers.push(await fakeHub(hubs[0], { failFirst: 1 }), await fakeHub(hubs[1]), await fakeHub(hubs[2], { status: 404 }));
    for (const [index, id] of hubs.entries()) {
      const created = await call(cloud, 'POST', '/cloud/homey/', internal, {
        data: { _id: id, name: `Hub ${index}`, model: 'hearth-pro-5q', localUrl: servers[index]?.url },
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await cloud?.stop();
    for (const server of servers) await server.close();
  });

  it('keeps a developer’s webhooks by the token in the query, and refuses bad input and other developers', async () => {
    const token = encodeURIComponent(developer.token);
    const created = await api('POST', `/api/webhook?token=${token}`, {
      name: 'Accounts',
      fn: 'return 1',
      keyPath: 'body.account',
    });
    expect(created.status).toBe(201);
    const webhook = await readJson(created);
    expect(webhook).toMatchObject({
      _id: webhook.id,
      name: 'Accounts',
      fn: 'return 1',
      keyPath: 'body.account',
      url: `${TEST_PUBLIC_URL}/webhooks/webhook/${webhook.id}`,
      clients: 0,
    });
    expect(await readJson(await api('GET', `/api/webhook?token=${token}`))).toEqual([webhook]);
    const renamed = await readJson(await api('PUT', `/api/webhook/${webhook.id}?token=${token}`, { name: 'Renamed' }));
    expect(renamed).toMatchObject({ name: 'Renamed', keyPath: 'body.account' });

    for (const [body, code] of [
      [{}, 'missing_parameter'],
      [{ name: 'x', keyPath: 'cookies.a' }, 'invalid_parameter'],
      [{ name: '' }, 'invalid_parameter'],
      [{ name: 'x', extra: 1 }, 'invalid_parameter'],
    ] as const) {
      const refused = await api('POST', `/api/webhook?token=${token}`, body);
      expect(refused.status).toBe(400);
      expect((await readJson(refused)).error).toBe(code);
    }
    const unknown = await api('GET', '/api/webhook?token=not-a-token');
    expect([unknown.status, (await readJson(unknown)).error]).toEqual([403, 'forbidden']);
    expect((await api('GET', '/api/webhook')).status).toBe(400);

    const other = await createUser(cloud, `webhooks-other-${backend}@hearth.test`);
    const otherToken = encodeURIComponent(other.token);
    expect(await readJson(await api('GET', `/api/webhook?token=${otherToken}`))).toEqual([]);
    expect((await api('GET', `/api/webhook/${webhook.id}?token=${otherToken}`)).status).toBe(404);
    expect((await api('DELETE', `/api/webhook/${webhook.id}?token=${otherToken}`)).status).toBe(404);
    // The provider's own webhook belongs to no developer.
    expect((await api('GET', `/api/webhook/${HUB_LOGIC_WEBHOOK_ID}?token=${token}`)).status).toBe(404);
    expect((await api('DELETE', `/api/webhook/${webhook.id}?token=${token}`)).status).toBe(204);
    expect(await readJson(await api('GET', `/api/webhook?token=${token}`))).toEqual([]);
  });

  it('delivers a call to the hubs whose key matches, signed, retried after a failure, and lists the deliveries', async () => {
    const token = encodeURIComponent(developer.token);
    const webhook = await readJson(
      await api('POST', `/api/webhook?token=${token}`, { name: 'Accounts', keyPath: 'body.account' }),
    );
    const register = (hub: string, data: Json, secret = hubSecret(INTERNAL_SECRET, hub)) =>
      api('PUT', `/webhook/${webhook.id}/${hub}`, { secret, data, callback_url: 'https://ignored.example/' });
    const registered = await register(hubs[0], { $key: 'acct-1', app: 'com.example' });
    expect(registered.status).toBe(200);
    expect(await readJson(registered)).toMatchObject({ webhookId: webhook.id, homeyId: hubs[0], data: { $key: 'acct-1' } });
    expect((await register(hubs[1], { $key: 'acct-2' })).status).toBe(200);
    expect((await register(hubs[2], { $key: 'acct-1' })).status).toBe(200);

    // A forged secret, another hub's secret, an unknown webhook or hub, a key that is no value: refused.
    expect((await readJson(await register(hubs[1], {}, `${hubs[1]}.forged`))).error).toBe('forbidden');
    expect((await register(hubs[1], {}, hubSecret(INTERNAL_SECRET, hubs[0]))).status).toBe(403);
    expect((await register(hubs[1], {}, hubSecret('another-internal-secret', hubs[1]))).status).toBe(403);
    expect(
      (await api('PUT', `/webhook/${'0'.repeat(24)}/${hubs[0]}`, { secret: hubSecret(INTERNAL_SECRET, hubs[0]) })).status,
    ).toBe(404);
    const unknownHub = 'ab'.repeat(12);
    expect(
      (await api('PUT', `/webhook/${webhook.id}/${unknownHub}`, { secret: hubSecret(INTERNAL_SECRET, unknownHub) })).status,
    ).toBe(404);
    expect((await register(hubs[1], { $key: { nested: true } })).status).toBe(400);
    expect((await api('PUT', `/webhook/${webhook.id}/${hubs[1]}`, {})).status).toBe(400);

    const answer = await call(cloud, 'POST', `/webhooks/webhook/${webhook.id}?source=test`, null, {
      account: 'acct-1',
      amount: 3,
    });
    expect(answer.status).toBe(202);
    expect(await readJson(answer)).toEqual({ webhookId: webhook.id, deliveries: 2 });

    // Hub 0 refuses the first attempt (503) and takes the retry; hub 2 answers 404, which is not retried.
    await until(() => servers[0]?.received.length === 1, 'the retried delivery');
    const delivered = servers[0]?.received[0] as Json;
    expect(delivered).toMatchObject({
      webhookId: webhook.id,
      homeyId: hubs[0],
      data: { $key: 'acct-1', app: 'com.example' },
      query: { source: 'test' },
      body: { account: 'acct-1', amount: 3 },
    });
    expect(delivered.headers['content-type']).toContain('application/json');
    expect(delivered.headers.authorization).toBeUndefined();
    expect(servers[0]?.requests()).toBe(2);
    expect(servers[1]?.requests()).toBe(0);

    const listed = async () => (await readJson(await api('GET', `/api/webhook/${webhook.id}?token=${token}`))) as Json;
    await until(async () => (await listed()).deliveries.every((d: Json) => d.state !== 'pending'), 'deliveries settled');
    const { deliveries, clients } = await listed();
    expect(clients).toBe(3);
    const byHub = Object.fromEntries(deliveries.map((d: Json) => [d.homeyId, d]));
    expect(byHub[hubs[0]]).toMatchObject({
      state: 'delivered',
      attempts: 2,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(byHub[hubs[2]]).toMatchObject({ state: 'failed', attempts: 1, lastStatus: 404 });
    expect(servers[2]?.requests()).toBe(1);

    // Without the key, or with another, nobody gets it; a GET call with the key in the query is matched too.
    expect(await readJson(await call(cloud, 'POST', `/webhooks/webhook/${webhook.id}`, null, { other: 1 }))).toMatchObject({
      deliveries: 0,
    });
    expect(await readJson(await call(cloud, 'GET', `/webhooks/webhook/${webhook.id}?x=1`, null))).toMatchObject({
      deliveries: 0,
    });
    expect((await call(cloud, 'POST', `/webhooks/webhook/${'0'.repeat(24)}`, null, {})).status).toBe(404);

    // A hub that unregisters gets nothing more.
    const secret = encodeURIComponent(hubSecret(INTERNAL_SECRET, hubs[2]));
    expect((await api('DELETE', `/webhook/${webhook.id}/${hubs[2]}?secret=${secret}`)).status).toBe(204);
    expect((await api('DELETE', `/webhook/${webhook.id}/${hubs[2]}?secret=${secret}`)).status).toBe(404);
    expect(
      await readJson(await call(cloud, 'POST', `/webhooks/webhook/${webhook.id}`, null, { account: 'acct-1' })),
    ).toMatchObject({
      deliveries: 1,
    });
  });

  it('matches a GET call by its query, and sends every call to every hub of a webhook without a key path', async () => {
    const token = encodeURIComponent(developer.token);
    const byQuery = await readJson(await api('POST', `/api/webhook?token=${token}`, { name: 'Query', keyPath: 'query.id' }));
    await api('PUT', `/webhook/${byQuery.id}/${hubs[1]}`, { secret: hubSecret(INTERNAL_SECRET, hubs[1]), data: { $key: 7 } });
    const before = servers[1]?.received.length ?? 0;
    expect(await readJson(await call(cloud, 'GET', `/webhooks/webhook/${byQuery.id}?id=7`, null))).toMatchObject({
      deliveries: 1,
    });
    await until(() => (servers[1]?.received.length ?? 0) === before + 1, 'the GET delivery');
    expect(servers[1]?.received.at(-1)).toMatchObject({ query: { id: '7' }, body: null, data: { $key: 7 } });

    const everyone = await readJson(await api('POST', `/api/webhook?token=${token}`, { name: 'All' }));
    for (const hub of hubs) await api('PUT', `/webhook/${everyone.id}/${hub}`, { secret: hubSecret(INTERNAL_SECRET, hub) });
    expect(await readJson(await call(cloud, 'POST', `/webhooks/webhook/${everyone.id}`, null, {}))).toMatchObject({
      deliveries: 3,
    });
  });
});
