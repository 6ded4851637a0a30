import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { call, createUser, internalToken, readJson, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildAccountPages, checkPage } from './pages';

// Someone without an account opens a household invitation, signs up on the way (reading the verification mail in
// the demo's development mailbox) and lands back on the invitation, not on their profile.
describe.skipIf(!chromiumPath)('an invitation opened by someone without an account', () => {
  let browser: Browser;
  let cloud: Cloud;
  let context: BrowserContext;
  let page: Page;
  let inviteLink = '';
  const newcomer = { email: 'rosa.newcomer@example.test', password: 'amber-kettle-harbour-58' };

  beforeAll(async () => {
    buildAccountPages();
    const ports = await freePorts();
    const url = `http://127.0.0.1:${ports.cloud}`;
    cloud = await startTestCloud('pglite', { port: ports.cloud, publicUrl: url, devMailbox: true });
    const owner = await createUser(cloud, 'host.inviter@example.test');
    const registered = await readJson(
      await call(cloud, 'POST', '/cloud/homey/', await internalToken(cloud), {
        data: { name: 'Lake house', model: 'hearth-pro-mini-6q' },
      }),
    );
    const hubId = registered.homey._id as string;
    expect((await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: registered.claimToken })).status).toBe(200);
    const invited = await call(cloud, 'POST', `/cloud/homey/${hubId}/invite`, owner.token, {
      email: newcomer.email,
      role: 'user',
    });
    expect(invited.status).toBe(201);
    const mail = await cloud.context.mail.sink?.waitFor(
      (m) => m.to.includes(newcomer.email) && m.subject.includes('invites you'),
    );
    inviteLink = /(http:\/\/\S+\/invite#token=\S+)/.exec(mail?.text ?? '')?.[1] as string;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await cloud?.stop();
  });

  it('says who invites them to what, and to which address, before they sign in', async () => {
    await page.goto(inviteLink);
    await page.getByRole('heading', { name: 'Household invitation' }).waitFor();
    await page.getByText('Test host.inviter invites you to the household of Lake house as user.').waitFor();
    expect(await page.locator('strong', { hasText: newcomer.email }).count()).toBe(1);
    await checkPage(page, 'invite-signed-out-offer');
  });

  it('signs up, verifies through the development mailbox and lands back on the invitation', async () => {
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your Hearth account' }).waitFor();
    await page.getByLabel('First name').fill('Rosa');
    await page.getByLabel('Last name').fill('Newcomer');
    await page.getByLabel('E-mail address').fill(newcomer.email);
    await page.getByLabel('Password', { exact: true }).fill(newcomer.password);
    await page.getByLabel('I accept the Hearth terms of service and privacy policy').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.getByText('Your invitation is waiting: signing in takes you back to it.').waitFor();

    // The newcomer reads their mail where the demo keeps it, in this same tab.
    await page.goto(`${cloud.url}/dev/mail`);
    await page.getByRole('link', { name: /Verify your Hearth e-mail address/ }).click();
    await page.getByRole('link', { name: /\/verify-email#token=/ }).click();
    await page.getByRole('heading', { name: 'Address verified' }).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(newcomer.email);
    await page.getByLabel('Password').fill(newcomer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByText('invites you to the household of Lake house as user.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/invite');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('You joined the household.').waitFor();
  });
});
