import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { commissionMatter } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';
import { startVirtualDevice, type VirtualDeviceKind, type VirtualDeviceProcess } from './virtual-devices/process';

type Json = Record<string, unknown>;
type Device = Json & {
  id: string;
  class: string;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown }>;
};

/**
 * Each kind of virtual Matter device, in its own process, commissioned through the hub's pair session: the one
 * Matter driver gives each the capabilities of the clusters it carries, values flow both ways right after
 * commissioning.
 */
describe('Matter device types on the hub’s own fabric', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-matter-types-'));
  const devices: Partial<Record<VirtualDeviceKind, VirtualDeviceProcess>> = {};
  const ids: Partial<Record<VirtualDeviceKind, string>> = {};
  let t: TestHub;

  const device = async (kind: VirtualDeviceKind) => (await t.call<Device>('GET', `/devices/device/${ids[kind]}`)).body;
  const commission = async (kind: VirtualDeviceKind) => {
    const added = (await commissionMatter(t, devices[kind]!.manualPairingCode)) as Device;
    ids[kind] = added.id;
    return added;
  };

  beforeAll(async () => {
    const kinds: VirtualDeviceKind[] = ['dimmable-light', 'contact-sensor', 'temperature-sensor'];
    const started = await Promise.all([
      startTestHub({ id: randomBytes(12).toString('hex'), dataDir: join(scratch, 'hub') }),
      ...kinds.map((kind) => startVirtualDevice(kind, join(scratch, kind))),
    ]);
    t = started[0] as TestHub;
    kinds.forEach((kind, i) => {
      devices[kind] = started[i + 1] as VirtualDeviceProcess;
    });
    await untilAppRunning(t);
    // Four processes start at once; on a loaded machine that takes longer than the default hook timeout.
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
    await Promise.all(Object.values(devices).map((d) => d.stop()));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('makes a dimmable light with onoff and dim, and dims it both ways', async () => {
    const light = devices['dimmable-light']!;
    const added = await commission('dimmable-light');
    expect(added.class).toBe('light');
    expect(added.capabilities).toEqual(['onoff', 'dim']);

    // Hub → device: dim 0.5 is level 1 + 0.5 × 253 = 128 (rounded), read from the light's own output.
    const level = light.next((line) => line.event === 'level' && line.value === 128);
    const write = await t.call('PUT', `/devices/device/${ids['dimmable-light']}/capability/dim`, { value: 0.5 });
    expect(write.status).toBe(204);
    await expect(level).resolves.toEqual({ event: 'level', value: 128 });

    // Device → hub: level 1 is the lowest, dim 0.
    light.send('level 1');
    const dimmed = await until(
      () => device('dimmable-light'),
      (d) => d.capabilitiesObj.dim?.value === 0,
      5_000,
    );
    expect(dimmed.capabilitiesObj.dim?.value).toBe(0);
  });

  it('makes a contact sensor whose alarm follows the sensor opening and closing', async () => {
    const sensor = devices['contact-sensor']!;
    const added = await commission('contact-sensor');
    expect(added.class).toBe('sensor');
    expect(added.capabilities).toEqual(['alarm_contact']);
    sensor.send('contact open');
    const open = await until(
      () => device('contact-sensor'),
      (d) => d.capabilitiesObj.alarm_contact?.value === true,
      5_000,
    );
    expect(open.capabilitiesObj.alarm_contact?.value).toBe(true);
    sensor.send('contact closed');
    const closed = await until(
      () => device('contact-sensor'),
      (d) => d.capabilitiesObj.alarm_contact?.value === false,
      5_000,
    );
    expect(closed.capabilitiesObj.alarm_contact?.value).toBe(false);
  });

  it('makes a temperature sensor reporting °C from its 0.01 °C measurements', async () => {
    const sensor = devices['temperature-sensor']!;
    const added = await commission('temperature-sensor');
    expect(added.capabilities).toEqual(['measure_temperature']);
    sensor.send('temperature 2150');
    const measured = await until(
      () => device('temperature-sensor'),
      (d) => d.capabilitiesObj.measure_temperature?.value === 21.5,
      5_000,
    );
    expect(measured.capabilitiesObj.measure_temperature?.value).toBe(21.5);
  });

  it('refuses a capability write the device type has no command for with a 400', async () => {
    const write = await t.call<Json>('PUT', `/devices/device/${ids['temperature-sensor']}/capability/measure_temperature`, {
      value: 30,
    });
    expect(write.status).toBeGreaterThanOrEqual(400);
    expect(write.status).toBeLessThan(500);
  });
});
