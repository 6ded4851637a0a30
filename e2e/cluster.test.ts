import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudAPI } from '@hearth/client';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterRequirements, type RunningCluster, startCluster } from './cluster';

const DEMO = {
  clientId: 'hearth-demo',
  clientSecret: 'hearth-demo-secret',
  email: 'demo@hearth.test',
  password: 'hearth-demo-password',
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A Redis of this suite's own, so restarting it disturbs nothing else. */
function startRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}
/** The internal client's secret of the suite's cluster: the hub started below registers and tunnels with it. */
const INTERNAL_SECRET = 'cluster-suite-internal-secret-0123';
const HUB_ID = 'c1a57e0000000000000000e2';

/**
 * Starts a hub as `npm start` runs one (the bundle the cluster script built) with the balancer as its cloud, and
 * resolves with its owner token once it is up.
 */
async function startHub(cloudUrl: string, dataDir: string): Promise<{ child: ChildProcess; ownerToken: string }> {
  const child = spawn(process.execPath, ['--enable-source-maps', 'packages/hub/dist/main.js'], {
    cwd: join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      HUB_ID,
      HUB_NAME: 'Tunnelled hub',
      HUB_MODEL: 'hearth-pro-5q',
      HUB_HOST: '127.0.0.1',
      HUB_PORT: String(await freePort()),
      HEARTH_CLOUD_URL: cloudUrl,
      HEARTH_INTERNAL_CLIENT_SECRET: INTERNAL_SECRET,
      HEARTH_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ownerToken = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((l) => l.startsWith('HEARTH_READY '));
      if (line) resolve(JSON.parse(line.slice('HEARTH_READY '.length)).ownerToken);
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`the hub exited (${code}):\n${output}`)));
  });
  return { child, ownerToken };
}

