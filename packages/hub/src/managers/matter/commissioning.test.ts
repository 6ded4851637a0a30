import { describe, expect, it } from 'vitest';
import { startTestHub } from '../../testing/hub';
import { emitMatterCode, plugAndHub } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
type Device = Json & { id: string; capabilitiesObj: Record<string, { value: unknown }> };

/**
 * The hub's matter.js controller against a matter.js plug in its own process: commissioning with the plug's
 * pairing code through a pair session (discovered by DNS-SD on this machine's network), then control both ways,
 * read back from the plug's own output.
 * Both directions are checked right after commissioning (no restart in between) and again after a restart.
 */
describe('A Matter plug commissioned onto the hub’s own fabric', () => {
  const rig = plugAndHub('commissioning');
  let deviceId: string;

  const device = async () => (await rig.hub.call<Device>('GET', `/devices/device/${deviceId}`)).body;

  it('commissions the plug with its pairing code and makes its On/Off endpoint a device', async () => {
    const { session, found } = await emitMatterCode(rig.hub, rig.plug.manualPairingCode);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ data: { matter: { endpoint: 1 } }, store: { deviceType: 0x010a, vendorId: 0xfff1 } });
    const added = await rig.hub.call<{ id: string; capabilities: string[] }>(
      'POST',
      `/drivers/pairsession/${session}/device`,
      found.body[0],
    );
    expect(added.status).toBe(200);
    deviceId = added.body.id;
    expect(added.body.capabilities).toEqual(['onoff']);
    const nodes = (await rig.hub.call<Json[]>('GET', '/matter/nodes')).body;
    expect(nodes).toContainEqual(
      expect.objectContaining({ deviceId, vendorId: 0xfff1, productName: 'Virtual plug', reachable: true }),
    );
  });

  it('turns the plug on over HTTP: the plug itself reports the new state', async () => {
    const reported = rig.plug.next((line) => line.event === 'onoff' && line.value === true);
    const write = await rig.hub.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(write.status).toBe(204);
    await expect(reported).resolves.toMatchObject({ event: 'onoff', value: true });
    expect((await device()).capabilitiesObj.onoff?.value).toBe(true);
  });

  it('takes a change made at the plug into the capability right after commissioning', async () => {
    const changed = rig.plug.next((line) => line.event === 'onoff' && line.value === false);
    rig.plug.press('off');
    await expect(changed).resolves.toMatchObject({ event: 'onoff', value: false });
    const after = await until(device, (d) => d.capabilitiesObj.onoff?.value === false, 5_000);
    expect(after.capabilitiesObj.onoff?.value).toBe(false);
  });

  it('refuses something that is not a pairing code with a 400, commissioning nothing', async () => {
    const { found: wrong } = await emitMatterCode(rig.hub, '1234');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain('pairing code');
    expect((await rig.hub.call<Json[]>('GET', '/matter/nodes')).body).toHaveLength(1);
  });

  it('still controls the plug after the hub restarts, from the fabric in its data directory', async () => {
    await rig.hub.hub.stop();
    rig.hub = await startTestHub({ id: rig.hub.hub.context.config.id, dataDir: rig.hub.dataDir });
    await untilAppRunning(rig.hub);
    const reported = rig.plug.next((line) => line.event === 'onoff' && line.value === true, 20_000);
    const write = await rig.hub.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(write.status).toBe(204);
    await expect(reported).resolves.toMatchObject({ event: 'onoff', value: true });
  });
  it('takes a change made at the plug into the capability after the restart', async () => {
    const changed = rig.plug.next((line) => line.event === 'onoff' && line.value === false);
    rig.plug.press('off');
    await expect(changed).resolves.toMatchObject({ event: 'onoff', value: false });
    const after = await until(device, (d) => d.capabilitiesObj.onoff?.value === false, 5_000);
    expect(after.capabilitiesObj.onoff?.value).toBe(false);
  });
});
