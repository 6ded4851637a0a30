// Issue 19 benchmark: the connect relay. `GET /api/manager/zones/zone` (200 zones) through the relay — client →
// cloud → the hub's tunnel → hub — against the same call straight to the hub in the same run (the baseline):
// added latency p50/p99 (goal p50 < 2 ms added) and throughput (goal ≥ 50 % of direct). Then the cloud's resident
// memory with 1,000 simulated hub tunnels open, above the same cloud idle (goal < 150 MB).
// Run: npx tsx bench/relay.ts  (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_TUNNELS)
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TUNNEL_PATH } from '@hearth/contract/relay';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { fmt, line } from './lib/report';

const here = dirname(fileURLToPath(import.meta.url));
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const tunnels = Number(process.env.BENCH_TUNNELS ?? 1000);
const hubId = 'be0c4000000000000000be19';
const secret = 'relay-bench-internal-secret-0123';
const env = { ...process.env, BENCH_HUB_ID: hubId, BENCH_CLOUD_SECRET: secret, BENCH_TUNNELS: String(tunnels) };

// Relay origins are `<hubId>.connect.localhost`; this process resolves them to loopback as browsers do.
resolveLocalhostNames();

const cloudChild = fork(join(here, 'lib', 'relay-cloud.ts'), [], {
  execArgv: ['--import', 'tsx', '--expose-gc'],
  env,
  stdio: 'inherit',
});
const cloud = await new Promise<{ url: string; simulatedIds: string[] }>((resolve, reject) => {
  cloudChild.once('message', (message) => resolve(message as { url: string; simulatedIds: string[] }));
  cloudChild.once('exit', (code) => reject(new Error(`cloud exited (${code})`)));
});
const hubChild = fork(join(here, 'lib', 'hub-server.ts'), [], {
  execArgv: ['--import', 'tsx'],
  env: { ...env, BENCH_CLOUD_URL: cloud.url },
  stdio: 'inherit',
});
const hub = await new Promise<{ hubUrl: string; token: string; zoneCount: number; listBytes: number }>((resolve, reject) => {
  hubChild.once('message', (message) =>
    resolve(message as { hubUrl: string; token: string; zoneCount: number; listBytes: number }),
  );
  hubChild.once('exit', (code) => reject(new Error(`hub exited (${code})`)));
});
const relayUrl = `http://${hubId}.connect.localhost:${new URL(cloud.url).port}`;

async function load(base: string) {
  const run = (seconds: number) =>
    autocannon({
      url: `${base}/api/manager/zones/zone`,
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${hub.token}`, 'x-homey-id': hubId },
    });
  await run(1); // warm-up
  const result = await run(duration);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${base}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

console.log(
  `Connect relay: GET zones (${hub.zoneCount} zones, ${hub.listBytes} bytes), ${connections} connections, ${duration} s each`,
);
const direct = await load(hub.hubUrl);
const relayed = await load(relayUrl);
line('direct to the hub (baseline)', `${fmt(direct.rps, 0)} req/s, p50 ${direct.p50} ms, p99 ${direct.p99} ms`);
line('through the relay', `${fmt(relayed.rps, 0)} req/s, p50 ${relayed.p50} ms, p99 ${relayed.p99} ms`);
line('added latency p50', `${fmt(relayed.p50 - direct.p50, 2)} ms`, { text: '< 2 ms', met: relayed.p50 - direct.p50 < 2 });
line('added latency p99', `${fmt(relayed.p99 - direct.p99, 2)} ms`);
line('throughput relay ÷ direct', `${fmt((100 * relayed.rps) / direct.rps, 0)} %`, {
  text: '≥ 50 %',
  met: relayed.rps >= direct.rps / 2,
});

// One request at a time: the latency the relay adds to a single call, without queueing behind others.
async function sequential(base: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${base}/api/manager/zones/zone`, {
      headers: { authorization: `Bearer ${hub.token}`, 'x-homey-id': hubId },
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}
await sequential(relayUrl, 50);
const oneDirect = await sequential(hub.hubUrl, 300);
const oneRelayed = await sequential(relayUrl, 300);
const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
line(
  'one at a time: added p50',
  `${fmt(at(oneRelayed, 50) - at(oneDirect, 50), 2)} ms (direct ${fmt(at(oneDirect, 50), 2)} ms)`,
  {
    text: '< 2 ms',
    met: at(oneRelayed, 50) - at(oneDirect, 50) < 2,
  },
);
line('one at a time: added p99', `${fmt(at(oneRelayed, 99) - at(oneDirect, 99), 2)} ms (direct ${fmt(at(oneDirect, 99), 2)} ms)`);

// Memory: the cloud idle (the bench hub's tunnel open), then with the simulated tunnels open and idle.
const rss = () =>
  new Promise<number>((resolve) => {
    cloudChild.once('message', (message) => resolve((message as { rssMb: number }).rssMb));
    cloudChild.send({ rss: true });
  });
const idle = await rss();
const token = (await (
  await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`hearth-internal:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
).json()) as { access_token: string };
const open: WebSocket[] = [];
for (let i = 0; i < cloud.simulatedIds.length; i += 50) {
  await Promise.all(
    cloud.simulatedIds.slice(i, i + 50).map(
      (id) =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`${cloud.url.replace('http', 'ws')}${TUNNEL_PATH}`, {
            headers: { authorization: `Bearer ${token.access_token}`, 'x-homey-id': id },
            perMessageDeflate: false,
          });
          ws.once('open', () => resolve());
          ws.once('error', reject);
          open.push(ws);
        }),
    ),
  );
}
const loaded = await rss();
console.log(`Connect relay: cloud memory with ${open.length} simulated hub tunnels (idle, after GC)`);
line('cloud idle (baseline)', `${fmt(idle)} MB`);
line(`cloud with ${open.length} tunnels`, `${fmt(loaded)} MB`);
line('above idle', `${fmt(loaded - idle)} MB (${fmt(((loaded - idle) * 1024) / open.length)} KB a tunnel)`, {
  text: '< 150 MB',
  met: loaded - idle < 150,
});

for (const ws of open) ws.terminate();
hubChild.disconnect();
cloudChild.disconnect();
