import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { DEMO_USER, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, expectAccessible, launchBrowser } from '../browser';
import { horizontalOverflow, screenshot } from '../layout';
import { builtForRun, freePorts } from '../system';

const step = (page: Page, name: string) => page.locator(`section[data-step="${name}"]`).last();

/**
 * The support form speaks the browser's language when it is Dutch or German, and its switcher changes every text of
 * the form at once (the seed's English texts are the unit tests'); dates are written the language's way. On a test
 * cloud alone: the steps here need the account, its orders and subscriptions, not the hubs.
 */
describe.skipIf(!chromiumPath)('support form: Dutch and German', () => {
  let browser: Browser;
  let cloud: Cloud;

  beforeAll(async () => {
    if (!builtForRun())
      execFileSync('npm', ['run', 'build', '--silent', '-w', '@hearth/support-form'], {
        cwd: join(import.meta.dirname, '..', '..'),
        stdio: 'ignore',
      });
    browser = await launchBrowser();
    const { cloud: port } = await freePorts();
    cloud = await startTestCloud('pglite', { port, publicUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await browser?.close();
    await cloud?.stop();
  });

  /** Fits 390 and 1280 px without sideways scrolling, passes axe, and leaves a screenshot of each width. */
  async function expectFits(page: Page, name: string) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await horizontalOverflow(page), `${name} at ${width} px`).toEqual([]);
      await screenshot(page, `support-languages-${name}-${width}`);
    }
    await expectAccessible(page, name, ['region']);
  }

  it('opens in Dutch for a Dutch browser, and its switcher turns every step German', async () => {
    const context = await browser.newContext({ locale: 'nl-NL', viewport: { width: 390, height: 800 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${cloud.url}/support/`);
    await page.getByRole('heading', { name: 'Waarmee kunnen we helpen?' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
    await expect(page.getByRole('link', { name: 'Lukt inloggen niet?' }).isVisible()).resolves.toBe(true);
    await expectFits(page, 'nl-login');
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await page.getByLabel('E-mail address').fill(DEMO_USER.email);
    await page.getByLabel('Password').fill(DEMO_USER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Hoi Dana, waarmee kunnen we helpen?' }).waitFor({ timeout: 30_000 });
    const main = step(page, 'mainCategory');
    await main.getByRole('heading', { name: 'Waar gaat je vraag over?' }).waitFor();
    // The demo's Premium subscription, since 15 June 2025, and an order's date, the Dutch way.
    await main.getByText('Sinds 15 juni 2025').waitFor();
    await expect(main.getByRole('button', { name: /Bestelling #100231.*20 februari 2025/ }).isVisible()).resolves.toBe(true);
    await expectFits(page, 'nl-main');
    await main.getByRole('button', { name: /Dana Demo/ }).click();
    const account = step(page, 'accountCategory');
    await account.getByRole('heading', { name: 'Waarmee kunnen we je helpen bij je account?' }).waitFor();
    await account.getByRole('button', { name: 'Overig', exact: true }).click();
    const ticket = step(page, 'ticket');
    await ticket.getByRole('heading', { name: 'We helpen je graag.' }).waitFor();
    await ticket.getByRole('button', { name: 'Versturen', exact: true }).click();
    await ticket.getByText('Voeg een onderwerp toe.').waitFor();
    await expect(ticket.getByLabel('Bericht').isVisible()).resolves.toBe(true);
    await expectFits(page, 'nl-ticket');

    await page.getByLabel('Taal van dit formulier').selectOption('de');
    await page.getByRole('heading', { name: 'Hallo Dana, wie können wir helfen?' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    // The answers given so far stay; every step speaks German, the validation message too.
    await main.getByText('Seit 15. Juni 2025').waitFor();
    await expect(account.getByRole('button', { name: 'Sonstiges', exact: true }).isVisible()).resolves.toBe(true);
    await expect(account.getByText('Sicherheit', { exact: true }).isVisible()).resolves.toBe(true);
    await ticket.getByRole('heading', { name: 'Wir helfen dir gern.' }).waitFor();
    await expect(ticket.getByText('Bitte gib einen Betreff an.').isVisible()).resolves.toBe(true);
    await expect(ticket.getByLabel('Nachricht').isVisible()).resolves.toBe(true);
    await expect(ticket.getByText('oder hierher ziehen').isVisible()).resolves.toBe(true);
    await expectFits(page, 'de-ticket');
    await context.close();
  });
});
