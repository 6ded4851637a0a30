import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudConfigFromEnv } from '../../config';
import type { Cloud } from '../../server';
import { call, internalToken, startTestCloud, TEST_PUBLIC_URL } from '../../testing';
import { htmlFromText, linkifiedHtml } from './format';
import { SmtpSink } from './sink';

const STRONG = 'quiet-lantern-meadow-3';
const signUp = (cloud: Cloud, email: string) =>
  call(cloud, 'POST', '/cloud/signup', null, { email, password: STRONG, firstname: 'Noor', lastname: 'New', acceptTerms: true });
const get = (cloud: Cloud, path: string) => fetch(`${cloud.url}${path}`);

describe('the development mailbox (demo, no SMTP server)', () => {
  let cloud: Cloud;
  let internal: string;
  beforeAll(async () => {
    cloud = await startTestCloud('pglite', { devMailbox: true });
    internal = await internalToken(cloud);
  });
  afterAll(() => cloud.stop());

  it('lists the mail the cloud sent, newest first, labelled as a development mailbox', async () => {
    expect((await signUp(cloud, 'noor.new@example.test')).status).toBe(202);
    await cloud.context.mail.sink?.waitFor((m) => m.to.includes('noor.new@example.test'));
    const later = { to: 'someone@example.test', subject: 'A later <mail>', body: 'Second.' };
    expect((await call(cloud, 'POST', '/cloud/mail/formatted', internal, later)).status).toBe(200);
    await cloud.context.mail.sink?.waitFor((m) => m.subject === later.subject);

    const response = await get(cloud, '/dev/mail');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toContain('<strong>Development mailbox.</strong>');
    expect(page).toContain('A later &lt;mail&gt;');
    const later_ = page.indexOf('A later &lt;mail&gt;');
    const verify = page.indexOf('Verify your Hearth e-mail address');
    expect(verify).toBeGreaterThan(-1);
    expect(later_).toBeLessThan(verify);
  });

  it('shows one mail with its links clickable, and its HTML part under a sandboxing policy', async () => {
    const mail = cloud.context.mail.sink?.messages.find((m) => m.to.includes('noor.new@example.test'));
    expect(mail).toBeDefined();
    const response = await get(cloud, `/dev/mail/${mail?.id}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/<h1>Verify your Hearth e-mail address<\/h1>/);
    expect(page).toContain('noor.new@example.test');
    const link = new RegExp(`<a href="(${TEST_PUBLIC_URL}/verify-email#token=[^"]+)">\\1</a>`).exec(page);
    expect(link?.[1]).toBe(new RegExp(`${TEST_PUBLIC_URL}/verify-email#token=\\S+`).exec(mail?.text ?? '')?.[0]);

    const part = await get(cloud, `/dev/mail/${mail?.id}/html`);
    expect(part.status).toBe(200);
    expect(part.headers.get('content-security-policy')).toMatch(/^sandbox /);
    expect(await part.text()).toContain(`<a href="${link?.[1]}">`);
  });

  it('answers 404 for a mail it does not hold', async () => {
    expect((await get(cloud, '/dev/mail/999999')).status).toBe(404);
    expect((await get(cloud, '/dev/mail/not-a-number')).status).toBe(404);
    expect((await get(cloud, '/dev/mail/999999/html')).status).toBe(404);
  });

  it('refuses a request from elsewhere, one a proxy forwarded, and one addressed to a foreign name', async () => {
    const asked = (options: { remoteAddress?: string; headers?: Record<string, string> }) =>
      cloud.app.inject({ method: 'GET', url: '/dev/mail', ...options }).then((r) => r.statusCode);
    expect(await asked({ headers: { host: '127.0.0.1:4000' } })).toBe(200);
    expect(await asked({ headers: { host: 'localhost:4000' } })).toBe(200);
    expect(await asked({ headers: { host: new URL(TEST_PUBLIC_URL).host } })).toBe(200);
    expect(await asked({ remoteAddress: '192.0.2.7', headers: { host: '127.0.0.1:4000' } })).toBe(403);
    expect(await asked({ headers: { host: '127.0.0.1:4000', 'x-forwarded-for': '192.0.2.7' } })).toBe(403);
    expect(await asked({ headers: { host: '127.0.0.1:4000', forwarded: 'for=192.0.2.7' } })).toBe(403);
    // A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) must not read the mail.
    expect(await asked({ headers: { host: 'rebound.example:4000' } })).toBe(403);
    const refused = await cloud.app.inject({ method: 'GET', url: '/dev/mail/1/html', remoteAddress: '192.0.2.7' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Only on this machine');
    expect(refused.body).not.toContain('verify-email');
  });
});

describe('no development mailbox where it must not be', () => {
  it('does not exist on a cloud that is not the demo', async () => {
    const cloud = await startTestCloud('pglite', { devMailbox: false });
    try {
      expect((await get(cloud, '/dev/mail')).status).toBe(404);
    } finally {
      await cloud.stop();
    }
  });

  it('does not exist when a real SMTP server is configured, even in the demo; that server gets an HTML part', async () => {
    const smtp = new SmtpSink();
    const { host, port } = await smtp.start();
    const cloud = await startTestCloud('pglite', { devMailbox: true, smtpUrl: `smtp://${host}:${port}` });
    try {
      expect((await signUp(cloud, 'real.smtp@example.test')).status).toBe(202);
      const mail = await smtp.waitFor((m) => m.to.includes('real.smtp@example.test'));
      expect(mail.html).toMatch(new RegExp(`<a href="${TEST_PUBLIC_URL}/verify-email#token=`));
      expect(mail.html).toContain('Welcome to Hearth.');
      expect((await get(cloud, '/dev/mail')).status).toBe(404);
      expect((await get(cloud, `/dev/mail/${mail.id}`)).status).toBe(404);
    } finally {
      await cloud.stop();
      await smtp.stop();
    }
  });

  it('is on in the demo only without SMTP_URL', () => {
    expect(cloudConfigFromEnv({ HEARTH_DEMO: '1' }).devMailbox).toBe(true);
    expect(cloudConfigFromEnv({ HEARTH_DEMO: '1', SMTP_URL: 'smtp://mail.example:25' }).devMailbox).toBe(false);
    expect(cloudConfigFromEnv({}).devMailbox).toBe(false);
  });
});

describe("a text mail's HTML part", () => {
  it('makes addresses links without the punctuation after them, and escapes the rest', () => {
    expect(linkifiedHtml('Open https://a.test/x?y=1&z=2. <b>now</b>')).toBe(
      'Open <a href="https://a.test/x?y=1&amp;z=2">https://a.test/x?y=1&amp;z=2</a>. &lt;b&gt;now&lt;/b&gt;',
    );
    const html = htmlFromText('Hi', 'Hello Sam,\n\nA line wrapped\nfor text readers:\n- one\n- two');
    expect(html).toContain('<p>Hello Sam,</p>');
    expect(html).toContain('<p>A line wrapped for text readers:<br>- one<br>- two</p>');
  });
});