/** The node the tunnel directory in the suite's Redis names as holding the hub's tunnel: its id and address. */
function tunnelHolder(redisPort: number): { node: string; address: string } | null {
  const run = (...args: string[]) =>
    spawnSync('redis-cli', ['-p', String(redisPort), ...args], { encoding: 'utf8' }).stdout.trim();
  const key = run('--scan', '--pattern', `hearth:tunnels:*:${HUB_ID}`).split('\n')[0];
  const value = key ? run('GET', key) : '';
  return value ? JSON.parse(value) : null;
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

const missing = clusterRequirements();
// Skipped (loudly, by scripts/test.mjs) without them; a file with no suite at all would fail the run instead.
describe.skipIf(missing.length > 0)('a cloud cluster of real processes', suite);
if (missing.length > 0 && process.env.CI === 'true')
  describe('a cloud cluster of real processes', () => {
    it('needs PostgreSQL, Redis and HAProxy under CI', () => {
      throw new Error(`CI=true but missing: ${missing.join(', ')}`);
    });
  });

function suite() {
  let cluster: RunningCluster;
  let redisPort: number;
  let redis: ChildProcess;
  let cloud: CloudAPI;
  let userId: string;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = startRedis(redisPort);
    cluster = await startCluster(3, {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      // The load below is one token's: the general limit is not what this suite is about.
      HEARTH_RATE_LIMIT_TOKEN: '1000000',
      HEARTH_RATE_LIMIT_ADDRESS: '1000000',
      HEARTH_INTERNAL_CLIENT_SECRET: INTERNAL_SECRET,
    });
    cloud = new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: cluster.url });
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    userId = String((await cloud.getAuthenticatedUser()).id);
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
    redis?.kill('SIGTERM');
  }, 60_000);

  it('keeps serving through the SIGKILL of a node: in-flight requests get a retryable error, the client retries, no acknowledged write is lost', async () => {
    const victim = cluster.nodes()[1];
    if (!victim) throw new Error('no second node');
    const until = Date.now() + 7_000;
    setTimeout(() => process.kill(victim.pid, 'SIGKILL'), 2_000);

    // Readers through the client library: every call must succeed, retrying what the dead node dropped.
    const reads = Array.from({ length: 4 }, async () => {
      let count = 0;
      while (Date.now() < until) {
        await cloud.getAuthenticatedUser();
        count++;
      }
      return count;
    });
    // A writer: each acknowledged write must be read back at once, from whichever node answers.
    const acknowledged: string[] = [];
    const write = (async () => {
      for (let i = 0; Date.now() < until; i++) {
        const firstname = `Write ${i}`;
        await cloud.updateUser({ id: userId, user: { firstname } });
        acknowledged.push(firstname);
        expect((await cloud.getAuthenticatedUser()).data.firstname).toBe(firstname);
      }
    })();
    // Bare requests with no retry: what a dying node leaves in flight is answered at once — a 502/503 with the
    // uniform error body and Retry-After, or, on a kept-alive connection, the connection closed without an answer
    // (HTTP's own signal that a request may be sent again, RFC 9112 §9.3.1) — never left hanging.
    const bare: { status: number; error?: string; retryAfter: string | null; ms: number }[] = [];
    const raw = (async () => {
      while (Date.now() < until) {
        const started = Date.now();
        try {
          const answer = await fetch(`${cluster.url}/cloud/health`, { signal: AbortSignal.timeout(10_000) });
          const body = (await answer.json()) as { error?: string };
          bare.push({
            status: answer.status,
            error: body.error,
            retryAfter: answer.headers.get('retry-after'),
            ms: Date.now() - started,
          });
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
          bare.push({ status: 0, error: cause, retryAfter: null, ms: Date.now() - started });
        }
      }
    })();

    const counts = await Promise.all(reads);
    await write;
    await raw;
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(3);
    for (const answer of bare) {
      if (answer.status === 200) continue;
      if (answer.status === 0) {
        expect(answer.error).toBe('UND_ERR_SOCKET');
        continue;
      }
      expect([502, 503]).toContain(answer.status);
      expect(['node_failed', 'no_node_available']).toContain(answer.error);
      expect(answer.retryAfter).toBe('1');
    }
    expect(Math.max(...bare.map((a) => a.ms))).toBeLessThan(5_000);
    // The last acknowledged write is what every node now reads.
    expect((await cloud.getAuthenticatedUser()).data.firstname).toBe(acknowledged.at(-1));
    // The cluster started the dead node again.
    await expect.poll(() => cluster.nodes()[1]?.pid !== victim.pid, { timeout: 30_000, interval: 500 }).toBe(true);
    expect(cluster.output()).toContain(`[node2] stopped (SIGKILL); starting it again`);
  }, 90_000);

  it('keeps serving while Redis restarts, and counts sign-ins again once it is back', async () => {
    redis.kill('SIGKILL');
    await stopped(redis);
    // Calls go on (uncounted); password sign-in waits for its throttle's store rather than run unslowed.
    for (let i = 0; i < 6; i++) expect((await cloud.getAuthenticatedUser()).email).toBe(DEMO.email);
    const during = new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: cluster.url, retries: 0 });
    await expect(during.authenticateWithPassword({ username: DEMO.email, password: DEMO.password })).rejects.toMatchObject({
      statusCode: 503,
    });

    redis = startRedis(redisPort);
    await expect
      .poll(
        async () =>
          during.authenticateWithPassword({ username: DEMO.email, password: DEMO.password }).then(
            () => 'signed in',
            (error: { statusCode?: number }) => `failed ${error.statusCode}`,
          ),
        { timeout: 20_000, interval: 500 },
      )
      .toBe('signed in');
    for (let i = 0; i < 6; i++) expect((await cloud.getAuthenticatedUser()).email).toBe(DEMO.email);
  }, 60_000);

  it('re-establishes a hub’s relay tunnel on another node when its node is killed, and remote calls work again', async () => {
    resolveLocalhostNames();
    const hubDir = mkdtempSync(join(tmpdir(), 'hearth-cluster-hub-'));
    const hub = await startHub(cluster.url, hubDir);
    try {
      // The hub's relay origin is on the balancer: each request lands on any node, which finds the tunnel.
      const relay = `http://${HUB_ID}.connect.localhost:${new URL(cluster.url).port}`;
      const zones = () =>
        fetch(`${relay}/api/manager/zones/zone`, {
          headers: { authorization: `Bearer ${hub.ownerToken}` },
          signal: AbortSignal.timeout(10_000),
        }).then(
          (answer) => answer.status,
          () => 0,
        );
      await expect.poll(zones, { timeout: 30_000, interval: 250 }).toBe(200);
      // Round robin sends these to every node; those without the tunnel forward to its holder.
      expect(await Promise.all(Array.from({ length: 9 }, zones))).toEqual(Array(9).fill(200));

      const before = tunnelHolder(redisPort);
      const holder = cluster.nodes().find((node) => node.url === before?.address);
      if (!before || !holder) throw new Error(`no node holds the tunnel: ${JSON.stringify(before)}`);
      process.kill(holder.pid, 'SIGKILL');
      const killedAt = Date.now();
      // The hub reconnects (back-off with jitter) through the balancer to a live node, which claims the hub.
      await expect.poll(zones, { timeout: 30_000, interval: 100 }).toBe(200);
      const recoveredMs = Date.now() - killedAt;
      const after = tunnelHolder(redisPort);
      expect(after?.node).toBeDefined();
      expect(after?.node).not.toBe(before.node);
      console.log(`relay tunnel back through another node ${recoveredMs} ms after the SIGKILL`);
      // A write through the relay, read back through the relay.
      const listed = (await (
        await fetch(`${relay}/api/manager/zones/zone`, { headers: { authorization: `Bearer ${hub.ownerToken}` } })
      ).json()) as Record<string, { id: string; parent: string | null }>;
      const root = Object.values(listed).find((zone) => zone.parent === null);
      const created = await fetch(`${relay}/api/manager/zones/zone`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hub.ownerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'After the kill', icon: 'attic', parent: root?.id }),
      });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: string };
      const read = await fetch(`${relay}/api/manager/zones/zone/${id}`, {
        headers: { authorization: `Bearer ${hub.ownerToken}` },
      });
      expect(((await read.json()) as { name: string }).name).toBe('After the kill');
    } finally {
      hub.child.kill('SIGTERM');
      await stopped(hub.child);
      rmSync(hubDir, { recursive: true, force: true });
    }
  }, 120_000);
}
