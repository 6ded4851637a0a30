import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plugAndHub } from '../../testing/matter';
import { UNREACHABLE_MESSAGE } from './fabric';
import { startVirtualPlug } from './virtual-devices/process';

type Device = { id: string; available: boolean; unavailableMessage: string | null };

/**
 * Reachability follows the node's reports: the plug's process stops, its reports stop and the device becomes
 * unavailable with the reason; the process comes back on its port with its fabric, reports resume and the device
 * is available again. Waits on the hub's `device.updated` events, not on time.
 */
describe('A Matter node that leaves the network and comes back', () => {
  // Nodes are asked to report every second (matter.js makes it up to 11 s): one silent for 16 s is unreachable.
  const rig = plugAndHub('reach', { hub: { matterSubscriptionCeilingMs: 1_000 }, commission: true });

  const device = async () => (await rig.hub.call<Device>('GET', `/devices/device/${rig.deviceId}`)).body;
  /** Resolves with the device once a `device.updated` event leaves it in the state `ok` accepts. */
  const untilDevice = (ok: (d: Device) => boolean) =>
    new Promise<Device>((resolve) => {
      const off = rig.hub.hub.context.bus.on('device.updated', 'reachability-test', async (event) => {
        if (event.deviceId !== rig.deviceId) return;
        const current = await device();
        if (!ok(current)) return;
        off();
        resolve(current);
      });
    });

  it('makes the device unavailable with the reason while its process is gone, and available when it is back', async () => {
    expect(await device()).toMatchObject({ available: true, unavailableMessage: null });
    const lost = untilDevice((d) => !d.available);
    await rig.plug.stop();
    expect(await lost).toMatchObject({ available: false, unavailableMessage: UNREACHABLE_MESSAGE });
    expect((await rig.hub.call<{ reachable: boolean }[]>('GET', '/matter/nodes')).body[0]?.reachable).toBe(false);

    const back = untilDevice((d) => d.available);
    rig.plug = await startVirtualPlug(join(rig.scratch, 'plug'), { port: rig.plug.port });
    expect(await back).toMatchObject({ available: true, unavailableMessage: null });
    // Control works again: the plug itself reports the write.
    const on = rig.plug.next((line) => line.event === 'onoff' && line.value === true);
    expect((await rig.hub.call('PUT', `/devices/device/${rig.deviceId}/capability/onoff`, { value: true })).status).toBe(204);
    await on;
  }, 45_000);
});
