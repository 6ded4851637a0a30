// Issue 31 benchmark: a capability write to a Matter plug, until the node acknowledged it. BENCH_WRITES times, one
// after another, `PUT …/capability/onoff` of the hub's Matter device for a virtual plug (matter.js's device side,
// in its own process); the hub answers once the node acknowledged the On/Off command. The baseline, in the same
// run: a bare matter.js controller (a ServerNode of its own, nothing of Hearth's) that commissioned a second,
// identical plug and sends it the same command itself, waiting for the same acknowledgement. Printed: p50/p99 of
// each, throughput and the ratios hub / bare.
// Run: npx tsx bench/matter.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Environment, Logger, ServerNode } from '@matter/main';
import { OnOffClient } from '@matter/main/behaviors/on-off';
import { MATTER_DRIVER_ID } from '../packages/hub/src/managers/matter/fabric';
import { startVirtualPlug } from '../packages/hub/src/managers/matter/virtual-devices/process';
import { startBenchHub } from './lib/bench-hub';
import { compareWrites, onoffWrites } from './lib/capability-writes';

const writes = Number(process.env.BENCH_WRITES ?? 300);
const scratch = mkdtempSync(join(tmpdir(), 'hearth-bench-matter-'));
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));

const [hubPlug, barePlug, { hub }] = await Promise.all([
  startVirtualPlug(join(scratch, 'hub-plug')),
  startVirtualPlug(join(scratch, 'bare-plug')),
  startBenchHub('be0c40000000000000003a71'),
]);
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

// The hub commissions its plug through its pair session, as a person adding it does.
const session = await api<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: MATTER_DRIVER_ID });
const found = await api<unknown[]>('POST', `/drivers/pairsession/${session.id}/emit`, {
  event: 'matter_code',
  data: { code: hubPlug.manualPairingCode },
});
const plugId = (await api<{ id: string }>('POST', `/drivers/pairsession/${session.id}/device`, found[0])).id;

// The baseline: matter.js alone, its own controller node and fabric.
Logger.level = 'error';
const environment = new Environment('bench-bare-controller', Environment.default);
environment.vars.set('path.root', join(scratch, 'bare-controller'));
const controller = await ServerNode.create({
  id: 'bare-controller',
  environment,
  network: { port: 0 },
  commissioning: { enabled: false },
} as Parameters<typeof ServerNode.create>[0]);
await controller.start();
const peer = await controller.peers.commission({ pairingCode: barePlug.manualPairingCode, timeout: 60_000 } as Parameters<
  ServerNode['peers']['commission']
>[0]);
if (!peer.lifecycle.isOnline) await peer.start();
const endpoint = peer.parts.get(1);
if (!endpoint) throw new Error('the bare controller found no endpoint 1 on its plug');
const onOff = endpoint.commandsOf(OnOffClient);

/** Latencies (ms, sorted) of `count` writes through the hub, each answered once the node acknowledged it. */
const hubWrites = (count: number) => onoffWrites(hub.url, headers, plugId, count);

/** The same command by matter.js alone: On or Off, resolved when the node acknowledged it. */
async function bareWrites(count: number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await (i % 2 === 0 ? onOff.on() : onOff.off());
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}

console.log(`Matter capability write until the node acknowledged it (${writes} writes, one at a time; matter.js plugs over UDP)`);
await compareWrites(
  writes,
  { label: 'bare matter.js: On/Off command', writes: bareWrites },
  { label: 'hub: PUT capability, answered when acknowledged', writes: hubWrites },
  'matter.js',
);

await controller.close();
await hub.stop();
await Promise.all([hubPlug.stop(), barePlug.stop()]);
process.exit(0);
