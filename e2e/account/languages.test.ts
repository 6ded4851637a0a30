import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { DEMO_HUBS, DEMO_USER, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { horizontalOverflow } from '../layout';
import { freePorts } from '../system';
import { buildAccountPages, checkPage, SHOTS } from './pages';

/**
 * The account pages speak the browser's language when it is Dutch or German; the language chosen in their footer
 * applies at once and is saved to the account, whose language the pages then speak after any sign-in; the profile's
 * language does the same. Dates and the orders' amounts are written the language's way.
 */
describe.skipIf(!chromiumPath)('account pages: Dutch and German', () => {
  let browser: Browser;
  let cloud: Cloud;
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: /^(Account|Konto)$/ }).getByRole('link', { name, exact: true });

  beforeAll(async () => {
    buildAccountPages();
    browser = await launchBrowser();
    const { cloud: port } = await freePorts();
    cloud = await startTestCloud('pglite', { port, publicUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await browser?.close();
    await cloud?.stop();
  });

  /** No sideways scrolling at 390 and 1280 px; a screenshot at 390 px as `name`. */
  async function expectFits(page: Page, name: string) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await horizontalOverflow(page), `${name} at ${width} px`).toEqual([]);
    }
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  async function openIn(locale: string) {
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 800 }, bypassCSP: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`[browser] ${error.stack ?? error.message}`));
    await page.goto(`${cloud.url}/`);
    return { page, close: () => context.close() };
  }

  /** From the signed-out page (its sign-in button named `signInButton`), through the cloud's own sign-in page. */
  async function signIn(
    page: Page,
    signInButton: string,
    email: string = DEMO_USER.email,
    password: string = DEMO_USER.password,
  ) {
    await page.getByRole('button', { name: signInButton, exact: true }).click();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  const newcomer = { email: 'nina.nieuw@example.test', password: 'tulip-canal-bicycle-58' };

  it('opens in Dutch for a Dutch browser, signed out, and a sign-up there keeps Dutch as the account’s language', async () => {
    const { page, close } = await openIn('nl-NL');
    await heading(page, 'Je Hearth-account').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
    await checkPage(page, 'languages-nl-signed-out');
    for (const [path, title] of [
      ['/terms', 'Gebruiksvoorwaarden'],
      ['/privacy', 'Privacybeleid'],
    ] as const) {
      await page.goto(`${cloud.url}${path}`);
      await heading(page, title).waitFor();
      await checkPage(page, `languages-nl${path.replace('/', '-')}`);
    }
    await page.goto(`${cloud.url}/signup`);
    await heading(page, 'Maak je Hearth-account').waitFor();
    await page.getByRole('button', { name: 'Account maken', exact: true }).click();
    await page.getByText('Voer je voornaam in.').waitFor();
    await checkPage(page, 'languages-nl-signup-errors');
    await page.getByLabel('Voornaam').fill('Nina');
    await page.getByLabel('E-mailadres').fill(newcomer.email);
    await page.getByLabel('Wachtwoord').fill(newcomer.password);
    await page.getByLabel('Ik accepteer de gebruiksvoorwaarden en het privacybeleid van Hearth').check();
    await page.getByRole('button', { name: 'Account maken', exact: true }).click();
    await heading(page, 'Kijk in je inbox').waitFor();
    await close();

    // In an English browser, the account's Dutch after signing in.
    const english = await openIn('en-US');
    await heading(english.page, 'Your Hearth account').waitFor();
    await signIn(english.page, 'Sign in', newcomer.email, newcomer.password);
    await heading(english.page, 'Hallo Nina').waitFor();
    await expect(nav(english.page, 'Apparaten en bestellingen').isVisible()).resolves.toBe(true);
    await english.close();
  });

  it('follows the account’s English after sign-in; the footer’s choice applies at once and is saved to the account', async () => {
    const { page, close } = await openIn('nl-NL');
    await signIn(page, 'Inloggen');
    // The demo account's language is English, which counts over the browser's guess.
    await heading(page, 'Hello Dana').waitFor();
    await page.getByLabel('Language of these pages').selectOption('nl');
    await heading(page, 'Hallo Dana').waitFor();
    await expect(page.getByRole('heading', { level: 2, name: 'Naam en taal' }).isVisible()).resolves.toBe(true);
    await expectFits(page, 'languages-nl-profile');

    const pages = [
      ['Beveiliging', 'Beveiliging', 'Waar je bent ingelogd'],
      ['Hubs', 'Hubs', 'Een hub claimen'],
      ['Apparaten en bestellingen', 'Apparaten en bestellingen', 'Bestellingen'],
    ] as const;
    for (const [link, title, section] of pages) {
      await nav(page, link).click();
      await heading(page, title).waitFor();
      await page.getByRole('heading', { level: 2, name: section }).waitFor();
      // In Dutch here, fully checked in German below: that it fits a phone and a laptop.
      await expectFits(page, `languages-nl-${link.split(' ')[0]?.toLowerCase()}`);
    }
    // The demo's first order: 399 euros on 20 February 2025, written the Dutch way.
    const orders = page.getByRole('list', { name: 'Bestellingen' });
    await expect.poll(() => orders.textContent()).toMatch(/Bestelling 100231 · Bezorgd · €\s399,00 · 20 feb 2025/);
    await page.goto(`${cloud.url}/hubs/${DEMO_HUBS[0]?.id}`);
    await page.getByRole('heading', { level: 2, name: 'Over deze hub' }).waitFor();
    await expect(page.getByText('Je rol').isVisible()).resolves.toBe(true);
    await checkPage(page, 'languages-nl-hub');

    await nav(page, 'Apparaten en bestellingen').click();
    await page.getByLabel('Taal van deze pagina’s').selectOption('de');
    await heading(page, 'Geräte und Bestellungen').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    // The whole page changed, the navigation and the footer too, and the amount and the date are German.
    await expect(nav(page, 'Sicherheit').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Datenschutz' }).isVisible()).resolves.toBe(true);
    const bestellungen = page.getByRole('list', { name: 'Bestellungen' });
    await expect.poll(() => bestellungen.textContent()).toMatch(/Bestellung 100231 · Zugestellt · 399,00\s€ · 20\.02\.2025/);
    await checkPage(page, 'languages-de-devices');
    // Saved to the account: the profile's language (read from the cloud) follows.
    await nav(page, 'Profil').click();
    await heading(page, 'Hallo Dana').waitFor();
    await expect.poll(() => page.getByLabel('Sprache', { exact: true }).inputValue()).toBe('de');
    await nav(page, 'Sicherheit').click();
    await page.getByRole('heading', { level: 2, name: 'Wo du angemeldet bist' }).waitFor();
    // This sign-in's dates, written the German way (29.11.2026, 22:41).
    expect(await page.getByRole('list', { name: 'Anmeldungen' }).textContent()).toMatch(
      /Zuletzt genutzt \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/,
    );
    await checkPage(page, 'languages-de-security');
    await close();
  });

  it('speaks the account’s German in another browser after sign-in, and the profile’s language applies at once', async () => {
    const { page, close } = await openIn('en-US');
    await signIn(page, 'Sign in');
    await heading(page, 'Hallo Dana').waitFor();
    await expect(nav(page, 'Geräte und Bestellungen').isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await checkPage(page, 'languages-de-profile');
    await page.getByLabel('Sprache', { exact: true }).selectOption('nl');
    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await page.getByText('Je gegevens zijn opgeslagen.').waitFor();
    await expect(nav(page, 'Profiel').isVisible()).resolves.toBe(true);
    await close();
  });
});
