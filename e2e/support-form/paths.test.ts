import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { screenshot } from '../layout';
import { chooseApp, DEMO, expectAccessible, step, stepNames, tabTo, useSupportForm } from './setup';

/**
 * The support form end to end, on one running system: questions, answers and tickets; apps and devices. Its screens
 * are in screens.test.ts, on a system of their own, so the two files run side by side.
 */
describe.skipIf(!chromiumPath)('support form', () => {
  const supportForm = useSupportForm();

  describe('questions, answers and tickets', () => {
    const { sink, internalToken, openForm } = supportForm;

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
      const { system } = supportForm;
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
      // The ticket's number, as the confirmation e-mail gives it.
      await dialog.getByText(id, { exact: true }).waitFor();
      expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
      await expectAccessible(page);

      const stored = await fetch(`${system.cloudUrl}/api/helpdesk/ticket/${id}`, {
        headers: { authorization: `Bearer ${await internalToken()}` },
      });
      const body = (await stored.json()) as {
        ticket: Record<string, unknown>;
        attachments: { filename: string; size: number }[];
      };
      expect(body.ticket).toMatchObject({
        subject: 'Cannot change my language',
        email: DEMO.email,
        supportFormPath: 'My Account → Other',
        tags: ['account', 'account_other'],
      });
      expect(body.attachments.map((a) => [a.filename, a.size]).sort()).toEqual([
        ['notes.txt', 18],
        ['screenshot.png', 2048],
      ]);
      const mail = await sink.waitFor((m) => m.subject.includes('Cannot change my language'), 10_000);
      expect(mail.to).toContain(DEMO.email);
      expect(mail.text).toContain(`Ticket: ${id}`);
      // Escape closes the popup; the form starts over for a new question.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await stepNames(page)).toEqual(['mainCategory']);
      expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
      await page.close();
    });

    it('Pro hub → Zigbee: the ticket carries the hub facts, diagnostics and the under-voltage ratio', async () => {
      const { system } = supportForm;
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
        homeyModelName: 'Hearth Pro (Early 2023)',
        homeyRegion: 'eu',
        homeyPlatform: 'local',
        supportFormPath: 'Home → Zigbee',
      });
      expect(payload.tags).toEqual(expect.arrayContaining(['zigbee', 'hearth-pro-5q']));
      expect(payload.diagnosticReport).not.toBe('');
      expect(['yes', 'no']).toContain(payload.underVoltageOccured);
      await page.getByRole('dialog', { name: 'Thanks for your message!' }).waitFor();
      await page.close();
    });

    it('unlisted hub, every order and the unlisted subscription go to the knowledge base, then the ticket', async () => {
      const page = await openForm();
      for (const tile of [
        "My hub isn't listed",
        /^Order #/,
        "My order isn't listed",
        /Hearth Pro Backups/,
        /Hearth Premium/,
        "My subscription isn't listed",
      ]) {
        await page.getByRole('button', { name: tile }).first().click();
        await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
        expect(await stepNames(page)).toEqual(['mainCategory', 'knowledgeBase', 'ticket']);
      }
      await expectAccessible(page);
      await page.getByRole('button', { name: /Hearth Developer/ }).click();
      expect(await stepNames(page)).toEqual(['mainCategory', 'ticket']);
      await page.close();
    });

    it('cloud hub → Flow: knowledge base, then the community', async () => {
      const page = await openForm();
      await page.getByRole('button', { name: /^Studio/ }).click();
      const hubStep = step(page, 'hubCategoryCloud');
      await hubStep.getByRole('button', { name: 'Flow', exact: true }).click();
      const kb = step(page, 'knowledgeBase');
      await kb.getByRole('link', { name: 'Getting started with Flow' }).waitFor();
      await kb.getByRole('button', { name: 'Ask the community' }).click();
      await step(page, 'community')
        .getByText(/cannot help with custom use-cases/)
        .waitFor();
      expect(await step(page, 'community').getByRole('link', { name: 'Visit the community forum' }).getAttribute('target')).toBe(
        '_blank',
      );
      await expectAccessible(page);
      await page.close();
    });

    it('changing an earlier answer discards the later steps', async () => {
      const page = await openForm();
      await page.getByRole('button', { name: /Dana Demo/ }).click();
      await step(page, 'accountCategory').getByRole('button', { name: 'Other' }).click();
      await step(page, 'ticket').getByPlaceholder("What's your question about?").fill('something');
      await page.getByRole('button', { name: /^Home/ }).click();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro']);
      expect(await page.locator('section[data-step="ticket"]').count()).toBe(0);
      // The demo Pro hub has a software update waiting.
      await step(page, 'hubCategoryPro').getByText('Hub software is out of date.').waitFor({ timeout: 15_000 });
      await page.close();
    });

    it('attachment limits, upload and ticket failures show their messages; the text survives a reload', async () => {
      const page = await openForm();
      await page.getByRole('button', { name: "My hub isn't listed" }).click();
      await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
      const ticket = step(page, 'ticket');
      await ticket.getByPlaceholder("What's your question about?").fill('Hub missing');
      await ticket
        .getByPlaceholder('Please include as much details as you can.')
        .fill('My second hub does not show up in the list.');
      const input = ticket.getByLabel('Attachments');
      // One byte over 50 MB (a sparse file: nothing is written to disk).
      const tooBig = join(mkdtempSync(join(tmpdir(), 'hearth-e2e-')), 'recording.mp4');
      writeFileSync(tooBig, '');
      truncateSync(tooBig, 50 * 1024 * 1024 + 1);
      await input.setInputFiles(tooBig);
      await ticket.getByText('File exceeds the maximum file size of 50MB and could not be added.').waitFor();
      expect(await ticket.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      await input.setInputFiles(
        Array.from({ length: 13 }, (_, i) => ({ name: `f${i}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${i}`) })),
      );
      await ticket.getByText('Maximum number of attachments reached. Cannot add more than 12 files.').waitFor();
      expect(await ticket.getByRole('button', { name: /^Remove/ }).count()).toBe(12);
      for (let i = 1; i < 12; i++) await ticket.getByRole('button', { name: `Remove f${i}.txt` }).click();
      await page.route('**/api/helpdesk/attachment*', (route) => route.fulfill({ status: 500, body: '{}' }));
      await ticket.getByRole('button', { name: 'Send' }).click();
      await ticket.getByText("We've encountered a problem uploading f0.txt. Please try again!").waitFor();
      expect(await ticket.getByText(/By sending this form/).count()).toBe(0);
      await page.unroute('**/api/helpdesk/attachment*');
      await page.route('**/api/helpdesk/ticket', (route) => route.fulfill({ status: 500, body: '{}' }));
      await ticket.getByRole('button', { name: 'Send' }).click();
      await ticket.getByText("We've encountered a problem sending your message. Please try again.").waitFor();
      await page.reload();
      await page.getByRole('button', { name: "My hub isn't listed" }).click();
      await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
      expect(await step(page, 'ticket').getByPlaceholder("What's your question about?").inputValue()).toBe('Hub missing');
      expect(await step(page, 'ticket').getByPlaceholder('Please include as much details as you can.').inputValue()).toBe(
        'My second hub does not show up in the list.',
      );
      await page.close();
    });

    it('the keyboard alone completes a path, and the popup keeps focus inside', async () => {
      const page = await openForm();
      // The first Tab reaches the skip link, which passes the banner's actions.
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await skip.evaluate((link) => link === document.activeElement)).toBe(true);
      expect((await skip.boundingBox())?.height).toBeGreaterThanOrEqual(44);
      await screenshot(page, 'support-form-skip-link');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
      await tabTo(page, /^Dana Demo/);
      await page.getByRole('heading', { name: 'How can we help you with your account?' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('How can we help you with your account?');
      await tabTo(page, 'Other');
      await page.getByRole('heading', { name: "We're happy to help." }).waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.type('Keyboard only');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Sent without touching the mouse at all.');
      await tabTo(page, 'Send');
      const dialog = page.getByRole('dialog', { name: 'Thanks for your message!' });
      await dialog.waitFor();
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await page.close();
    });
  });

  describe('apps, devices and their developers', () => {
    const { sink, link, openForm } = supportForm;

    it('apps: the provider-supported app goes to support; each developer contact kind is shown', async () => {
      const page = await openForm();
      await chooseApp(page, /Guardian Security/);
      await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro', 'apps', 'knowledgeBase', 'ticket']);
      // A trusted author's app goes to support too, although its support link is an ordinary https site.
      await step(page, 'apps')
        .getByRole('button', { name: /Hearth Chime/ })
        .click();
      await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro', 'apps', 'knowledgeBase', 'ticket']);

      const kinds: [RegExp, string | null, string][] = [
        [/WattWise Energy/, 'Visit the support website', 'is made by a verified developer.'],
        [/Weather Station/, 'Report an issue', 'is made by a community developer.'],
        [/SoundWave Speakers/, 'Visit the forum topic', 'is made by a community developer.'],
        [/Tinker Blinds/, null, 'is made by a community developer.'],
      ];
      for (const [app, link, who] of kinds) {
        await step(page, 'apps').getByRole('button', { name: app }).click();
        // Named by where it leads: these apps' developers, not Hearth support.
        await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact the developer' }).click();
        const contact = step(page, 'contactDeveloper');
        await contact.getByText(who).waitFor();
        if (link) expect(await contact.getByRole('link', { name: link }).getAttribute('target')).toBe('_blank');
        else {
          await contact.getByText('The developer has not shared a way to contact them.', { exact: false }).waitFor();
          expect(await contact.getByRole('link', { name: 'Ask on the community forum' }).getAttribute('target')).toBe('_blank');
        }
        expect(await contact.getByRole('button', { name: 'E-mail the developer' }).count()).toBe(0);
      }
      await expectAccessible(page);
      await page.close();
    });

    it('apps: an app behind its live version ends on the knowledge base with the update warning', async () => {
      const page = await openForm();
      await chooseApp(page, /Lumen & Co Lights/);
      const kb = step(page, 'knowledgeBaseFinal');
      await kb.getByText('The selected app is out of date.').waitFor();
      // The update link opens the app's page in the catalogue this cloud serves.
      const update = await fetch((await kb.getByRole('link', { name: 'Update the app' }).getAttribute('href')) as string);
      expect(update.status).toBe(200);
      expect(await update.text()).toContain('<h1>Lumen &amp; Co Lights</h1>');
      expect(await kb.getByRole('button', { name: 'Contact Support' }).count()).toBe(0);
      await page.close();
    });

    it('e-mail developer: hub offline (500), the mail server down (503), then sent to the developer', async () => {
      const { smtp } = supportForm;
      const page = await openForm();
      await chooseApp(page, /NordHeat Climate/);
      await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact the developer' }).click();
      await step(page, 'contactDeveloper').getByText('NordHeat Climate is made by a verified developer.').waitFor();
      await step(page, 'contactDeveloper').getByRole('button', { name: 'E-mail the developer' }).click();
      const form = step(page, 'emailDeveloper');
      await form.getByRole('button', { name: 'Send' }).click();
      await form.getByText('A minimum of 20 characters is required to describe your issue.').waitFor();
      await form
        .getByPlaceholder('Please include as much details as you can.')
        .fill('The thermostat ignores the schedule since Monday.');

      // Everything real: the hub mails the developer through the cloud, which sends through SMTP. First the link
      // between the hubs and the cloud is down (the hub answers 500), then the cloud's mail server is (503).
      link.cut();
      await form.getByRole('button', { name: 'Send' }).click();
      await form
        .getByText(
          'Unfortunately, we were unable to generate a diagnostic report of the app to send with the email because your hub appears to be offline.',
        )
        .waitFor({ timeout: 20_000 });
      link.restore();
      await sink.stop();
      await form.getByRole('button', { name: 'Send' }).click();
      await form
        .getByText("We've encountered a problem sending the email. The cloud could not send the e-mail (status 503).")
        .waitFor({ timeout: 20_000 });
      expect(
        await form.getByRole('link', { name: 'feel free to send an email to the developer here' }).getAttribute('href'),
      ).toBe('mailto:support@nordheat.example');
      await sink.start(smtp.host, smtp.port);
      await form.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('dialog', { name: 'Your e-mail has been sent to the developer.' }).waitFor();
      await page.getByRole('link', { name: 'Return to Knowledge Base' }).waitFor();
      const mail = await sink.waitFor((m) => m.subject.startsWith('Message about NordHeat Climate'), 15_000);
      expect(mail.to[0]).toMatch(/nordheat/);
      expect(mail.text).toContain('The thermostat ignores the schedule since Monday.');
      expect(mail.text).toContain('--- Diagnostic report ---');
      await page.close();
    });

    it('devices: grouped by app (verified authors only); a device of a developer-supported app goes to its developer', async () => {
      const page = await openForm();
      await page.getByRole('button', { name: /^Home/ }).click();
      await step(page, 'hubCategoryPro').getByRole('button', { name: 'Devices', exact: true }).click();
      const devices = step(page, 'devices');
      const group = devices.getByRole('button', { name: /NordHeat Climate/ });
      await group.waitFor();
      expect(await devices.getByRole('button', { name: /SoundWave/ }).count()).toBe(0);
      await page.waitForFunction(() => document.querySelector('section[data-step="devices"] [aria-expanded="true"]') !== null);
      await devices.getByRole('radio').first().waitFor();
      await expectAccessible(page);
      // Guardian's support link is on the provider's support site: its devices go to Hearth support.
      await devices.getByRole('group', { name: 'Guardian Security' }).getByRole('radio').first().check();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'knowledgeBase']);
      await step(page, 'knowledgeBase').getByRole('link', { name: 'A device does not respond' }).waitFor();
      // NordHeat supports its own app: its devices go straight to the developer.
      await devices.getByRole('group', { name: 'NordHeat Climate' }).getByRole('radio').first().check();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'contactDeveloper']);
      // The hub's built-in app (the virtual devices) is the provider's own: listed by name, its devices to Hearth support.
      const builtIn = devices.getByRole('group', { name: 'Virtual devices' });
      await builtIn.getByRole('radio', { name: 'Desk lamp' }).check();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'knowledgeBase']);
      await step(page, 'knowledgeBase').getByRole('button', { name: 'Contact Support' }).click();
      expect(await stepNames(page)).toEqual(['mainCategory', 'hubCategoryPro', 'devices', 'knowledgeBase', 'ticket']);
      // Every device and app icon is an image that loaded (from the hub that serves it), none broken.
      const images = await devices
        .locator('img')
        .evaluateAll((list) => list.map((img) => [(img as HTMLImageElement).src, (img as HTMLImageElement).naturalWidth > 0]));
      expect(images.length).toBeGreaterThan(10);
      expect(images.filter(([, loaded]) => !loaded)).toEqual([]);
      await page.close();
    });
  });
});
