// Issue 3 benchmark: throughput of GET /api/manager/zones/zone with 200 zones and of PUT a zone, against a
// bare Fastify route answering the same bytes in the same process (the baseline). Goal: ≥ 60% of the bare
// route. A PUT is acknowledged only once it is on disk, which a route that writes nothing does not pay, so PUT
// is also compared with a bare route making the same durable SQLite write (as issue 4's benchmark does).
// Run: npx tsx bench/hub-api.ts  (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { fmt, line } from './lib/report';

interface Server {
  hubUrl: string;
  bareUrl: string;
  token: string;
  hubId: string;
  zoneId: string;
  zoneCount: number;
  listBytes: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const child = fork(join(here, 'lib', 'hub-server.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const server = await new Promise<Server>((resolve, reject) => {
  child.once('message', (message) => resolve(message as Server));
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});

async function load(
  url: string,
  options: { method?: 'GET' | 'PUT'; body?: () => string; headers?: Record<string, string> } = {},
) {
  const { body } = options;
  const run = (seconds: number) =>
    autocannon({
      url,
      connections,
      pipelining: 1,
      duration: seconds,
      method: options.method ?? 'GET',
      headers: options.headers,
      // A fresh body per request: a write of unchanged bytes would let SQLite and the disk skip the work.
      ...(body ? { requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }] } : {}),
    });
  await run(1); // warm-up: JIT, connection pools, SQLite page cache
  const result = await run(duration);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const auth = { authorization: `Bearer ${server.token}`, 'x-homey-id': server.hubId };
const json = { ...auth, 'content-type': 'application/json' };
let renames = 0;
const body = () => JSON.stringify({ name: `Bench room ${(renames++ % 100_000).toString().padStart(5, '0')}` });

console.log(
  `Hub API throughput (${server.zoneCount} zones, ${server.listBytes} bytes per list, ${connections} connections, ${duration} s each)`,
);
const putZone = (path: string, headers: Record<string, string>) =>
  load(`${path}/${server.zoneId}`, { method: 'PUT', body, headers });
const cases = [
  {
    name: 'GET zones',
    hub: () => load(`${server.hubUrl}/api/manager/zones/zone`, { headers: auth }),
    baselines: [{ name: 'bare Fastify', run: () => load(`${server.bareUrl}/bare/zones`) }],
  },
  {
    name: 'PUT zone',
    hub: () => putZone(`${server.hubUrl}/api/manager/zones/zone`, json),
    baselines: [
      { name: 'bare Fastify', run: () => putZone(`${server.bareUrl}/bare/zones`, { 'content-type': 'application/json' }) },
      {
        name: 'bare Fastify + durable SQLite write',
        run: () => putZone(`${server.bareUrl}/bare-durable/zones`, { 'content-type': 'application/json' }),
      },
    ],
  },
];
// Rounds alternate baselines and hub, so a slower or faster stretch of a shared machine falls on both; the
// ratio quoted is the median of the rounds' ratios.
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
for (const c of cases) {
  const ratios = new Map<string, number[]>(c.baselines.map((b) => [b.name, []]));
  for (let round = 1; round <= rounds; round++) {
    const baselines = [];
    for (const baseline of c.baselines) baselines.push({ name: baseline.name, ...(await baseline.run()) });
    const hub = await c.hub();
    const tag = rounds > 1 ? ` [round ${round}]` : '';
    for (const b of baselines)
      line(`${c.name}: ${b.name} (baseline)${tag}`, `${fmt(b.rps, 0)} req/s  p50 ${b.p50} ms  p99 ${b.p99} ms`);
    line(`${c.name}: hub${tag}`, `${fmt(hub.rps, 0)} req/s  p50 ${hub.p50} ms  p99 ${hub.p99} ms`);
    for (const b of baselines) ratios.get(b.name)?.push(hub.rps / b.rps);
  }
  for (const [name, values] of ratios) {
    const ratio = median(values);
    const each = values.map((v) => fmt(v * 100)).join(', ');
    line(`${c.name}: hub / ${name}`, `${fmt(ratio * 100)} % (median of ${each})`, { text: '≥ 60 %', met: ratio >= 0.6 });
  }
}
child.disconnect();
