import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';
import { startZwaveMockNetwork, type ZwaveMockNetwork } from '../../testing/zwave-mock';
import { ZWAVE_DRIVER_ID } from './devices';

/** Ids no installed app claims: the generic driver takes the node. */
const UNCLAIMED = { manufacturerId: 0x7e58, productTypeId: 0x0001, productId: 0x0003 };
/** What stopping a hub may take with a write waiting for a sleeping node; zwave-js's own wait was 60 s. */
const STOP_WITHIN_MS = 10_000;

/** A hub stopping while a capability write waits in zwave-js's queue for a node that sleeps. */
describe('stopping a hub with a write to a sleeping Z-Wave node pending', () => {
  let network: ZwaveMockNetwork;
  let t: TestHub;
  let stopped = false;
  beforeAll(async () => {
    network = await startZwaveMockNetwork({ nodes: false });
    t = await startTestHub({ zwavePort: network.port });
    await untilAppRunning(t);
    await until(
      () => t.call<{ controller: { ready: boolean } }>('GET', '/zwave/state'),
      (s) => s.body.controller.ready,
      20_000,
    );
  }, 60_000);
  afterAll(async () => {
    // The test stops the hub itself; one it did not reach stops here.
    if (!stopped) await t?.stop();
    await network?.stop();
  });

  it('stops within seconds, and the waiting write is answered with an error', async () => {
    const { nodeId } = await network.ask<{ nodeId: number }>('include', { security: 'none', sleeping: true, ...UNCLAIMED });
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    const added = await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/emit`, {
      event: 'zwave_include',
    });
    expect(added.status).toBe(200);
    await until(
      async () => (await t.call<{ nodes: { nodeId: number; status: string }[] }>('GET', '/zwave/state')).body.nodes,
      (nodes) => nodes.find((n) => n.nodeId === nodeId)?.status === 'asleep',
      10_000,
    );
    const writing = t.call('PUT', `/devices/device/${added.body.id}/capability/onoff`, { value: true });
    await new Promise((done) => setTimeout(done, 500));
    const started = Date.now();
    await t.stop();
    stopped = true;
    const took = Date.now() - started;
    expect(took).toBeLessThan(STOP_WITHIN_MS);
    const answer = await writing.catch((error: unknown) => ({ status: 0, error }));
    expect(answer.status).not.toBe(204);
  }, 90_000);
});
