// Issue 4 benchmark. (1) Capability PUT then read-back round trips on one device, 16 concurrent clients,
// against a bare Fastify route pair doing a SQLite write and read of the same size (the baseline); goal ≥ 50%
// of the baseline's throughput. (2) A 7-day query on an insights log of 1,000,000 entries; goal < 50 ms.
// Run: npx tsx bench/hub-devices.ts
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, line, percentile } from './lib/report';

interface Server {
  hubUrl: string;
  bareUrl: string;
  token: string;
  hubId: string;
  lightId: string;
  sensorId: string;
  entries: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const child = fork(join(here, 'lib', 'devices-server.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const server = await new Promise<Server>((resolve, reject) => {
  child.once('message', (message) => resolve(message as Server));
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});
const auth = { authorization: `Bearer ${server.token}`, 'x-homey-id': server.hubId };

/** Runs PUT-then-GET round trips from `clients` concurrent loops for `duration` seconds. */
async function roundTrips(url: string, headers: Record<string, string>, duration: number, clients = 16) {
  const latencies: number[] = [];
  const end = performance.now() + duration * 1000;
  let n = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const value = ((n++ % 100) + 1) / 100;
      const start = performance.now();
      const put = await fetch(url, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ value }),
      });
      if (put.status !== 204) throw new Error(`PUT answered ${put.status}: ${await put.text()}`);
      await put.arrayBuffer();
      const get = await fetch(url, { headers });
      if (get.status !== 200) throw new Error(`GET answered ${get.status}`);
      await get.json();
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / duration, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

console.log(`Hub devices (16 clients, ${seconds} s per run; one round trip = PUT capability + GET it back)`);
const hubUrl = `${server.hubUrl}/api/manager/devices/device/${server.lightId}/capability/dim`;
const bareUrl = `${server.bareUrl}/bare/device/${server.lightId}/capability/dim`;
await roundTrips(bareUrl, {}, 1);
const bare = await roundTrips(bareUrl, {}, seconds);
await roundTrips(hubUrl, auth, 1);
const hub = await roundTrips(hubUrl, auth, seconds);
line('capability round trip: bare Fastify + SQLite', `${fmt(bare.rps, 0)} /s  p50 ${fmt(bare.p50)} ms  p99 ${fmt(bare.p99)} ms`);
line('capability round trip: hub', `${fmt(hub.rps, 0)} /s  p50 ${fmt(hub.p50)} ms  p99 ${fmt(hub.p99)} ms`);
line('capability round trip: hub / baseline', `${fmt((hub.rps / bare.rps) * 100)} %`, {
  text: '≥ 50 %',
  met: hub.rps / bare.rps >= 0.5,
});

async function query(capability: string) {
  const url = `${server.hubUrl}/api/manager/insights/log/homey:device:${server.sensorId}/${capability}/entry?resolution=last7Days`;
  const times: number[] = [];
  let points = 0;
  await fetch(url, { headers: auth }).then((r) => r.arrayBuffer()); // warm-up: page cache, statement preparation
  for (let i = 0; i < 25; i++) {
    const start = performance.now();
    const answer = (await (await fetch(url, { headers: auth })).json()) as { values: unknown[] };
    times.push(performance.now() - start);
    points = answer.values.length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), points };
}
const spread = await query('measure_temperature');
line(
  `insights 7-day query, ${server.entries} entries over 2 years`,
  `p50 ${fmt(spread.p50)} ms  max ${fmt(spread.p99)} ms  ${spread.points} points`,
  {
    text: 'p50 < 50 ms',
    met: spread.p50 < 50,
  },
);
const dense = await query('measure_humidity');
line(
  `insights 7-day query, ${server.entries} entries in 7 days`,
  `p50 ${fmt(dense.p50)} ms  max ${fmt(dense.p99)} ms  ${dense.points} points`,
  {
    text: 'p50 < 50 ms',
    met: dense.p50 < 50,
  },
);
child.disconnect();
