import type { Cloud } from '@hearth/cloud';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHubAPI, HubAPI } from '../../packages/client/src/node';
import { HUB_ID, type RunningHub, startRealHub } from '../../packages/client/src/testing/servers';
import { startEmbeddedCloud } from '../../packages/hub/src/testing/cloud';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildHomeApp, expectPhoneFirst, homeAppDir, OWNER } from './setup';

const SECRET = 'home-apps-test-internal-secret';
const LUMEN = 'com.lumenco.lights';
const CHIME = 'com.hearth.chime';
// Once installed, the app's process takes a moment to start on a loaded machine.
const processStart = { timeout: 20_000 };

/**
 * The Apps page against a real cloud whose catalogue holds the demo apps and a real hub linked to it: an app is
 * found in the catalogue and installed, an out-of-date one updated to the catalogue's newer version, and an app's
 * settings page stores what the app declares.
 */
describe.skipIf(!chromiumPath)('household web app: apps from the cloud catalogue', () => {
  let cloud: Cloud;
  let hub: RunningHub;
  let api: CoreHubAPI;
  let browser: Browser;
  let page: Page;

  const appOf = async (id: string) =>
    (Object.values(await api.apps.getApps()) as { id: string; version: string }[]).find((app) => app.id === id);

  beforeAll(async () => {
    buildHomeApp();
    // The catalogue's icon addresses are the cloud's public ones: its real port.
    const { cloud: port } = await freePorts();
    cloud = await startEmbeddedCloud({
      port,
      publicUrl: `http://127.0.0.1:${port}`,
      internalClientSecret: SECRET,
      // The demo world publishes the demo apps in the catalogue (Lumen & Co at 3.2.1, then 3.3.0).
      demoHubs: [{ id: HUB_ID, name: 'Apps hub', model: 'hearth-pro-5q', url: 'http://127.0.0.1:1' }],
    });
    hub = await startRealHub({ homeAppDir, cloudUrl: cloud.url, cloudClientSecret: SECRET });
    api = await HubAPI.local({ address: hub.url, token: hub.token });
    await api.users.updateUserMeLocalCredentials(OWNER);
    // An older version of Lumen & Co, so the catalogue has a newer one for it.
    await api.apps.installFromAppStore({ id: LUMEN, version: '3.2.1' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') console.log(`[browser] ${message.text()}`);
    });
    await page.goto(`${hub.url}/`);
    await page.getByLabel('Username').fill(OWNER.username);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Apps' }).waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    api?.destroy();
    await hub?.stop();
    await cloud?.stop();
  });

  it('lists the catalogue with its icons, finds an app by a word and installs it', async () => {
    const catalogue = page.getByRole('list', { name: 'Get apps' });
    await catalogue.locator('[data-catalogue-app]').first().waitFor();
    // Lumen & Co is installed already: the catalogue says so instead of offering it again.
    await expect(catalogue.locator(`[data-catalogue-app="${LUMEN}"]`).getByText('Installed').count()).resolves.toBe(1);
    // The catalogue's icons come from the cloud, which the app's Content-Security-Policy lets it show.
    const icon = catalogue.locator(`[data-catalogue-app="${CHIME}"] img`);
    await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expectPhoneFirst(page, 'apps-catalogue');

    await page.getByLabel('Search the app catalogue').fill('chime');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => catalogue.locator('[data-catalogue-app]').count()).toBe(1);
    expect(await appOf(CHIME)).toBeUndefined();
    await page.getByRole('button', { name: 'Install Hearth Chime' }).click();
    await page.getByRole('status').filter({ hasText: 'Hearth Chime was installed.' }).waitFor({ timeout: 30_000 });
    expect(await appOf(CHIME)).toMatchObject({ origin: 'appstore', version: '1.2.0' });
    // The installed list follows the hub's events; the catalogue row now says it is installed.
    await page.getByRole('list', { name: 'Installed apps' }).locator(`[data-app-id="${CHIME}"]`).waitFor();
    await catalogue.locator(`[data-catalogue-app="${CHIME}"]`).getByText('Installed').waitFor();

    await page.getByLabel('Search the app catalogue').fill('nothing-is-called-this');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No app in the catalogue matches.').waitFor();
  });

  it('updates an app to the newer version the catalogue has', async () => {
    expect(await appOf(LUMEN)).toMatchObject({ version: '3.2.1' });
    await page.getByRole('button', { name: 'Update Lumen & Co Lights to v3.3.0' }).click();
    await page.getByRole('status').filter({ hasText: 'Lumen & Co Lights was updated.' }).waitFor({ timeout: 30_000 });
    expect(await appOf(LUMEN)).toMatchObject({ version: '3.3.0' });
    await expect.poll(() => page.getByRole('button', { name: /^Update Lumen & Co Lights/ }).count(), processStart).toBe(0);
  });

  it("opens an app's settings page, refuses a value out of range on its field and stores a good one", async () => {
    await page.getByRole('link', { name: 'Settings of Hearth Chime' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings of Hearth Chime' }).waitFor();
    const quietFrom = page.getByLabel('Quiet hours start (hour)');
    await expect(quietFrom.inputValue()).resolves.toBe('22');
    await expect(page.getByLabel('Melody').inputValue()).resolves.toBe('westminster');
    await expectPhoneFirst(page, 'app-settings');

    await quietFrom.fill('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Must be at most 23').waitFor();
    await expect(quietFrom.getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await api.apps.getAppSetting({ id: CHIME, name: 'quiet_from' })).toBe(22);

    await quietFrom.fill('21');
    await page.getByLabel('Melody').fill('big-ben');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings of Hearth Chime saved.' }).waitFor();
    expect(await api.apps.getAppSettings({ id: CHIME })).toMatchObject({ quiet_from: 21, melody: 'big-ben' });

    // Keyboard: back to the list by the link, then the page's heading takes focus.
    await page.getByRole('link', { name: 'All apps' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Apps' }).waitFor();
  });
});
