import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { horizontalOverflow, screenshot } from '../layout';
import { expectPhoneFirst, type HomeApp, OWNER, openHomeApp } from './setup';

/** A page whose browser asks for `locale` first (navigator.languages and Accept-Language), on the app's hub. */
async function pageIn(app: HomeApp, locale: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await app.browser.newContext({ locale, viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[browser] ${error.stack ?? error.message}`));
  await page.goto(`${app.hub.url}/`);
  return { page, close: () => context.close() };
}

/** Each section's address and its heading in German. */
const GERMAN_PAGES = [
  ['/flows', 'Flows'],
  ['/apps', 'Apps'],
  ['/insights', 'Verlauf'],
  ['/variables', 'Variablen'],
  ['/people', 'Personen'],
  ['/alarms', 'Wecker'],
  ['/moods', 'Stimmungen'],
  ['/notifications', 'Mitteilungen'],
  ['/zones', 'Zonen'],
  ['/add-device', 'Gerät hinzufügen'],
  ['/system/mqtt', 'MQTT-Brücke'],
] as const;

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

/**
 * The household web app speaks the browser's language when it is Dutch or German (English otherwise), and its
 * switcher changes the language at once and for the next visit in this browser.
 */
describe.skipIf(!chromiumPath)('household web app: Dutch and German', () => {
  let app: HomeApp;
  beforeAll(async () => {
    app = await openHomeApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('opens in Dutch for a Dutch browser, switches to German and back to English, and keeps the choice', async () => {
    const { page, close } = await pageIn(app, 'nl-NL');
    await heading(page, 'Inloggen op je hub').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
    await page.getByLabel('Gebruikersnaam').fill(OWNER.username);
    await page.getByLabel('Wachtwoord').fill(OWNER.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await heading(page, 'Thuis').waitFor();
    const nav = page.getByRole('navigation', { name: 'Onderdelen' });
    await expect(nav.getByRole('button', { name: 'Meer' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Uitloggen' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'home-languages-nl-home-390');
    await expectPhoneFirst(page, 'languages-nl-home');

    await nav.getByRole('button', { name: 'Meer' }).click();
    await nav.getByRole('link', { name: 'Systeem', exact: true }).click();
    await heading(page, 'Systeem').waitFor();
    await page.getByLabel('Taal van de hub').waitFor();
    await expect(page.getByText('Weergave op dit apparaat').isVisible()).resolves.toBe(true);
    await screenshot(page, 'home-languages-nl-system-390');

    await page.getByLabel('Taal van deze app').selectOption('de');
    await heading(page, 'System').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByLabel('Sprache des Hubs').waitFor();
    // Everything on the page changed, the sections' navigation too (it is not rendered by the page).
    const navDe = page.getByRole('navigation', { name: 'Bereiche' });
    await expect(navDe.getByRole('link', { name: 'Zuhause', exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Darstellung auf diesem Gerät').isVisible()).resolves.toBe(true);
    await expectPhoneFirst(page, 'languages-de-system');

    // The choice holds on the next visit, although the browser still asks for Dutch.
    await page.goto(`${app.hub.url}/`);
    await heading(page, 'Zuhause').waitFor();
    await expect(navDe.getByRole('button', { name: 'Mehr' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'home-languages-de-home-390');

    await page.getByLabel('Sprache dieser App').selectOption('en');
    await heading(page, 'Home').waitFor();
    const navEn = page.getByRole('navigation', { name: 'Sections' });
    await expect(navEn.getByRole('button', { name: 'More' }).isVisible()).resolves.toBe(true);
    await close();
  });

  it('opens in German for an Austrian browser, with numbers written the German way', async () => {
    const { page, close } = await pageIn(app, 'de-AT');
    await heading(page, 'Bei deinem Hub anmelden').waitFor();
    await page.getByLabel('Benutzername').fill(OWNER.username);
    await page.getByLabel('Passwort', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await heading(page, 'Zuhause').waitFor();
    await page.goto(`${app.hub.url}/energy`);
    await heading(page, 'Energie').waitFor();
    // The live figure in German, its thousands grouped the Austrian way ("1 960 W"; English would write "1,960 W").
    const using = await page.getByText(/^Jetzt .* W Verbrauch$/).textContent();
    expect(using).toMatch(/^Jetzt \d{1,3}(\s\d{3})* W Verbrauch$/);
    await screenshot(page, 'home-languages-de-energy-390');
    await expectPhoneFirst(page, 'languages-de-energy');

    // German's longer words still fit a 320 px phone on every section's page, and a desktop's width.
    for (const [path, title] of GERMAN_PAGES) {
      await page.setViewportSize({ width: 320, height: 800 });
      await page.goto(`${app.hub.url}${path}`);
      await heading(page, title).waitFor();
      expect(await horizontalOverflow(page), `${title} at 320 px`).toEqual([]);
      await page.setViewportSize({ width: 390, height: 800 });
      await screenshot(page, `home-languages-de${path.replaceAll('/', '-')}-390`);
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await horizontalOverflow(page), `${title} at 1280 px`).toEqual([]);
      await screenshot(page, `home-languages-de${path.replaceAll('/', '-')}-1280`);
    }
    await close();
  });

  it('stays English for a browser that asks for a language it does not speak', async () => {
    const { page, close } = await pageIn(app, 'fr-FR');
    await heading(page, 'Sign in to your hub').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await expect(page.getByLabel('Language of this app').inputValue()).resolves.toBe('en');
    await close();
  });
});
