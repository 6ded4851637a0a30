import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../../packages/cloud/src/services/mail/sink';
import { chromiumPath, launchBrowser } from '../browser';
import { type RunningSystem, startSystem } from '../system';

const INTERNAL_SECRET = 'e2e-internal-secret-0123456789abcdef';
const DEMO = { email: 'demo@hearth.test', password: 'hearth-demo-password' };

/** The support form end to end: the real cloud, hubs, sign-in page and SMTP, driven in Chromium. */
describe.skipIf(!chromiumPath)('support form', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  const sink = new SmtpSink();

  const internalToken = async () => {
    const response = await fetch(`${system.cloudUrl}/cloud/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`hearth-internal:${INTERNAL_SECRET}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };

  /** A page of the signed-in form, showing its first step. */
  async function openForm(): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${system.cloudUrl}/support/`);
    await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
    return page;
  }
  const step = (page: Page, name: string) => page.locator(`section[data-step="${name}"]`).last();

  beforeAll(async () => {
    const smtp = await sink.start();
    [system, browser] = await Promise.all([
      startSystem({ SMTP_URL: `smtp://${smtp.host}:${smtp.port}`, HEARTH_INTERNAL_CLIENT_SECRET: INTERNAL_SECRET }),
      launchBrowser(),
    ]);
    context = await browser.newContext();
    // Sign in once through the cloud's authorise page (authorization code with PKCE); the token stays in storage.
    const page = await context.newPage();
    await page.goto(`${system.cloudUrl}/support/`);
    await page.getByRole('heading', { name: 'How can we help?' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Please sign in so we can help you best.').count()).toBe(1);
    expect(await page.getByRole('link', { name: "Can't sign in?" }).getAttribute('href')).toContain(
      '/api/helpdesk/articles/cant-sign-in',
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
    expect(page.url()).not.toContain('code=');
    await page.close();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
    await sink.stop();
  });

  it('account → Name / E-mail ends on the knowledge base with real articles', async () => {
    const page = await openForm();
    await page.getByRole('button', { name: /Dana Demo/ }).click();
    await step(page, 'accountCategory').getByRole('button', { name: 'Name / E-mail' }).click();
    const kb = step(page, 'knowledgeBaseFinal');
    const link = kb.getByRole('link', { name: 'Changing the name or e-mail address of your account' });
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    const article = await fetch((await link.getAttribute('href')) as string);
    expect(await article.text()).toContain('Edit profile');
    expect(await kb.getByRole('button', { name: 'Contact Support' }).count()).toBe(0);
    await page.close();
  });

  it('account → Other: a ticket with attachments is stored with its files and the confirmation e-mail arrives', async () => {
    const page = await openForm();
    await page.getByRole('button', { name: /Dana Demo/ }).click();
    await step(page, 'accountCategory').getByRole('button', { name: 'Other' }).click();
    const ticket = step(page, 'ticket');
    await ticket.getByRole('button', { name: 'Send' }).click();
    await ticket.getByText('Please add a subject.').waitFor();
    await ticket.getByText('A minimum of 20 characters is required to describe your issue.').waitFor();
    await ticket.getByPlaceholder("What's your question about?").fill('Cannot change my language');
    await ticket
      .getByPlaceholder('Please include as much details as you can.')
      .fill('The language setting resets every time I sign in.');
    await ticket.getByLabel('Attachments').setInputFiles([
      { name: 'screenshot.png', mimeType: 'image/png', buffer: Buffer.alloc(2048, 1) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('steps to reproduce') },
    ]);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/helpdesk/ticket') && r.request().method() === 'POST');
    await ticket.getByRole('button', { name: 'Send' }).click();
    const response = await created;
    const { id } = (await response.json()) as { id: string };
    const dialog = page.getByRole('dialog', { name: 'Thanks for your message!' });
    await dialog.waitFor();
    await dialog
      .getByText('Your e-mail confirmation is on its way. Our support team is working to get back to you as soon as possible.')
      .waitFor();
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');

    const stored = await fetch(`${system.cloudUrl}/api/helpdesk/ticket/${id}`, {
      headers: { authorization: `Bearer ${await internalToken()}` },
    });
    const body = (await stored.json()) as { ticket: Record<string, unknown>; attachments: { filename: string; size: number }[] };
    expect(body.ticket).toMatchObject({
      subject: 'Cannot change my language',
      email: DEMO.email,
      supportFormPath: 'Dana Demo → Other',
      tags: ['account', 'account_other'],
    });
    expect(body.attachments.map((a) => [a.filename, a.size]).sort()).toEqual([
      ['notes.txt', 18],
      ['screenshot.png', 2048],
    ]);
    const mail = await sink.waitFor((m) => m.subject.includes('Cannot change my language'), 10_000);
    expect(mail.to).toContain(DEMO.email);
    await page.close();
  });

  it('Pro hub → Zigbee: the ticket carries the hub facts, diagnostics and the under-voltage ratio', async () => {
    const page = await openForm();
    await page.getByRole('button', { name: /^Home/ }).click();
    const hubStep = step(page, 'hubCategoryPro');
    expect(await hubStep.getByRole('button', { name: '868 MHz' }).count()).toBe(0);
    await hubStep.getByRole('button', { name: 'Zigbee' }).click();
    await step(page, 'knowledgeBase').getByRole('link', { name: 'Zigbee devices' }).waitFor();
    await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
    const ticket = step(page, 'ticket');
    await ticket.getByPlaceholder("What's your question about?").fill('Zigbee drops');
    await ticket.getByPlaceholder('Please include as much details as you can.').fill('My Zigbee sensors drop off every night.');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/helpdesk/ticket'));
    await ticket.getByRole('button', { name: 'Send' }).click();
    const payload = (await sent).postDataJSON() as Record<string, unknown>;
    expect(payload).toMatchObject({
      homeyId: system.hubs[0]?.id,
      homeyModel: 'hearth-pro-5q',
      homeyPlatform: 'local',
      supportFormPath: 'Home → Zigbee',
    });
    expect(payload.tags).toEqual(expect.arrayContaining(['zigbee', 'hearth-pro-5q']));
    expect(payload.diagnosticReport).not.toBe('');
    expect(['yes', 'no']).toContain(payload.underVoltageOccured);
    await page.getByRole('dialog', { name: 'Thanks for your message!' }).waitFor();
    await page.close();
  });
});
