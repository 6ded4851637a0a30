import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, DEMO_CLIENTS, DEMO_USER, pkcePair, readJson, startTestCloud, tokenRequest } from '../../testing';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
if (!haveChromium && process.env.CI === 'true') throw new Error(`Chromium is required in CI but missing at ${chromiumPath}`);
if (!haveChromium) console.warn(`⚠ SKIPPED the sign-in page browser test: no Chromium at ${chromiumPath}`);

describe.runIf(haveChromium)('sign-in page in Chromium', () => {
  let cloud: Cloud;
  let browser: Browser;
  let app: Server;
  let appUrl: string;
  beforeAll(async () => {
    // The app the person returns to (the support form's address, registered from the cloud's public URL).
    app = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back in the app</h1>'),
    );
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    cloud = await startTestCloud('pglite', { publicUrl: appUrl });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await cloud?.stop();
    app?.close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`signs a person in with the keyboard and returns to the app with a code (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      // The support form's address is the redirect target; stand in for it.
      await page.route(`${appUrl}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back in the app</h1>' }),
      );
      const { verifier, challenge } = pkcePair();
      const query = new URLSearchParams({
        client_id: DEMO_CLIENTS.supportForm.id,
        redirect_uri: `${appUrl}/support/`,
        response_type: 'code',
        state: 'browser-state',
        scope: 'homey',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      await page.goto(`${cloud.url}/cloud/oauth2/authorise?${query}`);
      await expect(page.title()).resolves.toBe('Sign in · Hearth');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to Hearth');
      // The passkey button needs its script (and WebAuthn): without JavaScript it stays hidden.
      expect(await page.getByRole('button', { name: 'Use a passkey' }).count()).toBe(javaScriptEnabled ? 1 : 0);

      // The first field has the focus: the person types at once.
      expect(await page.locator(':focus').getAttribute('id')).toBe('email');

      // A wrong password keeps the person on the page with an announced error.
      await page.getByLabel('E-mail address').fill(DEMO_USER.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState();
      expect(await page.getByRole('alert').textContent()).toBe('Wrong e-mail address or password.');
      expect(await page.getByLabel('E-mail address').inputValue()).toBe(DEMO_USER.email);
      // The address is kept, so the password is what to type again.
      expect(await page.locator(':focus').getAttribute('id')).toBe('password');

      await page.getByLabel('Password').focus();
      await page.keyboard.type(DEMO_USER.password);
      await Promise.all([page.waitForURL(`${appUrl}/support/**`), page.keyboard.press('Enter')]);
      const back = new URL(page.url());
      expect(back.searchParams.get('state')).toBe('browser-state');
      const code = back.searchParams.get('code') as string;
      await context.close();

      const tokens = await tokenRequest(
        cloud,
        { grant_type: 'authorization_code', code, code_verifier: verifier },
        { id: DEMO_CLIENTS.supportForm.id },
      );
      expect(tokens.status).toBe(200);
      const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', (await readJson(tokens)).access_token));
      expect(me.email).toBe(DEMO_USER.email);
    });
  }

  it('the forgotten-password page has its e-mail field focused', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${cloud.url}/cloud/password-forgotten`);
    expect(await page.locator(':focus').getAttribute('id')).toBe('email');
    await context.close();
  });
});
