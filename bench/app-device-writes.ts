// Issue 38 benchmark: a burst of writes at one device served by an app process. BENCH_CLIENTS writers (128 by
// default, far more than the device can take one at a time) PUT the lamp's `dim` (the lamp test app's listener, in
// its own process) for BENCH_SECONDS; the baseline, in the same hub and run, is the same burst at an in-process
// virtual light's `dim`. Printed: answered writes per second (204 applied, or 429 with Retry-After when the
// device's queue is full; anything else is counted as a failure), the ratio app / in-process, and the p99 of a GET of
// the device during the burst against a calm GET (the device stays responsive while its writes queue).
// Run: npx tsx bench/app-device-writes.ts
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmt, line, percentile } from './lib/report';

interface Server {
  hubUrl: string;
  token: string;
  hubId: string;
  lampId: string;
  lightId: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const clients = Number(process.env.BENCH_CLIENTS ?? 128);
const child = fork(join(here, 'lib', 'app-runtime-server.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const server = await new Promise<Server>((resolve, reject) => {
  child.once('message', (message) => resolve(message as Server));
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});
const auth = { authorization: `Bearer ${server.token}`, 'x-homey-id': server.hubId };

/** Statuses of a burst: `clients` loops writing `dim` of `deviceId` for `duration` seconds. */
async function burst(deviceId: string, duration: number) {
  const counts = { applied: 0, refused: 0, failed: 0 };
  const end = performance.now() + duration * 1000;
  let n = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const answer = await fetch(`${server.hubUrl}/api/manager/devices/device/${deviceId}/capability/dim`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ value: ((n++ % 90) + 1) / 100 }),
      });
      await answer.arrayBuffer();
      if (answer.status === 204) counts.applied++;
      else if (answer.status === 429 && answer.headers.get('retry-after')) counts.refused++;
      else counts.failed++;
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  return { ...counts, rps: (counts.applied + counts.refused) / duration };
}

/** GETs of the device one at a time until `until` settles; answers their latencies, sorted. */
async function reads(deviceId: string, until: Promise<unknown>) {
  let done = false;
  void until.then(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const start = performance.now();
    const answer = await fetch(`${server.hubUrl}/api/manager/devices/device/${deviceId}`, { headers: auth });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`GET device answered ${answer.status}`);
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}

console.log(`App device writes (${clients} writers, ${seconds} s per run)`);
await burst(server.lightId, 1);
const calm = await reads(server.lampId, new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
const baseline = await burst(server.lightId, seconds);
const lampBurst = burst(server.lampId, seconds);
const during = await reads(server.lampId, lampBurst);
const app = await lampBurst;
const describe = (b: typeof app) => `${fmt(b.rps, 0)} /s  (${b.applied} applied, ${b.refused} 429, ${b.failed} failed)`;
line('burst: in-process virtual light', describe(baseline));
line('burst: app lamp (process listener)', describe(app), { text: 'no failures', met: app.failed === 0 });
line('burst answered: app / in-process', `${fmt((app.rps / baseline.rps) * 100)} %`, {
  text: '≥ 50 %',
  met: app.rps / baseline.rps >= 0.5,
});
line('GET the lamp: calm', `p50 ${fmt(percentile(calm, 50))} ms  p99 ${fmt(percentile(calm, 99))} ms`);
line('GET the lamp: during its burst', `p50 ${fmt(percentile(during, 50))} ms  p99 ${fmt(percentile(during, 99))} ms`, {
  text: 'p99 < 1 s',
  met: percentile(during, 99) < 1000,
});

child.kill();
process.exit(0);
