import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { commissionMatter } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { UNREACHABLE_MESSAGE } from './fabric';
import { startVirtualPlug, type VirtualDeviceProcess } from './virtual-devices/process';

type Device = { id: string; available: boolean; unavailableMessage: string | null };

/**
 * Reachability follows the node's reports: the plug's process stops, its reports stop and the device becomes
 * unavailable with the reason; the process comes back on its port with its fabric, reports resume and the device
 * is available again. Waits on the hub's `device.updated` events, not on time.
 */
describe('A Matter node that leaves the network and comes back', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-matter-reach-'));
  let plug: VirtualDeviceProcess;
  let t: TestHub;
  let deviceId: string;

  const device = async () => (await t.call<Device>('GET', `/devices/device/${deviceId}`)).body;
  /** Resolves with the device once a `device.updated` event leaves it in the state `ok` accepts. */
  const untilDevice = (ok: (d: Device) => boolean) =>
    new Promise<Device>((resolve) => {
      const off = t.hub.context.bus.on('device.updated', 'reachability-test', async (event) => {
        if (event.deviceId !== deviceId) return;
        const current = await device();
        if (!ok(current)) return;
        off();
        resolve(current);
      });
    });

  beforeAll(async () => {
    [plug, t] = await Promise.all([
      startVirtualPlug(join(scratch, 'plug')),
      // Nodes are asked to report every second (matter.js makes it up to 11 s): one silent for 16 s is unreachable.
      startTestHub({ id: randomBytes(12).toString('hex'), dataDir: join(scratch, 'hub'), matterSubscriptionCeilingMs: 1_000 }),
    ]);
    await untilAppRunning(t);
    deviceId = (await commissionMatter(t, plug.manualPairingCode)).id;
  });
  afterAll(async () => {
    await t?.stop();
    await plug?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('makes the device unavailable with the reason while its process is gone, and available when it is back', async () => {
    expect(await device()).toMatchObject({ available: true, unavailableMessage: null });
    const lost = untilDevice((d) => !d.available);
    await plug.stop();
    expect(await lost).toMatchObject({ available: false, unavailableMessage: UNREACHABLE_MESSAGE });
    expect((await t.call<{ reachable: boolean }[]>('GET', '/matter/nodes')).body[0]?.reachable).toBe(false);

    const back = untilDevice((d) => d.available);
    plug = await startVirtualPlug(join(scratch, 'plug'), { port: plug.port });
    expect(await back).toMatchObject({ available: true, unavailableMessage: null });
    // Control works again: the plug itself reports the write.
    const on = plug.next((line) => line.event === 'onoff' && line.value === true);
    expect((await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true })).status).toBe(204);
    await on;
  }, 45_000);
});
