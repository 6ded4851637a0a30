import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import { accountPagesSignIn, call, createUser, readJson, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildAccountPages, checkPage } from './pages';

/**
 * Passkeys in Chromium with a virtual authenticator (CDP `WebAuthn`): one that keeps discoverable credentials and
 * verifies its user, as a phone or laptop with a screen lock does. The cloud's address is `localhost`, as WebAuthn
 * takes no IP address for a relying party.
 */
describe.skipIf(!chromiumPath)('passkeys on the account pages and the sign-in page', () => {
  let browser: Browser;
  let cloud: Cloud;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId = '';
  /** The cloud's public address (`cloud.url` is its 127.0.0.1 one). */
  let base = '';
  const person = { email: 'pat.passkey@example.test', password: 'amber-ferry-lichen-58' };
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

  beforeAll(async () => {
    buildAccountPages();
    browser = await launchBrowser();
    const { cloud: port } = await freePorts();
    base = `http://localhost:${port}`;
    cloud = await startTestCloud('pglite', { port, publicUrl: base });
    await createUser(cloud, person.email, person.password);
    context = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') console.log(`[browser] ${message.text()}`);
    });
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await cloud?.stop();
  });

  const passkeys = () => page.getByRole('list', { name: 'Your passkeys' });
  async function signOut() {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await heading('Your Hearth account').waitFor();
  }

  it('adds a passkey on the security page, made by the device', async () => {
    await page.goto(`${base}/security`);
    await heading('Your Hearth account').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading('Security').waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();

    await page.getByLabel('Name of the new passkey').fill('Test laptop');
    // A passkey signs in alone: without the password proved again, the device is not even asked.
    await page.getByLabel('Your password').fill('not-the-password');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('The password is not correct').waitFor();
    let { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(0);
    await page.getByLabel('Your password').fill(person.password);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('The passkey Test laptop is added.').waitFor();
    await passkeys().getByText('Test laptop').waitFor();
    await passkeys().getByText('not used yet').waitFor();
    expect(await page.getByLabel('Your password').inputValue()).toBe('');
    ({ credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId }));
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    await checkPage(page, 'security-passkeys');
  });

  it('renames it with the keyboard', async () => {
    await passkeys().getByRole('button', { name: 'Rename Test laptop' }).focus();
    await page.keyboard.press('Enter');
    const field = page.getByLabel('New name for Test laptop');
    await field.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Work laptop');
    await page.keyboard.press('Enter');
    await page.getByText('The passkey is now called Work laptop.').waitFor();
    await passkeys().getByText('Work laptop').waitFor();
    expect(await passkeys().getByText('Test laptop').count()).toBe(0);
  });

  it('signs in with the passkey alone on the sign-in page', async () => {
    await signOut();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
    await checkPage(page, 'sign-in-with-passkey');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await heading('Hello Test').waitFor();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
    await heading('Security').waitFor();
    await passkeys()
      .getByText(/last used/)
      .waitFor();
  });

  it('keeps each person to their own passkeys', async () => {
    const other = await createUser(cloud, 'olive.other@example.test');
    // The account pages' own session: the only one that may add a passkey at all.
    const otherPages = await accountPagesSignIn(cloud, 'olive.other@example.test', 'a-good-password-1');
    const mine = await readJson(await call(cloud, 'GET', '/cloud/user/me/passkeys', other.token));
    expect(mine).toEqual([]);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const id = credentials[0]?.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') as string;
    expect((await call(cloud, 'PUT', `/cloud/user/me/passkeys/${id}`, other.token, { name: 'Mine now' })).status).toBe(404);
    expect((await call(cloud, 'DELETE', `/cloud/user/me/passkeys/${id}`, other.token)).status).toBe(404);
    // An answer to no challenge of the cloud's is refused with a clear code.
    const forged = await call(cloud, 'POST', '/cloud/user/me/passkeys', otherPages.access_token, {
      name: 'Forged',
      response: { id, rawId: id, type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'AA' } },
    });
    expect(forged.status).toBe(410);
  });

  it('removes it, after which it signs in no more', async () => {
    await passkeys().getByRole('button', { name: 'Remove Work laptop' }).click();
    await page.getByText('The passkey Work laptop is removed').waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();
    await signOut();
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The device still holds the credential; the cloud no longer accepts it.
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByText('That passkey did not sign you in.').waitFor();
    await page.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
  });

  it('a password change removes the passkeys when the owner ticks it', async () => {
    await page.getByLabel('E-mail address').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading(/Hello/).waitFor();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
    await heading('Security').waitFor();
    await page.getByLabel('Name of the new passkey').fill('Phone');
    await page.getByLabel('Your password').fill(person.password);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await passkeys().getByText('Phone').waitFor();

    const newPassword = 'copper-meadow-thistle-64';
    await page.getByLabel('Current password').fill(person.password);
    await page.getByLabel('New password').fill(newPassword);
    await page.getByLabel('Also remove my passkeys (they sign in without a password)').check();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('your passkeys are removed').waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();
    person.password = newPassword;
    await signOut();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByText('That passkey did not sign you in.').waitFor();
  });
});
