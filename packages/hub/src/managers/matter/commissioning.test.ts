import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { emitMatterCode } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';
import { startVirtualPlug, type VirtualDeviceProcess } from './virtual-devices/process';

type Json = Record<string, unknown>;
type Device = Json & { id: string; capabilitiesObj: Record<string, { value: unknown }> };

/**
 * The hub's matter.js controller against a matter.js plug in its own process: commissioning with the plug's
 * pairing code through a pair session (discovered by DNS-SD on this machine's network), then control both ways,
 * read back from the plug's own output.
 * Both directions are checked right after commissioning (no restart in between) and again after a restart.
 */
describe('A Matter plug commissioned onto the hub’s own fabric', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-matter-'));
  const hubId = randomBytes(12).toString('hex');
  const dataDir = join(scratch, 'hub');
  let plug: VirtualDeviceProcess;
  let t: TestHub;
  let deviceId: string;

  const device = async () => (await t.call<Device>('GET', `/devices/device/${deviceId}`)).body;

  beforeAll(async () => {
    [plug, t] = await Promise.all([startVirtualPlug(join(scratch, 'plug')), startTestHub({ id: hubId, dataDir })]);
    await untilAppRunning(t);
  });
  afterAll(async () => {
    await t?.stop();
    await plug?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('commissions the plug with its pairing code and makes its On/Off endpoint a device', async () => {
    const { session, found } = await emitMatterCode(t, plug.manualPairingCode);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ data: { matter: { endpoint: 1 } }, store: { deviceType: 0x010a, vendorId: 0xfff1 } });
    const added = await t.call<{ id: string; capabilities: string[] }>(
      'POST',
      `/drivers/pairsession/${session}/device`,
      found.body[0],
    );
    expect(added.status).toBe(200);
    deviceId = added.body.id;
    expect(added.body.capabilities).toEqual(['onoff']);
    const nodes = (await t.call<Json[]>('GET', '/matter/nodes')).body;
    expect(nodes).toContainEqual(
      expect.objectContaining({ deviceId, vendorId: 0xfff1, productName: 'Virtual plug', reachable: true }),
    );
  });

  it('turns the plug on over HTTP: the plug itself reports the new state', async () => {
    const reported = plug.next((line) => line.event === 'onoff' && line.value === true);
    const write = await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(write.status).toBe(204);
    await expect(reported).resolves.toEqual({ event: 'onoff', value: true });
    expect((await device()).capabilitiesObj.onoff?.value).toBe(true);
  });

  it('takes a change made at the plug into the capability right after commissioning', async () => {
    const changed = plug.next((line) => line.event === 'onoff' && line.value === false);
    plug.press('off');
    await expect(changed).resolves.toEqual({ event: 'onoff', value: false });
    const after = await until(device, (d) => d.capabilitiesObj.onoff?.value === false, 5_000);
    expect(after.capabilitiesObj.onoff?.value).toBe(false);
  });

  it('refuses something that is not a pairing code with a 400, commissioning nothing', async () => {
    const { found: wrong } = await emitMatterCode(t, '1234');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain('pairing code');
    expect((await t.call<Json[]>('GET', '/matter/nodes')).body).toHaveLength(1);
  });

  it('still controls the plug after the hub restarts, from the fabric in its data directory', async () => {
    await t.hub.stop();
    t = await startTestHub({ id: hubId, dataDir });
    await untilAppRunning(t);
    const reported = plug.next((line) => line.event === 'onoff' && line.value === true, 20_000);
    const write = await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(write.status).toBe(204);
    await expect(reported).resolves.toEqual({ event: 'onoff', value: true });
  });
  it('takes a change made at the plug into the capability after the restart', async () => {
    const changed = plug.next((line) => line.event === 'onoff' && line.value === false);
    plug.press('off');
    await expect(changed).resolves.toEqual({ event: 'onoff', value: false });
    const after = await until(device, (d) => d.capabilitiesObj.onoff?.value === false, 5_000);
    expect(after.capabilitiesObj.onoff?.value).toBe(false);
  });
});
