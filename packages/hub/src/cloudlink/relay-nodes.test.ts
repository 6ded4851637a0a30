import { randomBytes } from 'node:crypto';
import type { Cloud, CloudConfig } from '@hearth/cloud';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPassword, startEmbeddedCloud } from '../testing/cloud';
import { startTestHub, type TestHub } from '../testing/hub';
import { ack, connectRealtime } from '../testing/socket';
import { until } from '../testing/until';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

const SECRET = 'relay-nodes-internal-secret-0123';
const HUB_ID = 'bcdef0123456789abcdef019';
const databaseUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';
const redisUrl = process.env.REDIS_URL || '';

resolveLocalhostNames();

/**
 * Two cloud nodes on one PostgreSQL schema and one Redis, as behind a load balancer: the hub's tunnel lands on
 * node A, and every request for the hub that arrives at node B must reach it through A.
 */
// Skipped (loudly, by scripts/test.mjs) without them; a file with no suite at all would fail the run instead.
describe.skipIf(!(databaseUrl && redisUrl))('the relay across two cloud nodes', suite);
if (!(databaseUrl && redisUrl) && process.env.CI === 'true')
  describe('the relay across two cloud nodes', () => {
    it('needs PostgreSQL and Redis under CI', () => {
      throw new Error('CI=true but DATABASE_URL or REDIS_URL is not set');
    });
  });

function suite() {
  let a: Cloud;
  let b: Cloud;
  let t: TestHub;
  const schema = `relay_${randomBytes(5).toString('hex')}`;
  const relayOn = (node: Cloud) => `http://${HUB_ID}.connect.localhost:${new URL(node.url).port}`;

  beforeAll(async () => {
    const shared: Partial<CloudConfig> = {
      databaseUrl,
      databaseSchema: schema,
      redisUrl,
      internalClientSecret: SECRET,
      connect: { heartbeatMs: 300, requestsPerMinute: 100_000 },
    };
    a = await startEmbeddedCloud({
      ...shared,
      demoHubs: [{ id: HUB_ID, name: 'Relayed hub', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' }],
    });
    b = await startEmbeddedCloud(shared);
    t = await startTestHub({
      id: HUB_ID,
      cloudUrl: a.url,
      cloudClientSecret: SECRET,
      relay: { minDelayMs: 50, maxDelayMs: 200, heartbeatMs: 300 },
    });
    await (await t.hub.tunnel)?.whenConnected();
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await b?.stop();
    await a?.stop();
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  const call = async (base: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${t.token}`, 'x-homey-id': HUB_ID, ...(init.headers as object) },
    });
    const text = await response.text();
    let body: Json = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body, headers: response.headers };
  };

  it('carries a request that arrives at node B to the tunnel node A holds, reads and writes alike', async () => {
    const direct = await call(t.url, '/api/manager/zones/zone');
    const viaB = await call(relayOn(b), '/api/manager/zones/zone');
    expect(viaB.status).toBe(200);
    expect(viaB.body).toEqual(direct.body);
    const root = Object.values(direct.body as Record<string, Json>).find((zone) => zone.parent === null);
    const created = await call(relayOn(b), '/api/manager/zones/zone', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Through node B', icon: 'attic', parent: root.id }),
    });
    expect(created.status).toBe(200);
    expect((await call(t.url, `/api/manager/zones/zone/${created.body.id}`)).body.name).toBe('Through node B');
    // The hub still checks the client's own credential.
    expect((await call(relayOn(b), '/api/manager/zones/zone', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('serves the connect calls at node B through node A (the ping with the hub’s headers)', async () => {
    const owner = await signInWithPassword(b, 'demo@hearth.test', 'hearth-demo-password');
    const ping = await fetch(`${b.url}/connect/homey/${HUB_ID}/ping`, { headers: { authorization: `Bearer ${owner}` } });
    expect(ping.status).toBe(200);
    expect(ping.headers.get('x-homey-id')).toBe(HUB_ID);
  });

  it('carries the socket.io realtime connection that arrives at node B', async () => {
    const realtime = await connectRealtime({ ...t, url: relayOn(b) });
    try {
      const events: unknown[][] = [];
      realtime.api.on('homey:manager:zones', (...args: unknown[]) => events.push(args));
      expect(await ack(realtime.api, 'subscribe', 'homey:manager:zones')).toEqual([null]);
      const zones = (await call(t.url, '/api/manager/zones/zone')).body as Record<string, Json>;
      const root = Object.values(zones).find((zone) => zone.parent === null);
      await call(t.url, '/api/manager/zones/zone', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Seen through B', icon: 'attic', parent: root.id }),
      });
      await until(
        () => events,
        (list) => list.some(([event, data]) => event === 'zone.create' && (data as Json).name === 'Seen through B'),
      );
    } finally {
      realtime.close();
    }
  });

  it('refuses a forwarded request without a valid proof of a cloud node', async () => {
    const forged = await call(relayOn(a), '/api/manager/zones/zone', {
      headers: {
        'x-hearth-relay-forward': `${Math.floor(Date.now() / 1000)}.forged`,
        'x-hearth-relay-client': '10.0.0.1',
        'x-hearth-relay-cloud': '1',
      },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toBe('forbidden');
  });

  it('answers hub_offline at either node once the hub’s tunnel is gone', async () => {
    await (await t.hub.tunnel)?.stop();
    for (const node of [a, b]) {
      const answer = await until(
        () => call(relayOn(node), '/api/manager/zones/zone'),
        (got) => got.status === 503,
      );
      expect(answer.body.error).toBe('hub_offline');
    }
  });
}
