import { describe, expect, it } from 'vitest';
import { HubAPI } from '../../packages/client/src/node';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, openByNav, pageWithScopes, signedInHomeApp } from './setup';

/**
 * The People page on a real hub: members' presence follows the hub's realtime events (no polling), and a personal
 * access token gets exactly the scopes chosen in the picker, which offers only what the session itself holds.
 */
describe.skipIf(!chromiumPath)('household web app: people', () => {
  const app = signedInHomeApp();

  it('shows a member coming home and going to sleep as it happens, without asking the hub again', async () => {
    const { page, api, hub } = app();
    // The app talks to the hub over its socket: watch what it sends from a fresh load on.
    const sent: string[] = [];
    page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
    page.on('request', (request) => {
      if (request.url().startsWith(`${hub.url}/api/`)) sent.push(request.url());
    });
    await page.reload();
    await openByNav(page, 'People');
    const owner = (await api.users.getUserMe()) as { id: string };
    const presence = page.locator(`[data-user-id="${owner.id}"] [data-testid="presence"]`);
    await api.presence.setPresentMe({ value: true });
    await expect.poll(() => presence.textContent()).toBe('Home');
    await page.getByText('Owner console').waitFor();
    // The watch sees the app's calls: listing the members went through it.
    expect(sent.some((payload) => payload.includes('users'))).toBe(true);
    sent.length = 0;
    await api.presence.setPresentMe({ value: false });
    await expect.poll(() => presence.textContent()).toBe('Away');
    await api.presence.setAsleepMe({ value: true });
    await expect.poll(() => presence.textContent()).toBe('Asleep');
    await api.presence.setAsleepMe({ value: false });
    await api.presence.setPresentMe({ value: true });
    await expect.poll(() => presence.textContent()).toBe('Home');
    // Nothing asked of the hub meanwhile but the socket's heartbeat (engine.io ping "2" / pong "3").
    expect(sent.filter((payload) => payload !== '2' && payload !== '3')).toEqual([]);
  });

  it('shows the signed-in member by name with “(you)”, first, and no one else so', async () => {
    const { page, api } = app();
    const me = (await api.users.getUserMe()) as { id: string; name: string };
    // "Aaron" sorts before the owner's name: only being the signed-in member puts the owner first.
    await api.users.createUser({ user: { name: 'Aaron', role: 'user' } });
    await page.reload();
    await openByNav(page, 'People');
    const rows = page.locator('[data-user-id]');
    await page.locator(`[data-user-id="${me.id}"]`).getByText(`${me.name} (you)`, { exact: true }).waitFor();
    await expect.poll(() => rows.count()).toBe(2);
    await expect(rows.first().getAttribute('data-user-id')).resolves.toBe(me.id);
    await expect(rows.nth(1).locator('strong').textContent()).resolves.toBe('Aaron');
    await expect(page.getByText('(you)').count()).resolves.toBe(1);
    await expectPhoneFirst(page, 'people-you');
  });

  it('creates a token with the scopes chosen in the picker, and refuses one with none', async () => {
    const { page, api, hub } = app();
    await openByNav(page, 'People');
    await page.getByLabel('Name').fill('Doorbell script');
    await page.getByLabel('Access', { exact: true }).selectOption({ label: 'Choose what it may do' });
    const picker = page.getByRole('group', { name: 'What the token may do' });
    await picker.waitFor();
    await expectPhoneFirst(page, 'people-scopes');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Choose at least one thing the token may do.').waitFor();
    expect(((await api.users.getPersonalAccessTokens()) as unknown as { name: string }[]).map((x) => x.name)).not.toContain(
      'Doorbell script',
    );

    await picker.getByRole('group', { name: 'Devices' }).getByLabel('Read').check();
    await picker.getByRole('group', { name: 'Flows' }).getByLabel('Start').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Doorbell script was created.').waitFor();
    const made = ((await api.users.getPersonalAccessTokens()) as unknown as { name: string; scopes: string[] }[]).find(
      (token) => token.name === 'Doorbell script',
    );
    expect([...(made?.scopes ?? [])].sort()).toEqual(['homey.device.readonly', 'homey.flow.start']);
    // The token reads devices and nothing more.
    const scripted = await HubAPI.local({ address: hub.url, token: (await page.locator('.secret').textContent()) as string });
    await expect(scripted.devices.getDevices()).resolves.toBeTruthy();
    await expect(scripted.zones.getZones()).rejects.toMatchObject({ statusCode: 403 });
    scripted.destroy();
    // Revoked, it leaves the list (the list is asked of the hub again, never kept from an earlier answer).
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Doorbell script' }).click();
    await expect.poll(() => page.getByText('Doorbell script', { exact: true }).count()).toBe(0);
  });

  it('offers a narrowed session only the scopes it holds', async () => {
    const narrowed = await pageWithScopes(app(), ['homey.user.readonly', 'homey.device.readonly']);
    try {
      await openByNav(narrowed.page, 'People');
      await narrowed.page.getByLabel('Access', { exact: true }).selectOption({ label: 'Choose what it may do' });
      const offered = await narrowed.page
        .getByRole('group', { name: 'What the token may do' })
        .locator('input[name="scope"]')
        .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));
      expect(offered.sort()).toEqual(['homey.device.readonly', 'homey.user.readonly']);
    } finally {
      await narrowed.close();
    }
  });
});
