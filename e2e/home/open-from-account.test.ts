import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { call, createUser, startTestCloud } from '../../packages/cloud/src/testing';
import { startFreshHub } from '../account/hub';
import { buildAccountPages, checkPage } from '../account/pages';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildHomeApp, expectPhoneFirst } from './setup';

/**
 * The account pages and the household web app lead to each other: a real cloud and two real hub processes, both
 * claimed by one person. "Open the hub" on the account's hub page lands in that hub's web app, signed in through
 * the person's cloud sign-in without asking again; the web app names the hub, switches to the other hub (through
 * the account pages, which know its addresses) and links back to the account. No CSP is bypassed: the account
 * pages' own policy lets them ask whether a hub's local address answers.
 */
describe.skipIf(!chromiumPath)('account pages and the household web app lead to each other', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cloud: Cloud;
  let kitchen: Awaited<ReturnType<typeof startFreshHub>>;
  let cabin: Awaited<ReturnType<typeof startFreshHub>>;
  let kitchenUrl: string;
  let cabinUrl: string;
  const owner = { email: 'otto.opener@example.test', password: 'walnut-breeze-copper-62' };

  beforeAll(async () => {
    buildAccountPages();
    buildHomeApp();
    const ports = await freePorts();
    const url = `http://127.0.0.1:${ports.cloud}`;
    cloud = await startTestCloud('pglite', { port: ports.cloud, publicUrl: url });
    // One after the other: two hubs starting at once on a loaded machine may miss the claim code's deadline.
    kitchen = await startFreshHub(url, ports.hubBase, 'Kitchen hub');
    cabin = await startFreshHub(url, ports.hubBase + 1, 'Cabin hub');
    kitchenUrl = `http://127.0.0.1:${ports.hubBase}`;
    cabinUrl = `http://127.0.0.1:${ports.hubBase + 1}`;
    const account = await createUser(cloud, owner.email, owner.password);
    for (const hub of [kitchen, cabin])
      expect((await call(cloud, 'POST', '/cloud/homey/claim', account.token, { code: hub.code })).status).toBe(200);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`[browser] ${error.stack ?? error.message}`));
  }, 300_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await kitchen?.stop();
    await cabin?.stop();
    await cloud?.stop();
  });

  it('opens a hub from the account’s hub page in its web app, signed in, named, with the other hub and the account', async () => {
    await page.goto(`${cloud.url}/hubs`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Hubs' }).waitFor();
    await page.getByRole('link', { name: 'Open Cabin hub' }).waitFor();
    await checkPage(page, 'hubs-open-links');

    await page.getByRole('link', { name: 'Open Kitchen hub' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: 30_000 });
    // The local address answered, so the app is the one the hub serves there, signed in as its owner.
    expect(new URL(page.url()).origin).toBe(kitchenUrl);
    const token = await page.evaluate(() => localStorage.getItem('hearth-home:token'));
    const me = await (
      await fetch(`${kitchenUrl}/api/manager/users/user/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(me).toMatchObject({ role: 'owner' });

    const switcher = page.getByRole('button', { name: 'Kitchen hub: switch hub or open your account' });
    await switcher.waitFor();
    await switcher.click();
    await page.getByRole('link', { name: 'Cabin hub' }).waitFor();
    expect(await page.getByRole('link', { name: 'Your Hearth account' }).getAttribute('href')).toBe(`${cloud.url}/hubs`);
    await expectPhoneFirst(page, 'hub-switcher-open');
    // Escape closes the list and gives focus back to the hub's name.
    await page.keyboard.press('Escape');
    expect(await page.getByRole('link', { name: 'Cabin hub' }).isVisible()).toBe(false);
    expect(await switcher.evaluate((element) => element === document.activeElement)).toBe(true);

    await switcher.click();
    await page.getByRole('link', { name: 'Cabin hub' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(cabinUrl);
    await page.getByRole('button', { name: 'Cabin hub: switch hub or open your account' }).waitFor();
    await expectPhoneFirst(page, 'hub-switcher-closed');

    // Opened again while signed in: straight to the home, not a page that is not there.
    await page.goto(`${cabinUrl}/sign-in?with=cloud`);
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/');

    await page.getByRole('button', { name: 'Cabin hub: switch hub or open your account' }).click();
    await page.getByRole('link', { name: 'Your Hearth account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hubs' }).waitFor();
  }, 180_000);

  it('says so when the hub to open is not one of the person’s', async () => {
    await page.goto(`${cloud.url}/hubs/000000000000000000000000/open`);
    await page.getByRole('heading', { level: 1, name: 'Hub not found' }).waitFor();
    await checkPage(page, 'open-hub-not-found');
  });
});
