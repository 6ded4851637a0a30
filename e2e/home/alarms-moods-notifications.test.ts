import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, openByNav, pageWithScopes, signedInHomeApp } from './setup';

interface Alarm {
  id: string;
  name: string;
  time: string;
  enabled: boolean;
  repetition: Record<string, boolean>;
}

/** Alarms, moods and the notifications timeline against a real hub, in Chromium: live, written, refused. */
describe.skipIf(!chromiumPath)('household web app: alarms, moods, notifications', () => {
  const app = signedInHomeApp();
  const alarms = async () => Object.values(await app().api.alarms.getAlarms()) as unknown as Alarm[];
  const alarm = async (name: string) => (await alarms()).find((item) => item.name === name);
  const notifications = async () => Object.values(await app().api.notifications.getNotifications()) as { excerpt: string }[];
  const notify = (excerpt: string, priority?: 'WARNING') =>
    app().hub.hub.services.notifications.notify({ ownerUri: 'homey:manager:updates', excerpt, priority });

  it('creates an alarm on weekdays, edits its time and days, switches it off and deletes it', async () => {
    const { page } = app();
    await openByNav(page, 'Alarms');
    await page.getByText('No alarms yet.').waitFor();
    const form = page.getByRole('form', { name: 'New alarm' });
    await form.getByLabel('Time').fill('06:45');
    await form.getByLabel('Name').fill('Wake up');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await form.getByLabel(day).check();
    await form.getByRole('button', { name: 'Create alarm' }).click();
    const wake = page.getByRole('switch', { name: 'Wake up at 06:45' });
    await expect.poll(() => wake.getAttribute('aria-checked')).toBe('true');
    await page.getByText('Weekdays').waitFor();
    expect(await alarm('Wake up')).toMatchObject({ time: '06:45', enabled: true, repetition: { monday: true, sunday: false } });

    await page.getByRole('button', { name: 'Edit Wake up' }).click();
    const edit = page.getByRole('form', { name: 'Edit Wake up' });
    await edit.getByLabel('Time').fill('07:15');
    await edit.getByLabel('Sat').check();
    await edit.getByLabel('Sun').check();
    await expectPhoneFirst(page, 'alarms');
    await edit.getByRole('button', { name: 'Save alarm' }).click();
    await page.getByText('Every day').waitFor();
    expect(await alarm('Wake up')).toMatchObject({ time: '07:15', repetition: { saturday: true, sunday: true } });

    const later = page.getByRole('switch', { name: 'Wake up at 07:15' });
    await later.click();
    await expect.poll(async () => (await alarm('Wake up'))?.enabled).toBe(false);
    await expect.poll(() => later.getAttribute('aria-checked')).toBe('false');

    // One made elsewhere shows up at once.
    const none = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, false]),
    );
    await app().api.alarms.createAlarm({ alarm: { name: 'Bins out', time: '20:00', repetition: none as never } });
    await page.getByRole('switch', { name: 'Bins out at 20:00' }).waitFor();

    await page.getByRole('button', { name: 'Delete Wake up', exact: true }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect(await alarm('Wake up')).toBeTruthy();
    await page.getByRole('button', { name: 'Delete Wake up', exact: true }).click();
    await page.getByRole('button', { name: 'Delete Wake up now' }).click();
    await expect.poll(() => later.count()).toBe(0);
    expect(await alarm('Wake up')).toBeUndefined();
  });

  it('saves a zone as it is now as a mood, sets it, and deletes it', async () => {
    const { page, api } = app();
    const light = await app().deviceId('Hallway light');
    await api.devices.setCapabilityValue({ deviceId: light, capabilityId: 'onoff', value: true });
    await openByNav(page, 'Moods');
    const form = page.getByRole('form', { name: 'Save a mood' });
    await form.getByLabel('Zone').selectOption({ label: 'Hallway' });
    await form.getByRole('button', { name: 'Save mood' }).click();
    await page.getByText('A mood needs a name.').waitFor();
    await form.getByLabel('Name').fill('Welcome home');
    await form.getByRole('button', { name: 'Save mood' }).click();
    const hallway = page.getByRole('region', { name: 'Hallway' });
    await hallway.getByRole('button', { name: 'Set Welcome home' }).waitFor();
    const moods = Object.values(await api.moods.getMoods()) as {
      name: string;
      devices: Record<string, Record<string, unknown>>;
    }[];
    expect(moods.find((mood) => mood.name === 'Welcome home')?.devices[light]).toMatchObject({ onoff: true });
    await expectPhoneFirst(page, 'moods');

    await api.devices.setCapabilityValue({ deviceId: light, capabilityId: 'onoff', value: false });
    await hallway.getByRole('button', { name: 'Set Welcome home' }).click();
    await page.getByRole('status').getByText('Welcome home set on').waitFor();
    const lightOn = async () =>
      ((await api.devices.getDevice({ id: light })) as { capabilitiesObj: Record<string, { value: unknown }> }).capabilitiesObj
        .onoff?.value;
    await expect.poll(lightOn, { timeout: 10_000 }).toBe(true);

    await hallway.getByRole('button', { name: 'Delete Welcome home', exact: true }).click();
    await hallway.getByRole('button', { name: 'Delete Welcome home now' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Set Welcome home' }).count()).toBe(0);
    expect((Object.values(await api.moods.getMoods()) as { name: string }[]).some((m) => m.name === 'Welcome home')).toBe(false);
  });

  it('shows notifications live as a timeline, deletes one, and clears the rest after asking', async () => {
    const { page } = app();
    await openByNav(page, 'Notifications');
    notify('**Hallway light** stayed on all night', 'WARNING');
    notify('An update is ready');
    notify('Backup finished');
    await page.getByRole('heading', { level: 2, name: 'Today' }).waitFor();
    const warning = page.getByRole('listitem').filter({ hasText: 'stayed on all night' });
    await warning.getByText('Warning', { exact: true }).waitFor();
    expect(await warning.locator('strong').textContent()).toBe('Hallway light');
    await expectPhoneFirst(page, 'notifications');

    await page.getByRole('button', { name: 'Delete “An update is ready”' }).click();
    await expect.poll(async () => (await notifications()).map((n) => n.excerpt)).not.toContain('An update is ready');
    await expect.poll(() => page.getByText('An update is ready').count()).toBe(0);

    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByRole('button', { name: 'Keep them' }).click();
    // The hub's own notifications of the earlier steps are in the timeline too.
    const left = (await notifications()).map((n) => n.excerpt);
    expect(left).toEqual(expect.arrayContaining(['Backup finished', '**Hallway light** stayed on all night']));
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByRole('button', { name: `Delete all ${left.length}` }).click();
    await page.getByText('No notifications.').waitFor();
    await expect.poll(async () => (await notifications()).length).toBe(0);
  });

  it('rolls writes back with the hub’s reason when the scopes do not allow them', async () => {
    notify('The front door is open');
    const { page: viewer, close } = await pageWithScopes(app(), ['homey.alarm.readonly', 'homey.notifications.readonly']);

    await openByNav(viewer, 'Alarms');
    const bins = viewer.getByRole('switch', { name: 'Bins out at 20:00' });
    await expect.poll(() => bins.getAttribute('aria-checked')).toBe('true');
    await bins.click();
    await viewer.getByRole('status').getByText('Bins out did not change').waitFor();
    await expect.poll(() => bins.getAttribute('aria-checked')).toBe('true');
    expect((await alarm('Bins out'))?.enabled).toBe(true);

    await openByNav(viewer, 'Notifications');
    await viewer.getByRole('button', { name: 'Delete “The front door is open”' }).click();
    await viewer.getByRole('status').getByText('The notification was not deleted').waitFor();
    await viewer.getByText('The front door is open').waitFor();
    expect((await notifications()).map((n) => n.excerpt)).toContain('The front door is open');
    await close();
  });
});
