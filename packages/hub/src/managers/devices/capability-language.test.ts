import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityCatalogue } from '../../runtime/capabilities';
import { systemCapabilities } from '../../runtime/catalogue';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';

const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
type Capabilities = Record<string, { title: string; units?: string }>;
const dutch = (id: string) => systemCapabilities[id]?.titles.nl;

describe('capability titles in the hub’s language', () => {
  let t: TestHub;
  let light: string;
  beforeAll(async () => {
    t = await startTestHub({ language: 'nl' });
    await untilAppRunning(t);
    light = await pairDevice(t, LIGHT);
  });
  afterAll(() => t.stop());

  it("shows a device's capabilities with the catalogue's Dutch titles and units, and a device's own title over them", async () => {
    const device = await t.call<{ capabilitiesObj: Capabilities; insights: { id: string; title: string }[] }>(
      'GET',
      `/devices/device/${light}`,
    );
    expect(device.body.capabilitiesObj.onoff?.title).toBe(dutch('onoff'));
    expect(device.body.capabilitiesObj.dim?.title).toBe(dutch('dim'));
    expect(dutch('dim')).toBe('Helderheid');
    expect(dutch('dim')).not.toBe(capabilityCatalogue.get('dim')?.title);
    expect(device.body.insights.find((log) => log.id === 'dim')?.title).toBe(dutch('dim'));
    await t.hub.services.devices.updateFromApp(light, { capabilitiesOptions: { dim: { title: 'Lampsterkte' } } });
    const renamed = await t.call<{ capabilitiesObj: Capabilities }>('GET', `/devices/device/${light}`);
    expect(renamed.body.capabilitiesObj.dim?.title).toBe('Lampsterkte');
  });
});
