import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  createUser,
  DEMO_CLIENTS,
  describeOnDatabases,
  internalToken,
  openSignInPage,
  pkcePair,
  signIn,
  startTestCloud,
  TEST_PUBLIC_URL,
} from '../../testing';
import { createHelpdesk } from './service';
import { attachmentKey } from './storage';

const ticket = (over: Record<string, unknown> = {}) => ({
  subject: 'Zigbee drops',
  message: 'My Zigbee sensors drop off every night.',
  name: 'Dana Demo',
  email: 'demo@hearth.test',
  tags: ['hub', 'zigbee', 'hearth-pro-5q'],
  diagnosticReport: 'report-1',
  homeyApps: 'com.example (v1.0.0)',
  homeyAppsCount: 1,
  homeyBridges: 0,
  homeyId: '5ea7c0de00000000000000a1',
  homeyLanguage: 'en',
  homeyLicenses: '',
  homeyModel: 'hearth-pro-5q',
  homeyModelName: 'Hearth Pro (Early 2023)',
  homeyPlatform: 'local',
  homeyRegion: 'eu',
  homeySoftwareVersion: '12.1.0',
  homeyUsers: 1,
  underVoltagePercentage: '25%',
  underVoltageOccured: 'yes',
  appId: '',
  driverId: '',
  orderId: '',
  subscriptionId: '',
  subscriptions: '',
  supportFormPath: 'Home → Zigbee',
  uploadTokens: [],
  ...over,
});

