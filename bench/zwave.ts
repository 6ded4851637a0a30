// Issue 32 benchmark: a capability write to a Z-Wave plug, until the node confirmed it. BENCH_WRITES times, one after
// another, `PUT …/capability/onoff` of the generic driver's device for node 2 (the wall plug) of zwave-js's mock
// network; the hub answers once the node's Binary Switch report came back. The baseline, in the same run: a bare
// zwave-js Driver on a second, identical mock network doing the same round trip itself (setValue of targetValue,
// then pollValue of currentValue, as the hub's driver does). Each network runs in its own process, as in the tests
// (the mock serves one host at a time). Printed: p50/p99 of each, throughput and the ratios hub / bare.
// Run: npx tsx bench/zwave.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Driver } from 'zwave-js';
import { ZWAVE_DRIVER_ID } from '../packages/hub/src/managers/zwave/devices';
import { startZwaveMockNetwork } from '../packages/hub/src/testing/zwave-mock';
import { startBenchHub } from './lib/bench-hub';
import { compareWrites, onoffWrites } from './lib/capability-writes';

const writes = Number(process.env.BENCH_WRITES ?? 300);
const PLUG = 2;
const BINARY_SWITCH = 0x25;
const [hubNetwork, bareNetwork] = await Promise.all([startZwaveMockNetwork(), startZwaveMockNetwork()]);

const { hub } = await startBenchHub('be0c40000000000000002a77', { zwavePort: hubNetwork.port });
const headers = {
  authorization: `Bearer ${hub.issueOwnerToken()}`,
  'x-homey-id': hub.context.config.id,
  'content-type': 'application/json',
};
const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const answer = await fetch(`${hub.url}/api/manager${path}`, { method, headers, body: JSON.stringify(body ?? {}) });
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
};

// The hub interviews the mock's nodes, then the plug becomes the generic driver's device.
let plugId: string | undefined;
for (let tries = 0; !plugId && tries < 600; tries++) {
  const state = await fetch(`${hub.url}/api/manager/zwave/state`, { headers }).then(
    (r) => r.json() as Promise<{ nodes?: { nodeId: number; ready: boolean }[] }>,
  );
  if (state.nodes?.find((n) => n.nodeId === PLUG)?.ready) {
    const session = await api<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    const found = await api<{ data: { zwave: { nodeId: number } } }[]>('POST', `/drivers/pairsession/${session.id}/emit`, {
      event: 'list_devices',
    });
    const plug = found.find((c) => c.data.zwave.nodeId === PLUG);
    if (plug) plugId = (await api<{ id: string }>('POST', `/drivers/pairsession/${session.id}/device`, plug)).id;
  }
  if (!plugId) await new Promise((resolve) => setTimeout(resolve, 100));
}
if (!plugId) throw new Error('the hub made no device of the mock plug');

// The baseline: zwave-js alone on its own copy of the network.
const cacheDir = mkdtempSync(join(tmpdir(), 'hearth-bench-zwave-'));
process.once('exit', () => rmSync(cacheDir, { recursive: true, force: true }));
const driver = new Driver(bareNetwork.port, { storage: { cacheDir, lockDir: cacheDir }, logConfig: { enabled: false } });
await new Promise<void>((resolve, reject) => {
  driver.once('driver ready', () => resolve());
  driver.once('error', reject);
  void driver.start();
});
const node = driver.controller.nodes.get(PLUG)!;
if (!node.ready) await new Promise<void>((resolve) => node.once('ready', () => resolve()));

/** Latencies (ms, sorted) of `count` writes through the hub, each answered once the device confirmed it. */
const hubWrites = (count: number) => onoffWrites(hub.url, headers, plugId!, count);

/** The same round trip by zwave-js alone: set the switch, then read its state back from the node. */
async function bareWrites(count: number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const { status } = await node.setValue({ commandClass: BINARY_SWITCH, endpoint: 0, property: 'targetValue' }, i % 2 === 0);
    if (![1, 254, 255].includes(status)) throw new Error(`bare write ${i} answered status ${status}`);
    await node.pollValue({ commandClass: BINARY_SWITCH, endpoint: 0, property: 'currentValue' });
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}

console.log(
  `Z-Wave capability write until the node confirmed it (${writes} writes, one at a time; zwave-js mock network over TCP)`,
);
await compareWrites(
  writes,
  { label: 'bare zwave-js: setValue, pollValue', writes: bareWrites },
  { label: 'hub: PUT capability, answered when confirmed', writes: hubWrites },
  'zwave-js',
);

await driver.destroy();
await hub.stop();
await Promise.all([hubNetwork.stop(), bareNetwork.stop()]);
process.exit(0);
