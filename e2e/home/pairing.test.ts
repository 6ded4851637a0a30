import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MATTER_DRIVER_ID } from '../../packages/hub/src/managers/matter/fabric';
import { startVirtualPlug } from '../../packages/hub/src/managers/matter/virtual-devices/process';
import { runOverDevkit } from '../../packages/hub/src/testing/devkit';
import type { TestHub } from '../../packages/hub/src/testing/hub';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, signedInHomeApp } from './setup';

const CHIME_APP = 'com.hearth.chime';
const CHIME_DRIVER = `homey:app:${CHIME_APP}:chime`;
/** A test app whose lamp driver asks to log in with its own pair view before it lists its lamps. */
const LAMP_APP = 'com.test.lamp';
const LAMP_FIXTURE = join(import.meta.dirname, '../../packages/hub/src/managers/apps/process/fixtures', LAMP_APP);

/** Adding a device from the household web app: a demo app's driver and its real pair session, in Chromium. */
describe.skipIf(!chromiumPath)('household web app: add a device', () => {
  const app = signedInHomeApp();

  it('pairs a device of a demo app through its list_devices view, into the chosen zone', async () => {
    const { api, page } = app();
    // The chime app runs as its own process; its driver answers list_devices from the chimes it finds.
    await expect
      .poll(async () => ((await api.apps.getApp({ id: CHIME_APP })) as { state: string }).state, { timeout: 30_000 })
      .toBe('running');
    const driver = (await api.drivers.getDriver({ id: CHIME_DRIVER })) as unknown as { name: string; ownerName: string };
    const zones = Object.values(await api.zones.getZones()) as { id: string; name: string }[];
    const hallway = zones.find((zone) => zone.name === 'Hallway') as { id: string };

    await page.getByRole('link', { name: 'Add a device' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a device' }).waitFor();
    await expectPhoneFirst(page, 'add-device');
    await page.getByLabel('Put new devices in').selectOption({ label: 'Hallway' });
    await page.getByRole('button', { name: `Add a ${driver.name} (${driver.ownerName})` }).click();

    // The driver lists the chimes not paired yet; the demo's paired chime has another id, so both are offered.
    await page.getByRole('heading', { level: 1, name: `Add a ${driver.name}` }).waitFor();
    const back = page.getByRole('checkbox', { name: 'Back door chime' });
    await back.waitFor();
    await expect(page.getByRole('checkbox').count()).resolves.toBe(2);
    // A session is open on the hub while the views run.
    await expect.poll(async () => ((await api.drivers.getPairSessions()) as unknown[]).length).toBe(1);
    await expect(page.getByRole('button', { name: 'Add chosen devices' }).isDisabled()).resolves.toBe(true);
    await back.check();
    await expectPhoneFirst(page, 'pair-list-devices');
    await page.getByRole('button', { name: 'Add chosen devices' }).click();

    await page.getByRole('heading', { level: 2, name: '1 device added' }).waitFor();
    await expectPhoneFirst(page, 'pair-done');
    const devices = Object.values(await api.devices.getDevices()) as {
      id: string;
      name: string;
      zone: string;
      driverId: string;
    }[];
    const added = devices.find((device) => device.name === 'Back door chime');
    expect(added).toMatchObject({ zone: hallway.id, driverId: CHIME_DRIVER });

    // The new device opens from the summary; leaving the views closes the session on the hub.
    await page.getByRole('link', { name: 'Back door chime' }).click();
    await page.getByRole('heading', { level: 1, name: 'Back door chime' }).waitFor();
    await expect.poll(async () => ((await api.drivers.getPairSessions()) as unknown[]).length).toBe(0);
  });

  it('offers only what is not paired yet, says so when nothing is left, and follows the driver ending the session', async () => {
    const { page } = app();
    await page.goto(`${app().hub.url}/add-device`);
    const driver = (await app().api.drivers.getDriver({ id: CHIME_DRIVER })) as unknown as { name: string; ownerName: string };
    await page.getByRole('button', { name: `Add a ${driver.name} (${driver.ownerName})` }).click();
    // One chime is left (the front one, which the demo paired under another id): ticked for you.
    const front = page.getByRole('checkbox', { name: 'Front door chime' });
    await front.waitFor();
    await expect(page.getByRole('checkbox').count()).resolves.toBe(1);
    await expect(front.isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Add chosen devices' }).click();
    await page.getByRole('heading', { level: 2, name: '1 device added' }).waitFor();
    await page.getByRole('button', { name: 'Add another device' }).click();
    await page.getByRole('button', { name: `Add a ${driver.name} (${driver.ownerName})` }).click();
    await page.getByRole('status').getByText('No new devices were found').waitFor();
    // The driver ends the session itself (Homey's session.done()): the command reaches the page over the socket.
    const [session] = (await app().api.drivers.getPairSessions()) as unknown as { id: string }[];
    app().hub.hub.services.pairing.command(CHIME_APP, (session as { id: string }).id, { kind: 'done' });
    await page.getByRole('heading', { level: 2, name: 'No devices were added' }).waitFor();
  });

  it('runs an app’s own pair view in a sandboxed frame, answering its pairing client calls through the session', async () => {
    const { api, page, hub } = app();
    await runOverDevkit({ url: hub.url, token: hub.token } as TestHub, LAMP_FIXTURE);
    await expect
      .poll(async () => ((await api.apps.getApp({ id: LAMP_APP })) as { state: string }).state, { timeout: 30_000 })
      .toBe('running');
    // The hub serves the view with the pairing client it expects added before its own script.
    const html = await (await fetch(`${hub.url}/app/${LAMP_APP}/drivers/lamp/pair/login.html`)).text();
    expect(html.indexOf('/home/pair-client.js')).toBeLessThan(html.indexOf('Homey.emit'));

    const driver = (await api.drivers.getDriver({ id: `homey:app:${LAMP_APP}:lamp` })) as unknown as {
      name: string;
      ownerName: string;
    };
    await page.goto(`${hub.url}/add-device`);
    await page.getByRole('button', { name: `Add a ${driver.name} (${driver.ownerName})` }).click();
    const frame = page.locator(`iframe[title="Pairing a ${driver.name}"]`);
    await frame.waitFor();
    // Scripts and forms only: the view cannot reach this page, its storage or the signed-in session.
    await expect(frame.getAttribute('sandbox')).resolves.toBe('allow-scripts allow-forms');
    const view = page.frameLocator(`iframe[title="Pairing a ${driver.name}"]`);
    await view.locator('input[name="username"]').waitFor();
    await expectPhoneFirst(page, 'pair-custom-view');
    await view.locator('input[name="username"]').fill('owner');
    await view.locator('input[name="password"]').fill('secret');
    await view.getByRole('button', { name: 'Log in' }).click();
    // Homey.emit reached the driver, which logged in and moved the views on to its list.
    const lamp = page.getByRole('checkbox', { name: 'Desk lamp' });
    await lamp.waitFor();
    await expect(lamp.isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Add chosen devices' }).click();
    await page.getByRole('heading', { level: 2, name: '1 device added' }).waitFor();
    const devices = Object.values(await api.devices.getDevices()) as { driverId: string; store?: unknown }[];
    expect(devices.filter((device) => device.driverId === `homey:app:${LAMP_APP}:lamp`)).toHaveLength(1);
  });

  it('adds a Matter device with the setup code typed from its label, and says what is wrong with a bad code', async () => {
    const { api, page, hub } = app();
    // A matter.js plug in its own process, in pairing mode on this machine's network.
    const scratch = mkdtempSync(join(tmpdir(), 'hearth-e2e-matter-'));
    const plug = await startVirtualPlug(join(scratch, 'plug'));
    try {
      const driver = (await api.drivers.getDriver({ id: MATTER_DRIVER_ID })) as unknown as { name: string; ownerName: string };
      await page.goto(`${hub.url}/add-device`);
      await page.getByRole('button', { name: `Add a ${driver.name} (${driver.ownerName})` }).click();
      const code = page.getByLabel('Setup code');
      await code.waitFor();
      await expectPhoneFirst(page, 'pair-matter-code');
      // Too few digits: the hub's own words, and the field stays to be corrected.
      await code.fill('1234-567');
      await page.getByRole('button', { name: 'Add the device' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/code/i);
      await code.fill(plug.manualPairingCode);
      await page.getByRole('button', { name: 'Add the device' }).click();
      await page.getByRole('heading', { level: 2, name: '1 device added' }).waitFor({ timeout: 90_000 });
      const devices = Object.values(await api.devices.getDevices()) as { id: string; driverId: string; capabilities: string[] }[];
      const added = devices.find((device) => device.driverId === MATTER_DRIVER_ID);
      expect(added?.capabilities).toEqual(['onoff']);
      // The device the web app added is the plug itself: switching it reaches the plug.
      const on = plug.next((line) => line.event === 'onoff' && line.value === true);
      await api.devices.setCapabilityValue({ deviceId: added?.id as string, capabilityId: 'onoff', value: true });
      await expect(on).resolves.toMatchObject({ value: true });
    } finally {
      await plug.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
