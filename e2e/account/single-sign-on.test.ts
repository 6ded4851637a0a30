import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import {
  call,
  createUser,
  DEMO_CLIENTS,
  pkcePair,
  readJson,
  startTestCloud,
  tokenRequest,
} from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildAccountPages } from './pages';

/**
 * The cloud's single sign-on cookie: signing in on the account pages (through the cloud's sign-in page) signs the
 * person in to the sign-in page for the next app too — the support form gets its code without a form — and
 * signing out of the account pages ends it (here, or everywhere).
 */
describe.skipIf(!chromiumPath)('single sign-on between the account pages and the sign-in page', () => {
  let browser: Browser;
  let cloud: Cloud;
  const person = { email: 'sasha.sso@example.test', password: 'walnut-comet-harbour-93' };

  beforeAll(async () => {
    buildAccountPages();
    browser = await launchBrowser();
    const { cloud: port } = await freePorts();
    cloud = await startTestCloud('pglite', { port, publicUrl: `http://127.0.0.1:${port}` });
    await createUser(cloud, person.email, person.password);
  });
  afterAll(async () => {
    await browser?.close();
    await cloud?.stop();
  });

  async function signedInContext(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    // The support form's page is the app returned to: stand in for it, the address with its code is what counts.
    await context.route(`${cloud.url}/support/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back in the support form</h1>' }),
    );
    const page = await context.newPage();
    await page.goto(`${cloud.url}/security`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    return { context, page };
  }

  /** Sends the browser to the sign-in page as the support form does; answers the code it came back with, if any. */
  async function supportFormSignIn(page: Page, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkcePair();
    const query = new URLSearchParams({
      client_id: DEMO_CLIENTS.supportForm.id,
      redirect_uri: `${cloud.url}/support/`,
      response_type: 'code',
      state: 'sso-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    await page.goto(`${cloud.url}/cloud/oauth2/authorise?${query}`);
    const back = new URL(page.url());
    return { code: back.pathname === '/support/' ? back.searchParams.get('code') : null, verifier };
  }

  it('sets an HttpOnly, SameSite cookie under /cloud/ when the person signs in', async () => {
    const { context } = await signedInContext();
    const cookie = (await context.cookies()).find((c) => c.name === 'hearth_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/cloud/' });
    // No script of the pages can read it.
    const page = await context.newPage();
    await page.goto(`${cloud.url}/`);
    expect(await page.evaluate(() => document.cookie)).not.toContain('hearth_session');
    await context.close();
  });

  it('signs the person in to the next app without the form, and the form comes back after signing out', async () => {
    const { context, page } = await signedInContext();
    const app = await context.newPage();
    const { code, verifier } = await supportFormSignIn(app);
    expect(code).toEqual(expect.any(String));
    expect(new URL(app.url()).searchParams.get('state')).toBe('sso-state');
    const tokens = await tokenRequest(
      cloud,
      { grant_type: 'authorization_code', code: code as string, code_verifier: verifier },
      { id: DEMO_CLIENTS.supportForm.id },
    );
    expect(tokens.status).toBe(200);
    const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', (await readJson(tokens)).access_token));
    expect(me.email).toBe(person.email);

    // An app may still ask for the form.
    expect((await supportFormSignIn(app, { prompt: 'login' })).code).toBeNull();
    await app.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Hearth account' }).waitFor();
    expect((await context.cookies()).some((c) => c.name === 'hearth_session')).toBe(false);
    expect((await supportFormSignIn(app)).code).toBeNull();
    await app.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
    await context.close();
  });

  it('“Sign out everywhere” ends the sign-in page’s session in every browser', async () => {
    const laptop = await signedInContext();
    const phone = await signedInContext();
    const phoneApp = await phone.context.newPage();
    expect((await supportFormSignIn(phoneApp)).code).toEqual(expect.any(String));

    await laptop.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await laptop.page.getByRole('heading', { level: 1, name: 'Your Hearth account' }).waitFor();
    // The phone still holds its cookie, which no longer signs anyone in.
    expect((await phone.context.cookies()).some((c) => c.name === 'hearth_session')).toBe(true);
    expect((await supportFormSignIn(phoneApp)).code).toBeNull();
    await phoneApp.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
    await laptop.context.close();
    await phone.context.close();
  });
});
