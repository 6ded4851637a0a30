import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../packages/cloud/src/server';
import type { SunkMessage } from '../../packages/cloud/src/services/mail/sink';
import {
  type Backend,
  call,
  createUser,
  internalToken,
  postgresUrl,
  readJson,
  startTestCloud,
} from '../../packages/cloud/src/testing';
import { chromiumPath, launchBrowser } from '../browser';
import { freePorts } from '../system';
import { startFreshHub } from './hub';
import { buildAccountPages, checkPage, expectFramedSignInPage } from './pages';

const PASSWORD = 'plum-orbit-cactus-41';
const NEW_PASSWORD = 'violet-harbour-tram-7';

const codeAt = (secret: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

const backends: Backend[] = ['pglite', ...(postgresUrl() ? (['postgres'] as const) : [])];
if (!postgresUrl() && process.env.CI === 'true')
  throw new Error('CI=true but DATABASE_URL is not set: the PostgreSQL run is mandatory');

describe.skipIf(!chromiumPath)('account pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    buildAccountPages();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const backend of backends) {
    describe(backend === 'pglite' ? 'on PGlite' : 'on PostgreSQL', () => {
      let cloud: Cloud;
      let hub: Awaited<ReturnType<typeof startFreshHub>>;
      let context: BrowserContext;
      let page: Page;
      const person = { email: `sam.${backend}@example.test`, firstname: 'Sam', lastname: 'Signup' };
      let secret = '';
      let recoveryCodes: string[] = [];
      let password = PASSWORD;

      const mails = () => cloud.context.mail.sink as NonNullable<typeof cloud.context.mail.sink>;
      const linkIn = (mail: SunkMessage, page: string) =>
        new RegExp(`(http://\\S+/${page}#token=\\S+)`).exec(mail.text)?.[1] as string;
      const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

      beforeAll(async () => {
        const ports = await freePorts();
        const url = `http://127.0.0.1:${ports.cloud}`;
        cloud = await startTestCloud(backend, { port: ports.cloud, publicUrl: url });
        hub = await startFreshHub(url, ports.hubBase);
        context = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
        page = await context.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') console.log(`[browser ${message.type()}] ${message.text()}`);
        });
      });
      afterAll(async () => {
        await context?.close();
        await hub?.stop();
        await cloud?.stop();
      });

      /** Signs in on the cloud's sign-in page, which the pages sent the browser to. */
      async function signInOnPage(email: string, secretPassword: string) {
        await page.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
        await page.getByLabel('E-mail address').fill(email);
        await page.getByLabel('Password').fill(secretPassword);
        await page.getByRole('button', { name: 'Sign in' }).click();
      }
      async function signOut() {
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await heading('Your Hearth account').waitFor();
      }

      it('signs a new person up, with the server’s refusals shown beside their fields', async () => {
        const response = await page.goto(`${cloud.url}/signup`);
        // The pages run only their own scripts (the test's context lets axe in all the same).
        expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
        await heading('Create your Hearth account').waitFor();
        if (backend === 'pglite') await checkPage(page, 'signup');
        // An empty form flags every required field at once, the first one focused; an error goes when its field is
        // filled in.
        await page.getByRole('button', { name: 'Create account' }).click();
        const errors = page.locator('.field-error');
        await expect
          .poll(() => errors.allTextContents())
          .toEqual([
            'Enter your first name.',
            'Enter your e-mail address.',
            'Choose a password.',
            'Accept the terms of service to create an account.',
          ]);
        expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstname');
        await page.getByLabel('First name').fill(person.firstname);
        await expect.poll(() => errors.count()).toBe(3);
        if (backend === 'pglite') await checkPage(page, 'signup-empty');
        // The terms and the privacy policy are pages of their own, opened beside the form.
        for (const [name, title] of [
          ['terms of service', 'Terms of service'],
          ['privacy policy', 'Privacy policy'],
        ] as const) {
          const link = page.getByRole('link', { name, exact: true });
          expect(await link.getAttribute('target')).toBe('_blank');
          const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
          await opened.getByRole('heading', { level: 1, name: title }).waitFor();
          if (backend === 'pglite') await checkPage(opened, name.replaceAll(' ', '-'));
          await opened.close();
        }
        expect(await page.getByLabel('First name').inputValue()).toBe(person.firstname);
        await page.getByLabel('Last name').fill(person.lastname);
        await page.getByLabel('E-mail address').fill(person.email);
        await page.getByLabel('Password', { exact: true }).fill('password1');
        await page.getByText('Strength: Very weak — not accepted').waitFor();
        await page.getByRole('button', { name: 'Create account' }).click();
        // The terms still unaccepted (the form says so), then the common password (the cloud refuses it), each at its field.
        await page.getByText('Accept the terms of service to create an account.').waitFor();
        await page.getByLabel('I accept the Hearth terms of service and privacy policy').check();
        await page.getByRole('button', { name: 'Create account' }).click();
        // The cloud's refusal, beside the field (the strength meter said so before, as the person typed).
        await page.locator('.field-error', { hasText: 'This is one of the most common passwords.' }).waitFor();
        expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByText(/Strength: (Strong|Very strong)\./).waitFor();
        await page.getByRole('button', { name: 'Create account' }).click();
        await heading('Check your inbox').waitFor();
        expect(await page.getByText(person.email).count()).toBeGreaterThan(0);
      });

      it('verifies the address by the link from the SMTP sink, and signs in', async () => {
        const mail = await mails().waitFor(
          (m) => m.to.includes(person.email) && m.subject === 'Verify your Hearth e-mail address',
        );
        await page.goto(linkIn(mail, 'verify-email'));
        await heading('Address verified').waitFor();
        expect(page.url()).not.toContain('token=');
        if (backend === 'pglite') await checkPage(page, 'verify-email');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await signInOnPage(person.email, PASSWORD);
        await heading(`Hello ${person.firstname}`).waitFor();
        expect(page.url()).toBe(`${cloud.url}/`);
        expect(await page.getByText('not verified').count()).toBe(0);
      });

      it('turns two-factor sign-in on with a code computed here, without reloading the page', async () => {
        await page.evaluate(() => {
          (window as unknown as { stayed: boolean }).stayed = true;
        });
        await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
        await heading('Security').waitFor();
        await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
        secret = (await page.getByTestId('totp-secret').textContent()) as string;
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        // Shown in groups of four, and copied whole.
        expect(await page.getByTestId('totp-secret').locator('span').allTextContents()).toEqual(secret.match(/.{4}/g));
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: cloud.url });
        await page.getByRole('button', { name: 'Copy the key' }).click();
        await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
        expect(await page.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible()).toBe(true);
        if (backend === 'pglite') await checkPage(page, 'security-two-factor-setup');
        await page.getByLabel('Code from the app').fill(codeAt(secret, 0));
        await page.getByRole('button', { name: 'Turn on', exact: true }).click();
        const list = page.getByRole('list', { name: 'Recovery codes' });
        await list.waitFor();
        recoveryCodes = await list.getByRole('listitem').allTextContents();
        expect(recoveryCodes).toHaveLength(10);
        // Copied, and saved as a file, one code a line.
        await page.getByRole('button', { name: 'Copy the codes' }).click();
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download the codes' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('hearth-recovery-codes.txt');
        expect(readFileSync((await download.path()) as string, 'utf8')).toBe(`${recoveryCodes.join('\n')}\n`);
        if (backend === 'pglite') await checkPage(page, 'security-recovery-codes');
        await page.getByRole('button', { name: 'I saved my recovery codes' }).click();
        await page.getByText('recovery codes left').waitFor();
        expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
        expect(await list.count()).toBe(0);
      });

      it('signs out, then in again with a code from the app, and with a recovery code', async () => {
        await signOut();
        await page.getByRole('button', { name: 'Sign in' }).click();
        await signInOnPage(person.email, PASSWORD);
        await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
        if (backend === 'pglite') await checkPage(page, 'sign-in-code');
        await expectFramedSignInPage(page, 'sign-in-code');
        await page.getByLabel('Code from your authenticator app').fill(codeAt(secret, 1));
        await page.getByRole('button', { name: 'Continue' }).click();
        await heading(`Hello ${person.firstname}`).waitFor();

        await signOut();
        await page.getByRole('button', { name: 'Sign in' }).click();
        await signInOnPage(person.email, PASSWORD);
        await page.getByLabel('Code from your authenticator app').fill(recoveryCodes[0] as string);
        await page.getByRole('button', { name: 'Continue' }).click();
        await heading(`Hello ${person.firstname}`).waitFor();
      });

      it('changes the name and the profile picture (cropped, with a progress bar)', async () => {
        await page.getByLabel('First name').fill('Samantha');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByText('Your details are saved.').waitFor();
        await heading('Hello Samantha').waitFor();

        // Blue on the left half, orange on the right: where the crop lands shows in the saved picture's colour.
        const half = await sharp({ create: { width: 300, height: 400, channels: 3, background: { r: 20, g: 60, b: 220 } } })
          .png()
          .toBuffer();
        const picture = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 230, g: 110, b: 20 } } })
          .composite([{ input: half, left: 0, top: 0 }])
          .png()
          .toBuffer();
        await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
        const zoom = page.getByLabel('Zoom');
        await zoom.focus();
        for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
        expect(Number(await zoom.inputValue())).toBeCloseTo(1.5, 5);
        // The keyboard moves the picture under the focused circle…
        const area = page.getByRole('group', { name: 'The part of the picture that will be kept' });
        const media = page.locator('.crop__area img');
        const before = await media.getAttribute('style');
        await area.focus();
        for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowLeft');
        await expect.poll(() => media.getAttribute('style')).not.toBe(before);
        if (backend === 'pglite') await checkPage(page, 'profile-crop');
        // …and so does dragging it: all the way right keeps the picture's left (blue) part.
        await area.scrollIntoViewIfNeeded();
        const box = (await area.boundingBox()) as { x: number; y: number; width: number; height: number };
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 + 400, box.y + box.height / 2, { steps: 10 });
        await page.mouse.up();
        await page.getByRole('button', { name: 'Save picture' }).click();
        await page.getByText('Your picture is saved.').waitFor();
        const avatar = page.getByRole('img', { name: 'You, as others see you' });
        await avatar.waitFor();
        const src = (await avatar.getAttribute('src')) as string;
        expect(src).toContain('/avatar/medium');
        // The element is there before its picture has loaded (naturalWidth is 0 until then): wait for the load.
        await expect
          .poll(() => avatar.evaluate((img) => ((img as HTMLImageElement).complete ? (img as HTMLImageElement).naturalWidth : 0)))
          .toBeGreaterThan(0);
        const saved = await sharp(await (await page.request.get(new URL(src, cloud.url).toString())).body()).stats();
        const [red, , blue] = saved.channels.map((channel) => channel.mean) as [number, number, number];
        expect(blue).toBeGreaterThan(150);
        expect(red).toBeLessThan(60);
        if (backend === 'pglite') await checkPage(page, 'profile');
      });

      it('sees another session and ends it, then changes the password', async () => {
        const elsewhere = await readJson(
          await fetch(`${cloud.url}/cloud/oauth2/token`, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from('hearth-demo:hearth-demo-secret').toString('base64')}`,
              'user-agent': 'Hearth mobile app/5.0 (iPhone)',
            },
            body: new URLSearchParams({
              grant_type: 'password',
              username: person.email,
              password,
              otp: recoveryCodes[1] as string,
            }),
          }),
        );
        expect(elsewhere.access_token).toEqual(expect.any(String));
        await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
        const sessions = page.getByRole('list', { name: 'Sign-ins' });
        await sessions.getByRole('listitem').nth(1).waitFor();
        expect(await sessions.getByText('This device').count()).toBe(1);
        // This device's sign-in comes first, though the phone's was used after it.
        expect(await sessions.getByRole('listitem').first().getByText('This device').count()).toBe(1);
        expect(await sessions.getByText('Hearth demo app').count()).toBe(1);
        if (backend === 'pglite') await checkPage(page, 'security');
        await sessions.getByRole('button', { name: /Sign out iPhone, Hearth demo app/ }).click();
        await page.getByText('That sign-in is ended.').waitFor();
        await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
        expect((await call(cloud, 'GET', '/cloud/user/me', elsewhere.access_token)).status).toBe(401);

        await page.getByLabel('Current password').fill(password);
        await page.getByLabel('New password').fill(NEW_PASSWORD);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByText('Your password is changed. Every other sign-in was ended.').waitFor();
        password = NEW_PASSWORD;
        const mail = await mails().waitFor((m) => m.to.includes(person.email) && m.subject === 'Your Hearth password changed');
        expect(mail.text).toContain('every other sign-in was ended');
      });

      it('claims the freshly started hub with the code it printed', async () => {
        await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Hubs' }).click();
        await heading('Hubs').waitFor();
        await page.getByText('You have no hubs yet.').waitFor();
        await page.getByLabel('Claim code').fill('not-the-code-it-printed');
        await page.getByRole('button', { name: 'Claim hub' }).click();
        await page.getByText('This code does not claim any hub.').waitFor();
        await page.getByLabel('Claim code').fill(hub.code);
        await page.getByRole('button', { name: 'Claim hub' }).click();
        await page.getByText('Fresh hub is yours now.').waitFor();
        await page.getByRole('link', { name: 'Fresh hub', exact: true }).waitFor();
        if (backend === 'pglite') await checkPage(page, 'hubs');
      });

      it('invites a second account, which accepts and appears as a household member, then deletes itself', async () => {
        await page.getByRole('link', { name: 'Fresh hub', exact: true }).click();
        await heading('Fresh hub').waitFor();
        await page.getByText('Hearth Pro mini').waitFor();
        const second = { email: `robin.${backend}@example.test`, password: 'quiet-lantern-meadow-3' };
        const { id: secondId } = await createUser(cloud, second.email, second.password);
        await page.getByLabel('Their e-mail address').fill(second.email);
        await page.getByRole('button', { name: 'Send invitation' }).click();
        await page.getByText(`Invitation sent to ${second.email}.`).waitFor();
        await page.getByRole('list', { name: 'Open invitations' }).getByText(second.email).waitFor();
        if (backend === 'pglite') await checkPage(page, 'hub');

        const invitation = await mails().waitFor((m) => m.to.includes(second.email) && m.subject.includes('invites you'));
        const other = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
        const guest = await other.newPage();
        await guest.goto(linkIn(invitation, 'invite'));
        await guest.getByRole('heading', { name: 'Household invitation' }).waitFor();
        if (backend === 'pglite') await checkPage(guest, 'invite-signed-out');
        await guest.getByRole('button', { name: 'Sign in to accept' }).click();
        await guest.getByLabel('E-mail address').fill(second.email);
        await guest.getByLabel('Password').fill(second.password);
        await guest.getByRole('button', { name: 'Sign in' }).click();
        await guest.getByText('invites you to the household of Fresh hub as user.').waitFor();
        await guest.getByRole('button', { name: 'Accept invitation' }).click();
        await guest.getByText('You joined the household.').waitFor();

        await page.reload();
        const members = page.getByRole('list', { name: 'Household members' });
        await members.getByText(second.email).waitFor();
        expect(await members.getByRole('listitem').count()).toBe(2);

        // The second person deletes their account.
        await guest.goto(`${cloud.url}/delete`);
        await guest.getByRole('heading', { name: 'Delete your account' }).waitFor();
        await guest.getByText('You leave the households of Fresh hub.').waitFor();
        if (backend === 'pglite') await checkPage(guest, 'delete');
        await guest.getByLabel('Your password').fill('not-my-password');
        await guest.getByLabel('I understand that my account and its data are deleted for good').check();
        await guest.getByRole('button', { name: 'Delete my account' }).click();
        await guest.getByText('The password is not correct').waitFor();
        await guest.getByLabel('Your password').fill(second.password);
        await guest.getByRole('button', { name: 'Delete my account' }).click();
        await guest.getByRole('heading', { name: 'Your account is deleted' }).waitFor();
        await mails().waitFor((m) => m.to.includes(second.email) && m.subject === 'Your Hearth account is deleted');
        expect((await call(cloud, 'GET', `/cloud/user/${secondId}`, await internalToken(cloud))).status).toBe(404);
        await other.close();

        await page.reload();
        await expect.poll(() => members.getByRole('listitem').count()).toBe(1);
      });

      if (backend === 'pglite')
        it('is usable with the keyboard alone, and every other page passes axe and fits from 320 px', async () => {
          await page.goto(`${cloud.url}/`);
          await heading('Hello Samantha').waitFor();
          // Tab to the Hubs link and follow it, then to the claim field, type and submit with Enter.
          for (let i = 0; i < 30; i++) {
            await page.keyboard.press('Tab');
            if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Hubs') break;
          }
          await page.keyboard.press('Enter');
          await heading('Hubs').waitFor();
          for (let i = 0; i < 30; i++) {
            await page.keyboard.press('Tab');
            if (await page.evaluate(() => document.activeElement === document.querySelector('input'))) break;
          }
          await page.keyboard.type('typed-with-the-keyboard');
          await page.keyboard.press('Enter');
          await page.getByText('This code does not claim any hub.').waitFor();

          await page.goto(`${cloud.url}/devices`);
          await heading('Devices & orders').waitFor();
          await page.getByText('No orders.').waitFor();
          await checkPage(page, 'devices');

          const fresh = await browser.newContext({ viewport: { width: 390, height: 800 }, bypassCSP: true });
          const visitor = await fresh.newPage();
          await visitor.goto(`${cloud.url}/security`);
          await visitor.getByRole('heading', { name: 'Your Hearth account' }).waitFor();
          await checkPage(visitor, 'signed-out');
          await visitor.getByRole('button', { name: 'Sign in' }).click();
          await visitor.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
          await checkPage(visitor, 'sign-in');
          await expectFramedSignInPage(visitor, 'sign-in');
          await visitor.getByRole('link', { name: 'Forgot your password?' }).click();
          await visitor.getByRole('button', { name: /reset link/i }).waitFor();
          await checkPage(visitor, 'password-forgotten');
          await expectFramedSignInPage(visitor, 'password-forgotten');
          await visitor.goBack();
          await visitor.getByRole('link', { name: 'Create account' }).click();
          await visitor.getByRole('heading', { name: 'Create your Hearth account' }).waitFor();
          await visitor.goBack();
          await visitor.getByRole('link', { name: 'Back to Hearth account' }).click();
          await visitor.getByRole('heading', { name: 'Your Hearth account' }).waitFor();
          expect(visitor.url()).toBe(`${cloud.url}/security`);
          await fresh.close();
        });
    });
  }
});
