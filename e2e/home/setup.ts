import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type CoreHubAPI, HubAPI } from '../../packages/client/src/node';
import { type RunningHub, startRealHub } from '../../packages/client/src/testing/servers';
import { seedDemoHub } from '../../packages/hub/src/runtime/seed';
import { expectAccessible, launchBrowser } from '../browser';
import { horizontalOverflow, screenshot, smallTapTargets } from '../layout';
import { builtForRun } from '../system';

export const root = join(import.meta.dirname, '..', '..');
export const homeAppDir = join(root, 'packages/home/dist');
const WIDTHS = [320, 390, 768, 1280] as const;
export const OWNER = { username: 'owner', password: 'kettle-harbour-plum-9' };
/** The demo world's zones in tree order (each parent before its children, siblings in their order). */
export const DEMO_ZONES_IN_TREE_ORDER = [
  'Home',
  'Ground floor',
  'Living room',
  'Kitchen',
  'Hallway',
  'First floor',
  'Bedroom',
  'Bathroom',
  'Office',
  'Garden',
];
const TAPPABLE = 'a[href]:not(p a, dd a), button, input, select, textarea, summary, [role="switch"]';

/** At each width: nothing wider than the window, every control 44 px to tap; then axe. */
export async function expectPhoneFirst(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    expect(await horizontalOverflow(page), `${name} at ${width} px`).toEqual([]);
    expect(await smallTapTargets(page, TAPPABLE), `${name} at ${width} px`).toEqual([]);
    await screenshot(page, `home-${name}-${width}`);
  }
  await page.setViewportSize({ width: 390, height: 800 });
  await expectAccessible(page, name, ['region']);
}

export interface HomeApp {
  hub: RunningHub;
  api: CoreHubAPI;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The demo world's device named `name`. */
  deviceId(name: string): Promise<string>;
  /** Signs the page in with the owner's local credentials, landing on the home page. */
  signIn(): Promise<void>;
  close(): Promise<void>;
}

/** Builds the household web app into `homeAppDir`, where hubs serve it from. */
export const buildHomeApp = (): void => {
  if (builtForRun()) return;
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@hearth/home'], { cwd: root, stdio: 'ignore' });
};

/**
 * The household web app, freshly built, served by a real hub with the demo world (the owner with local
 * credentials), and a phone-sized Chromium page on it whose console errors are printed. The app's own
 * Content-Security-Policy applies: nothing here bypasses it.
 */
export async function openHomeApp(): Promise<HomeApp> {
  buildHomeApp();
  const hub = await startRealHub({ homeAppDir });
  seedDemoHub(hub.hub, { historyDays: 1 });
  const api = await HubAPI.local({ address: hub.url, token: hub.token });
  await api.users.updateUserMeLocalCredentials(OWNER);
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') console.log(`[browser] ${message.text()}`);
  });
  page.on('pageerror', (error) => console.log(`[browser] ${error.stack ?? error.message}`));
  return {
    hub,
    api,
    browser,
    context,
    page,
    async deviceId(name) {
      const devices = Object.values(await api.devices.getDevices()) as { id: string; name: string }[];
      const found = devices.find((device) => device.name === name);
      if (!found) throw new Error(`No device named ${name}`);
      return found.id;
    },
    async signIn() {
      await page.goto(`${hub.url}/`);
      await page.getByLabel('Username').fill(OWNER.username);
      await page.getByLabel('Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    },
    async close() {
      await browser.close();
      api.destroy();
      await hub.stop();
    },
  };
}

/** Opens a page of the app by its link in the navigation (behind "More" on a phone) and waits for its heading. */
export async function openByNav(page: Page, link: string): Promise<void> {
  const target = page.getByRole('navigation').getByRole('link', { name: link, exact: true });
  if (!(await target.isVisible())) await page.getByRole('navigation').getByRole('button', { name: 'More' }).click();
  await target.click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** A second browser signed in to the app with a new personal access token of the owner's holding only `scopes`. */
export async function pageWithScopes(app: HomeApp, scopes: string[]): Promise<{ page: Page; close(): Promise<void> }> {
  const pat = (await app.api.users.createPersonalAccessToken({ name: `Only ${scopes.join(' ')}`, scopes })) as unknown as {
    token: string;
  };
  const context = await app.browser.newContext({ viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${app.hub.url}/`);
  await page.getByRole('button', { name: 'Sign in with an access token' }).click();
  await page.getByLabel('Access token').fill(pat.token);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
  return { page, close: () => context.close() };
}

/** A suite's app, opened and signed in before its tests and closed after them; call the answer inside a test. */
export function signedInHomeApp(): () => HomeApp {
  let app: HomeApp | undefined;
  beforeAll(async () => {
    app = await openHomeApp();
    await app.signIn();
  });
  afterAll(async () => {
    await app?.close();
  });
  return () => {
    if (!app) throw new Error('The home app is not open yet');
    return app;
  };
}

/**
 * The two demo devices the flow tests drive, both switched off first, with a reader of a device's on/off value;
 * and the scripts the page loads from now on (to see an editor come on demand, not with the first load).
 */
export async function lampAndCoffeeOff(app: HomeApp) {
  const { page, api } = app;
  const lampId = await app.deviceId('Desk lamp');
  const coffeeId = await app.deviceId('Coffee machine');
  const onoff = async (deviceId: string) =>
    ((await api.devices.getDevice({ id: deviceId })) as unknown as { capabilitiesObj: { onoff: { value: unknown } } })
      .capabilitiesObj.onoff.value;
  await api.devices.setCapabilityValue({ deviceId: lampId, capabilityId: 'onoff', value: false });
  await api.devices.setCapabilityValue({ deviceId: coffeeId, capabilityId: 'onoff', value: false });
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  return { lampId, coffeeId, onoff, scripts };
}
