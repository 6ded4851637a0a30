import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { horizontalOverflow, screenshot, smallTapTargets, WIDTHS } from '../layout';
import { DEMO, step, stepNames, useSupportForm } from './setup';

/**
 * The support form's screens at every width, how it is served and its session, end to end on one running system (its
 * paths are in paths.test.ts).
 */
describe.skipIf(!chromiumPath)('support form', () => {
  const supportForm = useSupportForm();

  describe('screens, serving and the session', () => {
    const { openForm, signedInContext } = supportForm;

    it('a phone-sized viewport shows carousels and still completes a path', async () => {
      const { system, browser } = supportForm;
      const phone = await signedInContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await phone.newPage();
      await page.goto(`${system.cloudUrl}/support/`);
      await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
      expect(await page.locator('.carousel').count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: /Dana Demo/ }).tap();
      // The first tile of each carousel is in view; the others are reached by swiping or the arrows.
      await step(page, 'accountCategory').getByRole('button', { name: 'Name / E-mail' }).tap();
      await step(page, 'knowledgeBaseFinal')
        .getByRole('link', { name: 'Changing the name or e-mail address of your account' })
        .waitFor();
      await phone.close();
    });

    /** What a finger taps on the form: buttons, button-like links, article links, device rows, fields, summaries. */
    const TAP_TARGETS =
      'button, a.button, label.button, .articles a, label.device, summary, input[type="text"], textarea, .device-group__title button';

    it('every screen of the form fits 320 to 1280 px without scrolling sideways, with 44 px tap targets', async () => {
      const { system, browser } = supportForm;
      for (const width of WIDTHS) {
        const phone = width <= 768;
        const viewer = await signedInContext(browser, { viewport: { width, height: 800 }, isMobile: phone, hasTouch: phone });
        const page = await viewer.newPage();
        const check = async (screen: string) => {
          expect(await horizontalOverflow(page), `${screen} at ${width} px`).toEqual([]);
          expect(await smallTapTargets(page, TAP_TARGETS), `${screen} at ${width} px`).toEqual([]);
          await screenshot(page, `support-${screen}-${width}`);
        };
        await page.goto(`${system.cloudUrl}/support/`);
        await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
        // Carousels of whole tiles on touch screens and up to 991 px; a grid beyond.
        expect((await page.locator('.carousel').count()) > 0).toBe(width <= 991);
        await check('main');

        await page.getByRole('button', { name: /^Home/ }).click();
        await step(page, 'hubCategoryPro').getByText('Hub software is out of date.').waitFor({ timeout: 15_000 });
        await check('hub-pro');
        await step(page, 'hubCategoryPro').getByRole('button', { name: 'Apps', exact: true }).click();
        await step(page, 'apps')
          .getByRole('button', { name: /NordHeat Climate/ })
          .click();
        await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact the developer' }).click();
        await step(page, 'contactDeveloper').getByRole('button', { name: 'E-mail the developer' }).click();
        await step(page, 'emailDeveloper').getByRole('button', { name: 'Send' }).click();
        await step(page, 'emailDeveloper').getByRole('alert').waitFor();
        await check('apps-developer');

        await step(page, 'hubCategoryPro').getByRole('button', { name: 'Devices', exact: true }).click();
        await page.waitForFunction(() => document.querySelector('section[data-step="devices"] [aria-expanded="true"]') !== null);
        await check('devices');

        await page.getByRole('button', { name: /^Studio/ }).click();
        await step(page, 'hubCategoryCloud').getByRole('button', { name: 'Flow', exact: true }).click();
        await step(page, 'knowledgeBase').getByRole('button', { name: 'Ask the community' }).click();
        await step(page, 'community').getByRole('link', { name: 'Visit the community forum' }).waitFor();
        await check('community');

        await page.getByRole('button', { name: /Dana Demo/ }).click();
        await step(page, 'accountCategory').getByRole('button', { name: 'Other' }).click();
        const ticket = step(page, 'ticket');
        await ticket.getByRole('button', { name: 'Send' }).click();
        await ticket.getByText('Please add a subject.').waitFor();
        // The first invalid field has the focus, and its error is announced.
        expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe(
          "What's your question about?",
        );
        await check('ticket-invalid');
        await ticket.getByPlaceholder("What's your question about?").fill(`Layout at ${width} px`);
        await ticket.getByPlaceholder('Please include as much details as you can.').fill('Checking the popup fits this screen.');
        await ticket.getByRole('button', { name: 'Send' }).click();
        const dialog = page.getByRole('dialog', { name: 'Thanks for your message!' });
        await dialog.waitFor();
        await check('ticket-sent');
        await dialog.getByRole('button', { name: 'Close' }).click();
        await dialog.waitFor({ state: 'detached' });
        await viewer.close();
      }
    });

    it('the sign-in screens fit 320 to 1280 px without scrolling sideways', async () => {
      const { system, browser } = supportForm;
      const authorise = `${system.cloudUrl}/cloud/oauth2/authorise?${new URLSearchParams({
        client_id: 'hearth-support-form',
        redirect_uri: `${system.cloudUrl}/support/`,
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`;
      const pages: [string, string][] = [
        ['support-signed-out', `${system.cloudUrl}/support/`],
        ['sign-in', authorise],
        ['password-forgotten', `${system.cloudUrl}/cloud/password-forgotten`],
        ['password-reset', `${system.cloudUrl}/cloud/password-reset?token=not-a-token`],
      ];
      for (const width of WIDTHS) {
        const viewer = await browser.newContext({ viewport: { width, height: 800 }, isMobile: width <= 768 });
        const page = await viewer.newPage();
        for (const [name, url] of pages) {
          await page.goto(url);
          await page.getByRole('heading').first().waitFor({ timeout: 30_000 });
          expect(await horizontalOverflow(page), `${name} at ${width} px`).toEqual([]);
          await screenshot(page, `${name}-${width}`);
        }
        await viewer.close();
      }
    });

    it('the form is served compressed, with long-lived caching for its hashed files, and has its icon', async () => {
      const { system } = supportForm;
      const page = await openForm();
      const script = await page.locator('script[type="module"]').getAttribute('src');
      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      await page.close();
      const asset = await fetch(new URL(script as string, system.cloudUrl), { headers: { 'accept-encoding': 'br, gzip' } });
      expect(asset.headers.get('content-encoding')).toBe('br');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await asset.text()).length).toBeGreaterThan(10_000);
      const gzip = await fetch(new URL(script as string, system.cloudUrl), { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      const favicon = await fetch(new URL(icon as string, system.cloudUrl));
      expect([favicon.status, favicon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    });

    it('signing out ends the session on the cloud, not only in the browser', async () => {
      const { system, browser } = supportForm;
      const own = await browser.newContext();
      const page = await own.newPage();
      await page.goto(`${system.cloudUrl}/support/`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('E-mail address').fill(DEMO.email);
      await page.getByLabel('Password').fill(DEMO.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor({ timeout: 30_000 });
      const token = await page.evaluate(
        () => (JSON.parse(localStorage.getItem('hearth-support-form:token') ?? '{}') as { access_token?: string }).access_token,
      );
      const me = () => fetch(`${system.cloudUrl}/cloud/user/me`, { headers: { authorization: `Bearer ${token}` } });
      expect((await me()).status).toBe(200);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'How can we help?', exact: true }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('hearth-support-form:token'))).toBeNull();
      expect((await me()).status).toBe(401);
      await own.close();
    });

    it('a page restored from the back-forward cache starts over', async () => {
      const { system } = supportForm;
      // Playwright turns the back-forward cache off by default; this browser keeps it, as people's browsers do.
      const bfcacheBrowser = await chromium.launch({
        executablePath: chromiumPath as string,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
        ignoreDefaultArgs: ['--disable-back-forward-cache'],
      });
      try {
        const page = await (await signedInContext(bfcacheBrowser)).newPage();
        await page.goto(`${system.cloudUrl}/support/`);
        await page.getByRole('button', { name: /Dana Demo/ }).click();
        expect(await stepNames(page)).toEqual(['mainCategory', 'accountCategory']);
        await page.evaluate(() => {
          (window as unknown as { marker: boolean }).marker = true;
        });
        await page.goto(`${system.cloudUrl}/api/helpdesk/articles`);
        // A restored page fires no load event: wait for the navigation to commit only.
        await page.goBack({ waitUntil: 'commit' });
        await page.getByRole('heading', { name: 'Hi Dana, how can we help?' }).waitFor();
        // The marker survived: this is the same page, restored from the back-forward cache, not a new load.
        expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
        await page.waitForFunction(() => document.querySelectorAll('section[data-step="accountCategory"]').length === 0);
        expect(await stepNames(page)).toEqual(['mainCategory']);
      } finally {
        await bfcacheBrowser.close();
      }
    });
  });
});
