// Issue 7 benchmark: time from `hub.authenticate()` (discovery, delegation token, hub login, session) to a
// connected devices manager (socket handshake, /api, subscription, device list cached), against a demo hub and
// the real cloud on loopback. Prints p50 and p90 over the runs. Run: npx tsx bench/client-connect.ts

import { CloudAPI } from '../packages/client/src/node';
import { DEMO, startWorld } from '../packages/client/src/testing/world';
import { seedDemoHub } from '../packages/hub/src/runtime/seed';
import { fmt, line, percentile } from './lib/report';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const world = await startWorld();
try {
  seedDemoHub(world.hub.hub, { historyDays: 0 });
  const cloud = new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: world.cloudUrl });
  await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
  const user = await cloud.getAuthenticatedUser();
  const record = user.getFirstHub();
  const timings: number[] = [];
  let devices = 0;
  for (let run = 0; run < RUNS + 3; run++) {
    const started = performance.now();
    const hub = await record.authenticate();
    await hub.devices.connect();
    const elapsed = performance.now() - started;
    devices = Object.keys(await hub.devices.getDevices()).length;
    hub.destroy();
    if (run >= 3) timings.push(elapsed); // the first runs warm up the JIT and the hub's key cache
  }
  timings.sort((a, b) => a - b);
  console.log(`client: hub.authenticate() to a connected devices manager (${RUNS} runs, ${devices} devices, loopback)`);
  line('p50', `${fmt(percentile(timings, 50))} ms`);
  line('p90', `${fmt(percentile(timings, 90))} ms`);
  line('min / max', `${fmt(timings[0] ?? 0)} / ${fmt(timings.at(-1) ?? 0)} ms`);
} finally {
  await world.stop();
}
