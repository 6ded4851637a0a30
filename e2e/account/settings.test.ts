import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import type { SunkMessage } from '../../packages/cloud/src/services/mail/sink';
import { call, startTestCloud } from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { buildAccountPages, checkPage } from './pages';

/**
 * The account flows the main account test does not walk: an unverified account (its banner, the link sent again),
 * changing the e-mail address by the link mailed to the new one and the language, replacing the recovery codes and turning two-factor
 * sign-in off, and a forgotten password reset by the mailed link — each page with axe and at the four widths.
 */
describe.skipIf(!chromiumPath)('account settings flows', () => {
  let browser: Browser;
  let cloud: Cloud;
  let context: BrowserContext;
  let page: Page;
  let email = 'uma.unverified@example.test';
  let password = 'saffron-quarry-bellow-72';
  const newEmail = 'uma.moved@example.test';
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const mails = () => cloud.context.mail.sink as NonNullable<typeof cloud.context.mail.sink>;
  const linkIn = (mail: SunkMessage, path: string) =>
    new RegExp(`(http://\\S+/${path}[#?]token=\\S+)`).exec(mail.text)?.[1] as string;
  const newest = (to: string, subject: string) =>
    [...mails().messages].reverse().find((m) => m.to.includes(to) && m.subject === subject);

  beforeAll(async () => {
    buildAccountPages();
    browser = await launchBrowser();
    const { cloud: port } = await freePorts();
    cloud = await startTestCloud('pglite', { port, publicUrl: `http://127.0.0.1:${port}` });
    const signedUp = await call(cloud, 'POST', '/cloud/signup', '', {
      email,
      password,
      firstname: 'Uma',
      lastname: 'Settings',
      acceptTerms: true,
    });
    expect(signedUp.status).toBe(202);
    context = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await cloud?.stop();
  });

  async function signIn() {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('shows an unverified account its banner, keeps it from claiming, and sends the link again', async () => {
    await page.goto(`${cloud.url}/hubs`);
    await signIn();
    await heading('Hubs').waitFor();
    const banner = page.getByRole('region', { name: 'Verify your e-mail address' });
    await banner.waitFor();
    expect(await page.getByLabel('Claim code').isDisabled()).toBe(true);
    await checkPage(page, 'hubs-unverified');
    await mails().waitFor((m) => m.to.includes(email) && m.subject === 'Verify your Hearth e-mail address');
    const first = newest(email, 'Verify your Hearth e-mail address');
    await banner.getByRole('button', { name: 'Send the link again' }).click();
    await expect.poll(() => newest(email, 'Verify your Hearth e-mail address')).not.toBe(first);
    await page.goto(linkIn(newest(email, 'Verify your Hearth e-mail address') as SunkMessage, 'verify-email'));
    await heading('Address verified').waitFor();
    await page.goto(`${cloud.url}/hubs`);
    await heading('Hubs').waitFor();
    expect(await page.getByLabel('Claim code').isDisabled()).toBe(false);
    expect(await banner.count()).toBe(0);
  });

  it('changes the e-mail address by the link sent to the new one', async () => {
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByLabel('New e-mail address').fill(newEmail);
    await page.getByLabel('Your password').fill('not-my-password');
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await page.getByText('The password is not correct').waitFor();
    await page.getByLabel('Your password').fill(password);
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await page.getByText(`We sent a link to ${newEmail}.`).waitFor();
    const mail = await mails().waitFor((m) => m.to.includes(newEmail) && m.subject === 'Confirm your new Hearth e-mail address');
    await page.goto(linkIn(mail, 'verify-email'));
    await heading('Address verified').waitFor();
    await page.goto(`${cloud.url}/`);
    await page.getByText(newEmail).waitFor();
    email = newEmail;
  });

  it('changes the language, kept across a reload', async () => {
    // A language the account keeps but the pages do not speak, so they stay English here (Dutch and German pages
    // are languages.test.ts's).
    await page.getByLabel('Language', { exact: true }).selectOption('sv');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Your details are saved.').waitFor();
    await page.reload();
    await heading('Hello Uma').waitFor();
    expect(await page.getByLabel('Language', { exact: true }).inputValue()).toBe('sv');
  });

  it('replaces the recovery codes and turns two-factor sign-in off, each with the password and a code', async () => {
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
    // The page asks for the password in its passkey section too: the two-factor section's own field is meant.
    const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const totp = new TOTP({
      secret: Secret.fromBase32((await page.getByTestId('totp-secret').textContent()) as string),
      digits: 6,
      period: 30,
    });
    await page.getByLabel('Code from the app').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.getByRole('listitem').nth(9).waitFor();
    const first = await codes.getByRole('listitem').allTextContents();
    await page.getByRole('button', { name: 'I saved my recovery codes' }).click();

    await page.getByRole('button', { name: 'New recovery codes' }).click();
    await twoFactor.getByLabel('Your password').fill(password);
    await page.getByLabel('Code from the app, or a recovery code').fill(first[0] as string);
    await checkPage(page, 'security-new-recovery-codes');
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByText('Your old recovery codes no longer work.').waitFor();
    await codes.getByRole('listitem').nth(9).waitFor();
    const second = await codes.getByRole('listitem').allTextContents();
    expect(second).toHaveLength(10);
    expect(second).not.toContain(first[1]);
    await page.getByRole('button', { name: 'I saved my recovery codes' }).click();

    await page.getByRole('button', { name: 'Turn off' }).click();
    await twoFactor.getByLabel('Your password').fill(password);
    // A code of the replaced set no longer proves anything.
    await page.getByLabel('Code from the app, or a recovery code').fill(first[1] as string);
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByText('The two-factor code is not correct').waitFor();
    await page.getByLabel('Code from the app, or a recovery code').fill(second[0] as string);
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByText('Two-factor sign-in is off.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).waitFor();
  });

  it('resets a forgotten password by the mailed link, and signs in with the new one', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgotten password' }).waitFor();
    await checkPage(page, 'password-forgotten');
    await page.getByLabel('E-mail address of your account').fill(email);
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.getByText('If that address has a Hearth account, a reset link is on its way.').waitFor();
    const mail = await mails().waitFor((m) => m.to.includes(email) && m.subject === 'Reset your Hearth password');
    await page.goto(linkIn(mail, 'cloud/password-reset'));
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkPage(page, 'password-reset');
    password = 'marble-osprey-tundra-15';
    await page.getByLabel(/New password/).fill(password);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.goto(`${cloud.url}/`);
    await signIn();
    await heading('Hello Uma').waitFor();
  });
});
