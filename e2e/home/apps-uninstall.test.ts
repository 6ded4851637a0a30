import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, openByNav, signedInHomeApp } from './setup';

const LUMEN = 'com.lumenco.lights';

interface DeviceRecord {
  id: string;
  name: string;
  ownerUri: string;
}

/** Uninstalling an app from the Apps page, told first what goes with it, against a real demo hub, in Chromium. */
describe.skipIf(!chromiumPath)('household web app: uninstalling an app', () => {
  const app = signedInHomeApp();

  it('says which devices go and which flows stop working, then uninstalls only when confirmed', async () => {
    const { page, api } = app();
    const devices = async () => Object.values(await api.devices.getDevices()) as unknown as DeviceRecord[];
    const lumenDevices = (await devices()).filter((device) => device.ownerUri === `homey:app:${LUMEN}`);
    expect(lumenDevices.length).toBeGreaterThan(1);
    const lumen = (Object.values(await api.apps.getApps()) as { id: string; name: string }[]).find((item) => item.id === LUMEN);
    const name = (lumen as { name: string }).name;
    const strip = lumenDevices.find((device) => device.name === 'Kitchen strip') as DeviceRecord;
    const lamp = await app().deviceId('Desk lamp');
    const flow = (actionOwner: string, flowName: string) =>
      api.flow.createFlow({
        flow: {
          name: flowName,
          trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
          conditions: [],
          actions: [{ uri: actionOwner, id: 'on' }],
        },
      });
    const uses = (await flow(`homey:device:${strip.id}`, 'Strip at night')) as { id: string };
    await flow(`homey:device:${lamp}`, 'Lamp only');

    await openByNav(page, 'Apps');
    await page.getByRole('button', { name: `Uninstall ${name}`, exact: true }).click();
    const question = page.locator('.row__confirm');
    const names = lumenDevices.map((device) => device.name).sort((a, b) => a.localeCompare(b));
    await question.getByText(`Its ${names.length} devices are removed: ${names.join(', ')}.`).waitFor();
    await question
      .getByText('The flow Strip at night uses its cards or devices: it stays, but stops working until you change it.')
      .waitFor();
    await expect(question.getByText('Lamp only').count()).resolves.toBe(0);
    const confirm = page.getByRole('button', { name: `Uninstall ${name} now` });
    await expect(confirm.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expectPhoneFirst(page, 'apps-uninstall');
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect((await devices()).filter((device) => device.ownerUri === `homey:app:${LUMEN}`)).toHaveLength(lumenDevices.length);

    await page.getByRole('button', { name: `Uninstall ${name}`, exact: true }).click();
    await page.getByRole('button', { name: `Uninstall ${name} now` }).click();
    await page.getByRole('status').getByText(`${name} was uninstalled.`).waitFor();
    await expect
      .poll(async () => (Object.values(await api.apps.getApps()) as { id: string }[]).some((item) => item.id === LUMEN))
      .toBe(false);
    expect((await devices()).filter((device) => device.ownerUri === `homey:app:${LUMEN}`)).toEqual([]);
    // The flow stays, and says it is broken.
    await expect
      .poll(async () => ((await api.flow.getFlow({ id: uses.id })) as unknown as { broken: boolean }).broken)
      .toBe(true);
    await expect(page.getByRole('list', { name: 'Installed apps' }).getByText(name, { exact: true }).count()).resolves.toBe(0);
  });
});
