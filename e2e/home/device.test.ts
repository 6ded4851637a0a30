import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { DEMO_ZONES_IN_TREE_ORDER, expectPhoneFirst, signedInHomeApp } from './setup';

interface DeviceRecord {
  id: string;
  name: string;
  zone: string;
}

/** The device page's settings form, rename, move and remove, against a real hub with the demo world, in Chromium. */
describe.skipIf(!chromiumPath)('household web app: a device’s settings and management', () => {
  const app = signedInHomeApp();
  const device = async (id: string) => (await app().api.devices.getDevice({ id })) as unknown as DeviceRecord;
  const settingValue = async (id: string, setting: string) =>
    ((await app().api.devices.getDeviceSettingsObj({ id })) as unknown as { id: string; value: unknown }[]).find(
      (s) => s.id === setting,
    )?.value;
  const open = async (name: string) => {
    await app().page.goto(`${app().hub.url}/devices/${encodeURIComponent(await app().deviceId(name))}`);
    await app().page.getByRole('heading', { level: 1, name }).waitFor();
  };

  it('marks a device a favourite, kept in the member’s own properties, shown first on the home page', async () => {
    const { page, api } = app();
    const id = await app().deviceId('Coffee machine');
    const stored = async () =>
      ((await api.users.getUserMe()) as unknown as { properties: { favorites?: { devices: string[] } } }).properties.favorites
        ?.devices ?? [];
    await open('Coffee machine');
    const star = page.getByRole('button', { name: 'Coffee machine is a favourite' });
    await expect(star.getAttribute('aria-pressed')).resolves.toBe('false');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(stored).toEqual([id]);

    await page.getByRole('link', { name: 'Home', exact: true }).click();
    const favourites = page.getByRole('list', { name: 'Favourites, 1 device' });
    await favourites.getByRole('link', { name: 'Coffee machine' }).waitFor();
    await expectPhoneFirst(page, 'home-favourites');
    // Kept by the hub, not the browser: a reload shows it again.
    await page.reload();
    await favourites.getByRole('link', { name: 'Coffee machine' }).waitFor();

    await favourites.getByRole('link', { name: 'Coffee machine' }).click();
    await page.getByRole('button', { name: 'Coffee machine is a favourite' }).click();
    await expect.poll(stored).toEqual([]);
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('list', { name: /^Kitchen, \d+ devices?$/ }).waitFor();
    await expect(page.getByRole('heading', { name: 'Favourites' }).count()).resolves.toBe(0);
  });

  it('shows the driver’s settings form, refuses what the hub would refuse on the field, and saves the rest', async () => {
    const { page } = app();
    const id = await app().deviceId('Bathroom floor');
    await open('Bathroom floor');
    const power = page.getByLabel('Heating element power (W)');
    await power.waitFor();
    await expect(power.inputValue()).resolves.toBe('1450');
    await expectPhoneFirst(page, 'device-settings');

    // Above the driver's maximum: the hub's own words, on the field, and nothing sent.
    await power.fill('5000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => power.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await power.getAttribute('aria-describedby')) as string;
    await expect(page.locator(`[id="${describedBy}"]`).textContent()).resolves.toBe('Must be at most 3600');
    await expect(power.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expectPhoneFirst(page, 'device-settings-error');
    expect(await settingValue(id, 'heater_power')).toBe(1450);
    // Empty is no number.
    await power.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Expected a number').waitFor();

    // A value that fits is stored by the hub, and the form shows it without error.
    await power.fill('2000');
    await page.getByLabel('Switching margin around the target (°C)').fill('0.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings of Bathroom floor saved.').waitFor();
    await expect.poll(() => settingValue(id, 'heater_power')).toBe(2000);
    expect(await settingValue(id, 'hysteresis')).toBe(0.5);
    await expect.poll(() => page.getByLabel('Heating element power (W)').getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the device’s own zone in the zone select, the zones as an indented tree, and Move keeps it there', async () => {
    const { page, api } = app();
    const id = await app().deviceId('Coffee machine');
    const zones = Object.values(await api.zones.getZones()) as { id: string; name: string }[];
    const kitchen = zones.find((zone) => zone.name === 'Kitchen') as { id: string };
    expect((await device(id)).zone).toBe(kitchen.id);
    await open('Coffee machine');
    const select = page.getByLabel('Zone', { exact: true });
    // The zones arrive after the select is first drawn: it must still end on the device's zone, not the first one.
    await expect.poll(() => select.inputValue()).toBe(kitchen.id);
    const options = await select.locator('option').allTextContents();
    expect(options.map((text) => text.replace(/^\u00a0+/, ''))).toEqual(DEMO_ZONES_IN_TREE_ORDER);
    const depth = (name: string) => ((options.find((text) => text.endsWith(name)) ?? '').match(/^\u00a0*/)?.[0].length ?? 0) / 3;
    expect([depth('Home'), depth('Ground floor'), depth('Kitchen'), depth('Garden')]).toEqual([0, 1, 2, 1]);
    await expectPhoneFirst(page, 'device-zone');

    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('status').getByText('Coffee machine moved.').waitFor();
    expect((await device(id)).zone).toBe(kitchen.id);
  });

  it('renames a device, refusing an empty name on the field', async () => {
    const { page } = app();
    const id = await app().deviceId('Desk lamp');
    await open('Desk lamp');
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('  ');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('A device needs a name.').waitFor();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await name.fill('Reading lamp');
    await page.getByRole('button', { name: 'Rename' }).click();
    // The heading follows the hub's update event.
    await page.getByRole('heading', { level: 1, name: 'Reading lamp' }).waitFor();
    expect((await device(id)).name).toBe('Reading lamp');
  });

  it('moves a device to another zone', async () => {
    const { page, api } = app();
    const id = await app().deviceId('Reading lamp');
    const zones = Object.values(await api.zones.getZones()) as { id: string; name: string }[];
    const kitchen = zones.find((zone) => zone.name === 'Kitchen') as { id: string };
    expect((await device(id)).zone).not.toBe(kitchen.id);
    await page.getByLabel('Zone', { exact: true }).selectOption({ label: 'Kitchen' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(async () => (await device(id)).zone).toBe(kitchen.id);
    await page.getByRole('status').getByText('Reading lamp moved.').waitFor();
    // The home page shows it in its new room.
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    const inKitchen = page.getByRole('list', { name: /^Kitchen, \d+ devices?$/ });
    await inKitchen.getByRole('link', { name: 'Reading lamp' }).waitFor();
  });

  it('removes a device only after a second, explicit confirmation', async () => {
    const { page, api } = app();
    const id = await app().deviceId('Reading lamp');
    await open('Reading lamp');
    await page.getByRole('button', { name: 'Remove this device' }).click();
    const confirm = page.getByRole('button', { name: 'Remove Reading lamp' });
    await confirm.waitFor();
    // The answer takes focus, and the question is read with it.
    await expect(confirm.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expectPhoneFirst(page, 'device-remove');
    await page.getByRole('button', { name: 'Keep it' }).click();
    await expect(confirm.count()).resolves.toBe(0);
    expect((await device(id)).name).toBe('Reading lamp');

    await page.getByRole('button', { name: 'Remove this device' }).click();
    await confirm.click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('status').getByText('Reading lamp was removed.').waitFor();
    const remaining = Object.values(await api.devices.getDevices()) as DeviceRecord[];
    expect(remaining.map((d) => d.id)).not.toContain(id);
    await expect(page.getByRole('link', { name: 'Reading lamp' }).count()).resolves.toBe(0);
  });
});
