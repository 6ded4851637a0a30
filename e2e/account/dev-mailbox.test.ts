import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { call, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildAccountPages, checkPage } from './pages';

// A newcomer on the demo (no SMTP server) signs up and reads the verification mail in the development mailbox.
describe.skipIf(!chromiumPath)('the development mailbox in a browser', () => {
  let browser: Browser;
  let cloud: Cloud;
  let context: BrowserContext;
  let page: Page;
  const email = 'noor.mailbox@example.test';

  beforeAll(async () => {
    buildAccountPages();
    const ports = await freePorts();
    const url = `http://127.0.0.1:${ports.cloud}`;
    cloud = await startTestCloud('pglite', { port: ports.cloud, publicUrl: url, devMailbox: true });
    browser = await launchBrowser();
    // The pages' own policy stays on: the mailbox must work without any script.
    context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await cloud?.stop();
  });

  it('lists the mail newest first under a development label, fitting 320 to 1280 px', async () => {
    const signUp = { email, password: 'quiet-lantern-meadow-3', firstname: 'Noor', lastname: 'Mailbox', acceptTerms: true };
    expect((await call(cloud, 'POST', '/cloud/signup', null, signUp)).status).toBe(202);
    await cloud.context.mail.sink?.waitFor((m) => m.to.includes(email));
    await page.goto(`${cloud.url}/dev/mail`);
    await page.getByRole('heading', { level: 1, name: 'Mail' }).waitFor();
    expect(await page.getByRole('note').textContent()).toContain('Development mailbox.');
    const list = page.getByRole('list', { name: 'Mail, newest first' });
    expect(await list.getByRole('link').first().textContent()).toContain('Verify your Hearth e-mail address');
    await checkPage(page, 'dev-mailbox');
  });

  it("opens a mail whose HTML part's link leads to the account pages", async () => {
    await page.getByRole('link', { name: /Verify your Hearth e-mail address/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Verify your Hearth e-mail address' }).waitFor();
    expect(await page.locator('dd', { hasText: email }).count()).toBe(1);
    await checkPage(page, 'dev-mail-message');
    const link = page.getByRole('link', { name: /\/verify-email#token=/ });
    const href = (await link.getAttribute('href')) as string;
    expect(href.startsWith(`${cloud.url}/verify-email#token=`)).toBe(true);

    await page.getByRole('link', { name: 'The mail as HTML' }).click();
    await page.getByText('Welcome to Hearth.').waitFor();
    await page.locator(`a[href="${href}"]`).click();
    await page.getByRole('heading', { level: 1, name: 'Address verified' }).waitFor();
  });

  it('opens the text part’s link as a link too', async () => {
    await page.goto(`${cloud.url}/dev/mail`);
    await page.getByRole('link', { name: /Verify your Hearth e-mail address/ }).click();
    await page.getByRole('link', { name: /\/verify-email#token=/ }).click();
    await page.waitForURL(/\/verify-email/);
    // The link was used above; the page says so instead of verifying twice.
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).not.toBe('Address verified');
  });
});
