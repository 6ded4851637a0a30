// Child process of the app-runtime benchmark: a real hub with the lamp test app (code written against the
// SDK, in its own process) and one of its lamps, an in-process virtual light (the baseline for capability
// writes), and the crashing test app ready to loop. Answers the parent's commands over IPC.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pidusage from 'pidusage';
import { deviceSnapshot } from '../../packages/hub/src/managers/apps/process/snapshot';
import type { AppManifest } from '../../packages/hub/src/runtime/manifest';
import { ensureRunner } from '../../packages/sdk/src/runner/build';
import { startBenchHub } from './bench-hub';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', '..', 'packages', 'hub', 'src', 'managers', 'apps', 'process', 'fixtures');
const runner = await ensureRunner();
const { hub } = await startBenchHub('be0c5000000000000000de0c');
const runtime = hub.services;
const { apps, devices, processes } = runtime;
const install = (id: string) => {
  const dir = join(fixtures, id);
  const manifest = JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as AppManifest;
  manifest.drivers = (manifest.drivers ?? []).map((d) => ({ ...d, connectivity: d.connectivity ?? [] }));
  apps.install({ dir, manifest, builtin: false }, 'devkit_install', 'alpha');
};
const running = async (id: string) => {
  for (let i = 0; i < 500 && !apps.isRunning(id); i++) await new Promise((r) => setTimeout(r, 10));
  if (!apps.isRunning(id)) throw new Error(`${id} did not start`);
};
install('com.test.lamp');
await running('com.test.lamp');
const lamp = devices.create(apps.findDriver('homey:app:com.test.lamp:lamp')!, { name: 'Bench lamp', data: { id: 'bench' } });
await processes.host.call('com.test.lamp', 'device.added', { device: deviceSnapshot(devices, lamp) });
for (let i = 0; i < 200 && !apps.isRunning('com.hearth.virtual'); i++) await new Promise((r) => setTimeout(r, 10));
// The baseline: an in-process virtual light whose dim is written as the lamp's is (same capability, same
// values, a light class both), so the two differ only in where the write is carried out.
const light = devices.create(apps.findDriver('homey:app:com.hearth.virtual:zigbee')!, {
  name: 'Bench light',
  data: { id: 'bench-light' },
});
processes.envOverrides.set('com.test.behave', { MODE: 'crash' });
install('com.test.behave');
await processes.host.stop('com.test.behave');

/** Spawn → onInit resolved for the lamp app, `rounds` times; and the same for an empty Node child's first IPC message. */
async function starts(rounds: number) {
  const app: number[] = [];
  const empty: number[] = [];
  const emptyScript = join(here, 'empty-child.cjs');
  for (let i = 0; i < rounds; i++) {
    await processes.host.stop('com.test.lamp');
    const start = performance.now();
    const status = await processes.host.start('com.test.lamp');
    app.push(performance.now() - start);
    if (status.state !== 'running') throw new Error(`lamp app did not start: ${status.crashedMessage}`);
    const t0 = performance.now();
    const child = fork(emptyScript, [], { execArgv: [], env: {}, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    await new Promise((resolve) => child.once('message', resolve));
    empty.push(performance.now() - t0);
    child.kill();
  }
  return { app, empty };
}

/** Resident memory of the idle lamp app's process against an idle empty Node child with an IPC channel. */
async function memory() {
  await new Promise((r) => setTimeout(r, 1_000));
  const appRss = (await processes.host.usage('com.test.lamp')).mem;
  const child = fork(join(here, 'empty-child.cjs'), [], { execArgv: [], env: {}, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  await new Promise((r) => setTimeout(r, 1_000));
  const emptyRss = (await pidusage(child.pid as number)).memory;
  child.kill();
  return { appRss, emptyRss };
}

let looping = false;
let crashes = 0;
/**
 * Keeps the crashing app crashing. `backoff`: as the hub restarts it (1 s, doubling); otherwise restarted the
 * moment it crashed, with no back-off at all (the worst case).
 */
async function crashLoop(backoff: boolean) {
  looping = true;
  const before = processes.host.status('com.test.behave').exitCount;
  await processes.host.start('com.test.behave');
  while (looping) {
    await new Promise((r) => setTimeout(r, 5));
    const status = processes.host.status('com.test.behave');
    crashes = status.exitCount - before;
    if (!backoff && status.state === 'stopped') await processes.host.start('com.test.behave');
  }
}

process.on('message', async (message: { command: string; rounds?: number }) => {
  if (message.command === 'starts') process.send?.(await starts(message.rounds ?? 20));
  else if (message.command === 'memory') process.send?.(await memory());
  else if (message.command === 'crash-loop-start') {
    crashes = 0;
    void crashLoop((message as { backoff?: boolean }).backoff === true);
    process.send?.({ started: true });
  } else if (message.command === 'crash-loop-stop') {
    looping = false;
    await processes.host.stop('com.test.behave');
    process.send?.({ crashes });
  }
});

process.send?.({
  hubUrl: hub.url,
  token: hub.issueOwnerToken(),
  hubId: hub.context.config.id,
  lampId: lamp.id,
  lightId: light.id,
  runner,
});