describeOnDatabases('helpdesk service', (backend) => {
  let cloud: Cloud;
  let token: string;
  const url = (path: string) => `${cloud.url}/api/helpdesk${path}`;
  const auth = () => ({ authorization: `Bearer ${token}` });
  const upload = (name: string, body: Buffer | ReadableStream | string, headers: Record<string, string> = {}, bearer = token) =>
    fetch(url(`/attachment?filename=${encodeURIComponent(name)}&mimetype=image%2Fpng`), {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/octet-stream', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
  const postTicket = (body: unknown, key?: string, bearer = token) =>
    fetch(url('/ticket'), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
    });

  const storedAttachment = async (uploadToken: string) => {
    const blob = await cloud.context.blobs.get(attachmentKey(uploadToken));
    return blob ? Buffer.concat(await blob.body.toArray()) : null;
  };

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    token = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  it('answers an article by id with its name and page address, and serves the page', async () => {
    const response = await fetch(url('/article?id=zigbee'));
    expect(response.status).toBe(200);
    const article = (await response.json()) as { name: string; html_url: string };
    expect(article).toEqual({
      id: 'zigbee',
      name: 'Zigbee devices',
      html_url: `${TEST_PUBLIC_URL}/api/helpdesk/articles/zigbee`,
    });
    const page = await fetch(`${cloud.url}/api/helpdesk/articles/zigbee`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<h1>Zigbee devices</h1>');
    const index = await (await fetch(`${cloud.url}/api/helpdesk/articles`)).text();
    expect(index).toContain('/api/helpdesk/articles/cant-sign-in');
    expect((await fetch(`${cloud.url}/api/helpdesk/articles/nope`)).status).toBe(404);
  });

  it("answers Can't sign in? with the sign-in page's own ways in, and no others", async () => {
    const { html: signInPage } = await openSignInPage(cloud, {
      client_id: DEMO_CLIENTS.supportForm.id,
      redirect_uri: `${TEST_PUBLIC_URL}/support/`,
      response_type: 'code',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    const texts = (page: string, tag: string) =>
      [...page.matchAll(new RegExp(`<${tag}[^>]*>([^<]+)</${tag}>`, 'g'))].map((match) => (match[1] as string).trim());
    const ways = [...texts(signInPage, 'a'), ...texts(signInPage, 'button')];
    expect(ways).toEqual(expect.arrayContaining(['Forgot your password?', 'Use a passkey']));
    for (const id of ['cant-sign-in', 'reset-password']) {
      const article = await (await fetch(`${cloud.url}/api/helpdesk/articles/${id}`)).text();
      // Every link or button the article names is on the sign-in page.
      for (const named of texts(article, 'strong').filter((text) => /\?$|passkey/i.test(text))) expect(ways).toContain(named);
      // No way in the cloud does not offer.
      for (const missing of ['Google', 'Apple', 'Facebook']) expect(article).not.toContain(missing);
    }
  });

  it('refuses unknown and missing article ids with coded errors', async () => {
    const unknown = await fetch(url('/article?id=nope'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found' });
    const missing = await fetch(url('/article'));
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain('id');
  });

  it('needs a signed-in user for attachments and tickets', async () => {
    const anonymous = await fetch(url('/attachment?filename=a.png&mimetype=image/png'), {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    expect(anonymous.status).toBe(401);
    const ticketResponse = await fetch(url('/ticket'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ticketResponse.status).toBe(401);
    const bad = await postTicket(ticket(), undefined, 'not-a-token');
    expect(bad.status).toBe(401);
  });

  it('streams an attachment to the blob store and answers its token', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const response = await upload('screen shot.png', bytes);
    expect(response.status).toBe(200);
    const { token: uploadToken } = (await response.json()) as { token: string };
    expect(uploadToken).toMatch(/^[0-9a-f]{48}$/);
    expect(Buffer.compare((await storedAttachment(uploadToken)) ?? Buffer.alloc(0), bytes)).toBe(0);
  });

  it('refuses attachments over 50 MB: by declared length, and while streaming a body without one', async () => {
    const declared = await fetch(url('/attachment?filename=big.bin&mimetype=application/octet-stream'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream', 'content-length': String(50 * 1024 * 1024 + 1) },
      body: Readable.toWeb(Readable.from([Buffer.alloc(10)])) as ReadableStream,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    // The server answers 413 before reading; the client may see the answer or a reset connection.
    if (declared instanceof Response) expect(declared.status).toBe(413);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent > 51) return controller.close();
        sent += 1;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const streamed = await upload('big.bin', stream);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: 'payload_too_large' });
    const exactly = await upload('max.bin', Buffer.alloc(50 * 1024 * 1024, 1));
    expect(exactly.status).toBe(200);
  });

  it('refuses an attachment sent as JSON instead of raw bytes, and a missing file name', async () => {
    const wrong = await fetch(url('/attachment?filename=a.json&mimetype=application/json'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(wrong.status).toBe(415);
    const noName = await upload('', Buffer.from('x'));
    expect(noName.status).toBe(400);
    expect(JSON.stringify(await noName.json())).toContain('filename');
  });

  it('creates a ticket with its attachments, e-mails the confirmation, and a retry with the same key creates no second one', async () => {
    const sink = cloud.context.mail.sink;
    if (!sink) throw new Error('tests run with the SMTP sink');
    const a = (await (await upload('a.png', Buffer.from('first file'))).json()) as { token: string };
    const b = (await (await upload('b.log', Buffer.from('second file'))).json()) as { token: string };
    const key = 'ticket-key-0001';
    const payload = ticket({ uploadTokens: [a.token, b.token] });
    const first = await postTicket(payload, key);
    expect(first.status).toBe(200);
    const created = (await first.json()) as { ticketCreated: boolean; id: string };
    expect(created.ticketCreated).toBe(true);
    const retry = await postTicket(payload, key);
    expect(await retry.json()).toEqual(created);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const rows = await cloud.context.database.db
      .selectFrom('helpdesk_tickets')
      .selectAll()
      .where('idempotency_key', '=', key)
      .execute();
    expect(rows).toHaveLength(1);
    const stored = await createHelpdesk(cloud.context).ticket(created.id);
    expect(stored?.payload).toEqual(payload);
    expect(stored?.attachments.map((f) => [f.filename, Number(f.size)])).toEqual([
      ['a.png', 10],
      ['b.log', 11],
    ]);
    expect((await storedAttachment(a.token))?.length).toBe(10);

    const mail = await sink.waitFor((m) => m.subject === 'We received your question: Zigbee drops');
    expect(mail.to).toContain('demo@hearth.test');
    expect(mail.text).toContain('Thanks for your message!');
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.messages.filter((m) => m.subject === 'We received your question: Zigbee drops')).toHaveLength(1);

    // The support team reads it through the private operation; customers cannot.
    const forCustomer = await fetch(url(`/ticket/${created.id}`), { headers: auth() });
    expect(forCustomer.status).toBe(403);
    const forTeam = await fetch(url(`/ticket/${created.id}`), {
      headers: { authorization: `Bearer ${await internalToken(cloud)}` },
    });
    expect(await forTeam.json()).toMatchObject({
      id: created.id,
      ticket: { subject: 'Zigbee drops', uploadTokens: [a.token, b.token] },
      attachments: [
        { filename: 'a.png', size: 10, mimetype: 'image/png' },
        { filename: 'b.log', size: 11, mimetype: 'image/png' },
      ],
    });

    // The uploads now belong to that ticket: another ticket cannot claim them.
    const reuse = await postTicket(ticket({ uploadTokens: [a.token] }), 'ticket-key-0002');
    expect(reuse.status).toBe(400);
    expect(JSON.stringify(await reuse.json())).toContain('uploadTokens');
  });

  it('validates the same limits as the form, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ message: 'a'.repeat(19) }, 'message'],
      [{ message: 'a'.repeat(10_001) }, 'message'],
      [{ subject: '' }, 'subject'],
      [{ subject: '   ' }, 'subject'],
      [{ subject: 's'.repeat(201) }, 'subject'],
      [{ underVoltageOccured: 'maybe' }, 'underVoltageOccured'],
      [{ uploadTokens: Array.from({ length: 13 }, (_, i) => `t${i}`) }, 'uploadTokens'],
      [{ homeyUsers: '2' }, 'homeyUsers'],
    ];
    for (const [over, field] of cases) {
      const response = await postTicket(ticket(over));
      expect(response.status, field).toBe(400);
      expect(JSON.stringify(await response.json()), field).toContain(field);
    }
    const badKey = await postTicket(ticket(), 'no spaces allowed');
    expect(badKey.status).toBe(400);
  });

  it('removes uploads that no ticket claimed within a day, keeping claimed ones', async () => {
    const helpdesk = createHelpdesk(cloud.context);
    const abandoned = (await (await upload('abandoned.png', Buffer.from('left behind'))).json()) as { token: string };
    expect(await helpdesk.removeUnclaimedAttachments(24 * 3600_000)).toBe(0);
    const removed = await helpdesk.removeUnclaimedAttachments(24 * 3600_000, new Date(Date.now() + 25 * 3600_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await storedAttachment(abandoned.token)).toBeNull();
    const claimed = await cloud.context.database.db
      .selectFrom('helpdesk_attachments')
      .select('token')
      .where('ticket_id', 'is not', null)
      .execute();
    expect(claimed.length).toBeGreaterThan(0);
    const response = await postTicket(ticket({ uploadTokens: [abandoned.token] }));
    expect(response.status).toBe(400);
  });

  it("one user cannot attach another user's upload", async () => {
    const other = await createUser(cloud, `other-${backend}@hearth.test`);
    const mine = (await (await upload('private.png', Buffer.from('mine'))).json()) as { token: string };
    const response = await postTicket(ticket({ uploadTokens: [mine.token] }), undefined, other.token);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('uploadTokens');
  });
});
