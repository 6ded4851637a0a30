import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';

const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
type Capabilities = Record<string, { title: string; units?: string }>;
const ecosystem = createRequire(import.meta.url)('homey-lib').getCapabilities() as Record<
  string,
  { title: Record<string, string>; units?: Record<string, string> }
>;

describe('capability titles in the hub’s language', () => {
  let t: TestHub;
  let light: string;
  beforeAll(async () => {
    t = await startTestHub({ language: 'nl' });
    await untilAppRunning(t);
    light = await pairDevice(t, LIGHT);
  });
  afterAll(() => t.stop());

  it("shows a device's capabilities with the ecosystem's Dutch titles and units, and a device's own title over them", async () => {
    const device = await t.call<{ capabilitiesObj: Capabilities; insights: { id: string; title: string }[] }>(
      'GET',
      `/devices/device/${light}`,
    );
    expect(device.body.capabilitiesObj.onoff?.title).toBe(ecosystem.onoff?.title.nl);
    expect(device.body.capabilitiesObj.dim?.title).toBe(ecosystem.dim?.title.nl);
    expect(ecosystem.dim?.title.nl).not.toBe(ecosystem.dim?.title.en);
    expect(device.body.insights.find((log) => log.id === 'dim')?.title).toBe(ecosystem.dim?.title.nl);
    await t.hub.services.devices.updateFromApp(light, { capabilitiesOptions: { dim: { title: 'Helderheid' } } });
    const renamed = await t.call<{ capabilitiesObj: Capabilities }>('GET', `/devices/device/${light}`);
    expect(renamed.body.capabilitiesObj.dim?.title).toBe('Helderheid');
  });
});
