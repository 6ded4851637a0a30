import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { createUser, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { buildHomeApp, expectPhoneFirst } from '../home/setup';
import { freePorts } from '../system';
import { startFreshHub } from './hub';
import { buildAccountPages, checkPage, SHOTS } from './pages';

/**
 * Claiming a hub nobody owns, as a person in front of it does: a real cloud and a real hub process that registered
 * unowned. The hub's own web page says it is not set up yet and shows the short code (and its QR); the person reads
 * it there, types it on the account pages, becomes the owner and opens the hub, signed in as its owner.
 */
describe.skipIf(!chromiumPath)('claiming an unowned hub from its own web page', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cloud: Cloud;
  let hub: Awaited<ReturnType<typeof startFreshHub>>;
  let hubUrl: string;
  const person = { email: 'cleo.claimer@example.test', password: 'lantern-meadow-quartz-48' };

  beforeAll(async () => {
    buildAccountPages();
    buildHomeApp();
    const ports = await freePorts();
    const url = `http://127.0.0.1:${ports.cloud}`;
    cloud = await startTestCloud('pglite', { port: ports.cloud, publicUrl: url });
    hub = await startFreshHub(url, ports.hubBase, 'Boathouse hub');
    hubUrl = `http://127.0.0.1:${ports.hubBase}`;
    await createUser(cloud, person.email, person.password);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`[browser] ${error.stack ?? error.message}`));
  }, 300_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await hub?.stop();
    await cloud?.stop();
  });

  it('reads the code on the hub’s page, claims it on the account pages and opens the hub as its owner', async () => {
    await page.goto(`${hubUrl}/`);
    await page.getByRole('heading', { level: 1, name: 'This hub is not set up yet — claim it' }).waitFor({ timeout: 30_000 });
    const shown = (await page.getByTestId('claim-code').textContent())?.trim() ?? '';
    expect(shown).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    // The code on the page is the one the hub printed in its log, and the QR is there to scan.
    expect(shown).toBe(hub.code);
    expect(await page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
    // No sign-in form while nobody owns the hub: there is nobody to sign in.
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
    await expectPhoneFirst(page, 'claim-unclaimed-hub');

    // The claim link the QR carries opens the account's claim page with the code filled in (after signing in).
    const claimLink = await page.getByRole('link', { name: 'Claim it in your Hearth account' }).getAttribute('href');
    expect(claimLink).toBe(`${cloud.url}/hubs/claim#code=${shown}`);
    await page.goto(claimLink as string);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Claim a hub' }).waitFor();
    const field = page.getByLabel('Claim code');
    expect(await field.inputValue()).toBe(shown);

    // A mistyped code: a sentence beside the field, and the hub stays unclaimed.
    await field.fill(`${shown.slice(0, 8)}${shown[8] === 'A' ? 'B' : 'A'}`);
    await page.getByRole('button', { name: 'Claim hub' }).click();
    await page.getByText('This code does not claim any hub. Check it against the one the hub shows now.').waitFor();
    await checkPage(page, 'claim-wrong-code');

    // Typed as a person types it: lower case, no dash.
    await field.fill(shown.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: 'Claim hub' }).click();
    await page.getByText('Boathouse hub is yours now.').waitFor();
    await checkPage(page, 'claim-done');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'claim-done-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });

    await page.getByRole('link', { name: 'Open Boathouse hub' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(hubUrl);
    const token = await page.evaluate(() => localStorage.getItem('hearth-home:token'));
    const me = await (
      await fetch(`${hubUrl}/api/manager/users/user/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(me).toMatchObject({ role: 'owner' });
    // The hub no longer shows a code.
    const claim = await (await fetch(`${hubUrl}/api/manager/cloud/claim`)).json();
    expect(claim).toMatchObject({ state: 'claimed', code: null });
  }, 240_000);
});
