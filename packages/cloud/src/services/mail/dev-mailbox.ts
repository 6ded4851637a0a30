import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CloudContext } from '../../platform/context';
import { html, page, RawHtml } from '../cloud/pages';
import { paragraphsHtml } from './format';
import type { SmtpSink, SunkMessage } from './sink';

/**
 * The development mailbox: the local SMTP sink's mail as pages (`/dev/mail`), so a newcomer running the demo can
 * open the verification, invitation and reset links the cloud mails.
 *
 * Who can read it. The sink holds every mail the cloud sent, and a reset or verification link in it takes over the
 * account it was sent for; so the page exists only where that cannot matter and only for the person at the machine:
 * - it is registered only in the demo (`devMailbox`) and only when the cloud has a sink, that is when no SMTP
 *   server is configured; with `SMTP_URL` set the mail goes out and `/dev/mail` is a plain 404;
 * - it answers only a request whose peer is loopback and that no proxy forwarded (a proxy on this machine would
 *   make the world's requests look local), addressed by a loopback name or the cloud's own public host (a page
 *   elsewhere that points its own name at 127.0.0.1, DNS rebinding, is refused);
 * - it is never cached, never framed and runs no script; a mail's HTML part is shown under a sandboxing policy.
 * Anyone with a shell on the machine can read it, as they could read the cloud's memory or its data directory.
 */

const BASE = '/dev/mail';

const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_NAME = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

function hostnameOf(host: string | undefined): string | null {
  try {
    return host ? new URL(`http://${host}`).hostname : null;
  } catch {
    return null;
  }
}

/** Whether the request came from this machine, directly, to one of the cloud's own names. */
export function isLocalRequest(request: FastifyRequest, publicUrl: string): boolean {
  if (!LOOPBACK_PEER.test(request.socket.remoteAddress ?? '')) return false;
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) return false;
  const name = hostnameOf(request.headers.host);
  return name !== null && (LOOPBACK_NAME.test(name) || name === new URL(publicUrl).hostname);
}

const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'";
// A mail's own HTML: no script, no plugin, no request but images; its links still open (top-level navigation).
const MAIL_POLICY =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'";

const send = (reply: FastifyReply, status: number, body: string, policy = PAGE_POLICY) =>
  reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', policy)
    .type('text/html; charset=utf-8')
    .send(body);

const STYLE = `
  .note { border-left: 4px solid #9a3412; padding: .6rem .8rem; margin: 0 0 1rem; background: #fff7ed; border-radius: 4px; }
  .mails { list-style: none; margin: 1rem 0 0; padding: 0; border-top: 1px solid #d1d5db; }
  .mails li { border-bottom: 1px solid #d1d5db; }
  .mails a { display: block; min-height: 44px; padding: .6rem .25rem; text-decoration: none; color: #1f2937; }
  .mails a:hover .subject, .mails a:focus-visible .subject { text-decoration: underline; }
  .subject { display: block; font-weight: 600; color: #9a3412; }
  .meta { display: block; color: #4b5563; font-size: .9rem; }
  .actions { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: .5rem 0 0; }
  .actions a { display: inline-flex; align-items: center; min-height: 44px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .75rem; margin: .5rem 0 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  .text { border-top: 1px solid #d1d5db; padding-top: .5rem; }
  .text a { display: inline-block; max-width: 100%; min-height: 44px; padding: .6rem 0; }
`;

const banner = html`<p class="note" role="note"><strong>Development mailbox.</strong> No SMTP server is configured
(<code>SMTP_URL</code>), so the mail this cloud sends stays here, in memory, until it stops: the newest 500
messages, to every address. Only this machine can open this page; with a real SMTP server it does not exist.</p>`;

const when = (date: Date) =>
  html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 19).replace('T', ' ')} UTC</time>`;

function listPage(sink: SmtpSink): string {
  const newestFirst = [...sink.messages].reverse();
  const items = newestFirst.map(
    (mail) =>
      html`<li><a href="${BASE}/${mail.id}"><span class="subject">${mail.subject || '(no subject)'}</span><span class="meta">To ${mail.to.join(', ')} · ${when(mail.receivedAt)}</span></a></li>`,
  );
  const list =
    items.length === 0
      ? html`<p>No mail yet. Sign up at <a href="/signup">/signup</a>, and the verification mail appears here.</p>`
      : html`<ol class="mails" aria-label="Mail, newest first">${new RawHtml(items.join(''))}</ol>`;
  return page(
    'Development mailbox',
    html`${banner}<h1>Mail</h1>
<p class="actions"><a href="${BASE}">Refresh</a></p>
${list}`,
    { wide: true, style: STYLE },
  );
}

function messagePage(mail: SunkMessage): string {
  return page(
    `${mail.subject || '(no subject)'} · Development mailbox`,
    html`${banner}<p class="actions"><a href="${BASE}">All mail</a></p>
<h1>${mail.subject || '(no subject)'}</h1>
<dl><dt>From</dt><dd>${mail.from}</dd><dt>To</dt><dd>${mail.to.join(', ')}</dd><dt>Received</dt><dd>${when(mail.receivedAt)}</dd></dl>
<div class="text">${new RawHtml(paragraphsHtml(mail.text))}</div>
${mail.html ? html`<p class="actions"><a href="${BASE}/${mail.id}/html">The mail as HTML</a></p>` : html``}`,
    { wide: true, style: STYLE },
  );
}

const notFoundPage = () =>
  page(
    'Not found · Development mailbox',
    html`${banner}<h1>No such mail</h1>
<p>It may be older than the newest 500, or the cloud restarted since. <a href="${BASE}">All mail</a></p>`,
    { wide: true, style: STYLE },
  );

/** The mailbox's address when this cloud serves one (printed by `npm start`), else `null`. */
export const devMailboxUrl = (context: CloudContext): string | null =>
  context.config.devMailbox && context.mail.sink ? `${context.config.publicUrl}${BASE}` : null;

/** Registers `/dev/mail` when the cloud is the demo's and keeps its mail in the sink; otherwise nothing. */
export function devMailboxRoutes(app: FastifyInstance, context: CloudContext): void {
  const sink = context.mail.sink;
  if (!devMailboxUrl(context) || !sink) return;
  const publicUrl = context.config.publicUrl;
  const find = (id: string) => (/^\d{1,12}$/.test(id) ? sink.messages.find((m) => m.id === Number(id)) : undefined);

  const onlyHere = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLocalRequest(request, publicUrl))
      return send(
        reply,
        403,
        page(
          'Development mailbox',
          html`<h1>Only on this machine</h1>
<p>The development mailbox answers only requests made on the computer the cloud runs on, to its own address.</p>`,
        ),
      );
  };
  app.get(BASE, { onRequest: onlyHere }, async (_request, reply) => send(reply, 200, listPage(sink)));
  app.get<{ Params: { id: string } }>(`${BASE}/:id`, { onRequest: onlyHere }, async (request, reply) => {
    const mail = find(request.params.id);
    return mail ? send(reply, 200, messagePage(mail)) : send(reply, 404, notFoundPage());
  });
  app.get<{ Params: { id: string } }>(`${BASE}/:id/html`, { onRequest: onlyHere }, async (request, reply) => {
    const mail = find(request.params.id);
    return mail?.html ? send(reply, 200, mail.html, MAIL_POLICY) : send(reply, 404, notFoundPage());
  });
}
