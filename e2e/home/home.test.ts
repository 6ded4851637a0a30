import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHubAPI, HubAPI } from '../../packages/client/src/node';
import { type RunningHub, startRealHub } from '../../packages/client/src/testing/servers';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, homeAppDir, OWNER, openByNav, openHomeApp } from './setup';

/** The household web app against a real hub with the demo world, in Chromium. */
describe.skipIf(!chromiumPath)('household web app', () => {
  let hub: RunningHub;
  let api: CoreHubAPI;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let lampId: string;

  const lampValue = async () => (await api.devices.getDevice({ id: lampId })).capabilitiesObj?.onoff?.value;
  const lampSwitch = (p: Page) => p.getByRole('switch', { name: 'Desk lamp on/off' });

  beforeAll(async () => {
    ({ hub, api, browser, context, page } = await openHomeApp());
    const devices = Object.values(await api.devices.getDevices());
    lampId = (devices.find((device) => device.name === 'Desk lamp') as { id: string }).id;
  });
  afterAll(async () => {
    await browser?.close();
    api?.destroy();
    await hub?.stop();
  });

  it('is served at the hub’s origin root beside the API, with its assets compressed and cached', async () => {
    const response = await fetch(`${hub.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    const script = /src="(\/home\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    expect(script).toBeTruthy();
    const asset = await fetch(`${hub.url}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // The compressed copy is the file as built, byte for byte.
    const plain = await fetch(`${hub.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await asset.text()).toBe(await plain.text());
    // Every page address answers the app; the API and unknown paths keep their JSON answers.
    expect((await fetch(`${hub.url}/flows`)).headers.get('content-type')).toContain('text/html');
    const ping = await fetch(`${hub.url}/api/manager/system/ping`);
    expect(ping.headers.get('x-homey-id')).toBe(hub.hub.context.config.id);
    const missing = await fetch(`${hub.url}/home/assets/nothing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('not_found');
    expect((await fetch(`${hub.url}/home/..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it('signs in with the hub’s local credentials, refusing a wrong password with a clear message', async () => {
    await page.goto(`${hub.url}/`);
    await page.getByRole('heading', { name: 'Sign in to your hub' }).waitFor();
    await expectPhoneFirst(page, 'sign-in');
    await page.getByLabel('Username').fill(OWNER.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('do not match').waitFor();
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
  });

  it('shows the zones as a tree, each with its devices as live tiles', async () => {
    await page.getByRole('heading', { name: 'Office' }).waitFor();
    const office = page.getByRole('list', { name: /^Office, \d+ devices?$/ });
    await expect(office.getByRole('link', { name: 'Desk lamp' }).count()).resolves.toBe(1);
    // Zones nest: the top zone is an h2, its rooms below it.
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe('Home');
    await expect(page.getByRole('heading', { level: 3, name: 'First floor' }).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { level: 4, name: 'Office' }).count()).resolves.toBe(1);
    // A sensor shows its value with units.
    await expect(page.locator('[data-capability^="measure_"]').count()).resolves.toBeGreaterThan(0);
    await expectPhoneFirst(page, 'home');
  });

  it('switches a device from its tile, and a second tab sees it change without reloading', async () => {
    const second = await context.newPage();
    await second.goto(`${hub.url}/`);
    await lampSwitch(second).waitFor();
    const before = (await lampSwitch(page).getAttribute('aria-checked')) === 'true';
    await lampSwitch(page).click();
    await expect.poll(() => lampSwitch(page).getAttribute('aria-checked')).toBe(String(!before));
    await expect.poll(lampValue).toBe(!before);
    await expect.poll(() => lampSwitch(second).getAttribute('aria-checked')).toBe(String(!before));
    await second.close();
  });

  it('follows changes made elsewhere live (realtime, no polling)', async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    for (const value of [true, false]) {
      await api.devices.setCapabilityValue({ deviceId: lampId, capabilityId: 'onoff', value });
      await expect.poll(() => lampSwitch(page).getAttribute('aria-checked')).toBe(String(value));
    }
    // Nothing was fetched over HTTP to see those changes: they came over the socket.
    expect(requests.filter((url) => url.includes('/api/'))).toEqual([]);
  });

  it('works from the keyboard alone: Tab to a switch, Space toggles it', async () => {
    await page.reload();
    const target = lampSwitch(page);
    await target.waitFor();
    const before = await target.getAttribute('aria-checked');
    for (let i = 0; i < 60 && !(await target.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(target.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => target.getAttribute('aria-checked')).toBe(before === 'true' ? 'false' : 'true');
  });

  it('opens a device with every capability, and its controls write', async () => {
    await page.getByRole('link', { name: 'Desk lamp' }).click();
    await page.getByRole('heading', { level: 1, name: 'Desk lamp' }).waitFor();
    await expectPhoneFirst(page, 'device');
    const before = await lampValue();
    await lampSwitch(page).click();
    await expect.poll(lampValue).toBe(!before);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
  });

  it('rolls an optimistic write back with the hub’s reason when the hub refuses it', async () => {
    // A token that may read devices but not control them.
    const pat = (await api.users.createPersonalAccessToken({
      name: 'Read only',
      scopes: ['homey.device.readonly', 'homey.zone.readonly'],
    })) as unknown as { token: string };
    const readOnly = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const viewer = await readOnly.newPage();
    await viewer.goto(`${hub.url}/`);
    await viewer.getByRole('button', { name: 'Sign in with an access token' }).click();
    await viewer.getByLabel('Access token').fill(pat.token);
    await viewer.getByRole('button', { name: 'Sign in', exact: true }).click();
    const before = await lampSwitch(viewer).getAttribute('aria-checked');
    await lampSwitch(viewer).click();
    await viewer.getByRole('status').getByText('Desk lamp did not change').waitFor();
    await expect.poll(() => lampSwitch(viewer).getAttribute('aria-checked')).toBe(before);
    await readOnly.close();
  });

  it('lists flows by folder with their state, runs one, and shows its run as a live timeline with its delay', async () => {
    const lamp = `homey:device:${lampId}`;
    const folder = (await api.flow.createFlowFolder({ flowfolder: { name: 'Evenings' } })) as { id: string };
    const flow = (await api.flow.createFlow({
      flow: {
        name: 'Lamp on, later off',
        folder: folder.id,
        trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
        conditions: [],
        actions: [
          { uri: lamp, id: 'on' },
          { uri: lamp, id: 'off', delay: { number: '30', multiplier: 60 } },
        ],
      },
    })) as { id: string };
    await api.devices.setCapabilityValue({ deviceId: lampId, capabilityId: 'onoff', value: false });

    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Evenings' }).waitFor();
    await expectPhoneFirst(page, 'flows');
    await page.getByRole('button', { name: 'Run Lamp on, later off now' }).click();
    await page.getByRole('status').getByText('Lamp on, later off started.').waitFor();
    await expect.poll(lampValue).toBe(true);

    await page.getByRole('link', { name: 'Lamp on, later off' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lamp on, later off' }).waitFor();
    const runs = page.locator('.trace');
    await expect.poll(() => runs.count()).toBe(1);
    // The timeline follows the run's trace events as they arrive.
    await expect.poll(() => runs.first().locator('.trace__status').textContent()).toBe('Waiting for a delay');
    await expect
      .poll(() =>
        runs
          .first()
          .getByText(/Action Turn on — Desk lamp: done/)
          .count(),
      )
      .toBe(1);
    await expectPhoneFirst(page, 'flow');
    // The delayed action waits; cancelling it ends the run, which the timeline shows as it happens.
    await page.getByRole('heading', { level: 2, name: 'Waiting to run' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Waiting to run' }).count()).toBe(0);
    await expect.poll(() => runs.first().locator('.trace__status').textContent()).not.toBe('Waiting for a delay');
    await expect
      .poll(() =>
        runs
          .first()
          .getByText(/Delay: cancelled/)
          .count(),
      )
      .toBe(1);
    // A run started elsewhere appears without a reload.
    await api.flow.triggerFlow({ id: flow.id });
    await expect.poll(() => runs.count()).toBe(2);

    // Off: the hub stores it, and the run button is disabled.
    await page.getByRole('switch', { name: 'Lamp on, later off enabled' }).click();
    await expect.poll(async () => ((await api.flow.getFlow({ id: flow.id })) as { enabled: boolean }).enabled).toBe(false);
    // The page learns of the change from the hub's flow.update event, a moment after the hub stored it.
    await expect.poll(() => page.getByRole('button', { name: 'Run Lamp on, later off now' }).isDisabled()).toBe(true);
  });

  it('opens a device’s chart: the log’s down-sampled entries at each resolution, the library loaded on demand', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('link', { name: 'Smart meter' }).click();
    await page.getByRole('heading', { level: 1, name: 'Smart meter' }).waitFor();
    expect(scripts.filter((url) => url.includes('Chart'))).toEqual([]);
    await page.getByRole('link', { name: 'Power Chart' }).click();
    await page.getByRole('heading', { level: 2, name: 'Smart meter: Power' }).waitFor();
    const caption = page.getByTestId('chart-summary');
    await expect
      .poll(() => caption.textContent())
      .toMatch(/^Power, last 24 hours: from [\d,.]+ W to [\d,.]+ W over \d+ points\.$/);
    await page.locator('.chart canvas').waitFor();
    expect(scripts.filter((url) => url.includes('Chart')).length).toBe(1);
    await page.getByLabel('Period').selectOption({ label: 'Last 7 days' });
    await expect.poll(() => caption.textContent()).toMatch(/^Power, last 7 days: /);
    await expectPhoneFirst(page, 'insights');
  });

  it('lists the apps with their state, and restarts, disables and enables one', async () => {
    const apps = Object.values(await api.apps.getApps()) as { id: string; name: string; enabled: boolean; state: string }[];
    const app = apps.find((item) => item.enabled && item.state === 'running') as { id: string; name: string };
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Apps' }).waitFor();
    await expect(page.locator('[data-app-id]').count()).resolves.toBe(apps.length);
    await expectPhoneFirst(page, 'apps');
    const row = page.locator(`[data-app-id="${app.id}"]`);
    // An app with code starts a process of its own: a second or more on a busy machine, past expect.poll's 1 s.
    const processStart = { timeout: 20_000 };
    await row.getByRole('button', { name: `Restart ${app.name}` }).click();
    await expect.poll(() => row.getByTestId('app-state').textContent(), processStart).toBe('Running');
    await row.getByRole('button', { name: `Disable ${app.name}` }).click();
    await expect.poll(() => row.getByTestId('app-state').textContent(), processStart).toBe('Disabled');
    expect(((await api.apps.getApp({ id: app.id })) as { enabled: boolean }).enabled).toBe(false);
    await row.getByRole('button', { name: `Enable ${app.name}` }).click();
    await expect
      .poll(async () => ((await api.apps.getApp({ id: app.id })) as { enabled: boolean }).enabled, processStart)
      .toBe(true);
  });

  it('lists the household and the hub’s personal access tokens, creates one shown once, and revokes it', async () => {
    await openByNav(page, 'People');
    const owner = (await api.users.getUserMe()) as { id: string };
    await expect.poll(() => page.locator(`[data-user-id="${owner.id}"] .badge`).textContent()).toBe('Owner');
    await page.getByText('Read only', { exact: true }).waitFor();
    await expectPhoneFirst(page, 'people');
    await page.getByLabel('Name').fill('Garden script');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Garden script was created.').waitFor();
    const shown = await page.locator('.secret').textContent();
    const listed = (await api.users.getPersonalAccessTokens()) as unknown as { id: string; name: string; scopes: string[] }[];
    const made = listed.find((token) => token.name === 'Garden script');
    expect(made?.scopes).toEqual(expect.arrayContaining(['homey.device.readonly']));
    // The token shown works, and only reads.
    const scripted = await HubAPI.local({ address: hub.url, token: shown as string });
    await expect(scripted.devices.getDevices()).resolves.toBeTruthy();
    scripted.destroy();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Garden script' }).click();
    await expect.poll(() => page.getByText('Garden script', { exact: true }).count()).toBe(0);
    const after = (await api.users.getPersonalAccessTokens()) as unknown as { name: string }[];
    expect(after.map((token) => token.name)).not.toContain('Garden script');
  });

  it('says when the realtime connection is lost, and catches up when it returns', async () => {
    await page.goto(`${hub.url}/`);
    const lampTile = lampSwitch(page);
    await lampTile.waitFor();
    const before = (await lampTile.getAttribute('aria-checked')) === 'true';
    const port = Number(new URL(hub.url).port);
    api.destroy();
    await hub.hub.stop();
    await page.getByRole('alert').getByText('Connection to the hub lost').waitFor();
    // The same hub comes back (its data, sessions included); a change made before the app reconnects reaches the
    // tile through the refetch, not an event the app was there to hear.
    const { dataDir } = hub;
    const restarted = await startRealHub({ dataDir, port, homeAppDir: homeAppDir }, { issueToken: false });
    hub = {
      ...restarted,
      token: restarted.hub.issueOwnerToken(),
      async stop() {
        await restarted.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    api = await HubAPI.local({ address: hub.url, token: hub.token });
    await api.devices.setCapabilityValue({ deviceId: lampId, capabilityId: 'onoff', value: !before });
    await page.getByRole('status').getByText('Connected again.').waitFor({ timeout: 20_000 });
    await expect.poll(() => lampTile.getAttribute('aria-checked'), { timeout: 10_000 }).toBe(String(!before));
    await expect(page.getByText('Connection to the hub lost').count()).resolves.toBe(0);
  });

  it('opens its offline shell when the hub cannot be reached, saying so instead of a blank page', async () => {
    await page.goto(`${hub.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.waitForFunction(async () => Boolean(await navigator.serviceWorker.ready));
    // Once the worker controls the page, the shell and its assets are kept.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await context.setOffline(true);
    try {
      await page.goto(`${hub.url}/flows`);
      await page.getByRole('heading', { name: 'The hub cannot be reached. Check that it is on and on this network.' }).waitFor();
      await expectPhoneFirst(page, 'offline');
    } finally {
      await context.setOffline(false);
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
  });

  it('signs out, and a reload stays signed out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your hub' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to your hub' }).waitFor();
  });
});
