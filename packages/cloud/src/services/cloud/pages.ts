import { logoSvg } from '@hearth/contract/fastify';
import type { FastifyInstance } from 'fastify';

/** Server-rendered pages of the cloud (sign-in, password reset): plain HTML forms that work without JavaScript. */

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export const html = (strings: TemplateStringsArray, ...values: Array<string | number | RawHtml>): RawHtml =>
  new RawHtml(
    strings.reduce(
      (out, part, i) =>
        out +
        part +
        (i < values.length ? (values[i] instanceof RawHtml ? String(values[i]) : escapeHtml(String(values[i]))) : ''),
      '',
    ),
  );

export class RawHtml {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

// The account pages' look (packages/account/src/styles.css): the same colours, cards and 44 px controls.
const STYLE = `
  :root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 16px; line-height: 1.5;
    color: #1f2937; background: #fafaf9; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; overflow-wrap: anywhere; }
  header { align-self: stretch; background: #fff; border-bottom: 1px solid #d1d5db; padding: .25rem 1rem; }
  header a { display: inline-flex; align-items: center; gap: .5rem; min-height: 44px; font-weight: 700; color: #1f2937;
    text-decoration: none; }
  header svg { width: 28px; height: 28px; flex: none; }
  main { width: min(28rem, calc(100% - 1.5rem)); margin: 1rem 0; padding: 1.25rem 1rem; background: #fff;
    border: 1px solid #d1d5db; border-radius: 12px; }
  main.wide { width: min(48rem, calc(100% - 1.5rem)); }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  p.lead { margin: 0 0 1.25rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  .hint { margin: 0 0 .35rem; color: #4b5563; font-size: .9rem; }
  input[type=email], input[type=password], input[type=text] { width: 100%; min-height: 44px; padding: .5rem .75rem; font: inherit;
    border: 1px solid #6b7280; border-radius: 8px; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  button { margin-top: 1.25rem; width: 100%; min-height: 44px; padding: .6rem; font: inherit; font-weight: 600; border-radius: 8px;
    border: 0; background: #9a3412; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #9a3412; border: 2px solid #9a3412; }
  button:disabled { opacity: .6; cursor: wait; }
  a { color: #9a3412; }
  .error { border-left: 4px solid #b91c1c; padding: .6rem .8rem; margin: 0 0 1rem; background: #fef2f2; border-radius: 4px; }
  .links { display: flex; flex-direction: column; margin-top: 1rem; }
  .links a { display: inline-flex; align-items: center; min-height: 44px; }
`;

/** The logo beside the name in the header: drawn inline (the pages' policy loads no images), silent to screen readers. */
const HEADER_LOGO = new RawHtml(
  logoSvg.replace('<svg ', '<svg aria-hidden="true" focusable="false" ').replace(/<title>[^<]*<\/title>/, ''),
);

/** A complete, accessible page around `body`; `wide` for reading (a mailbox) rather than a form. */
export function page(title: string, body: RawHtml, options: { wide?: boolean; style?: string } = {}): string {
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Hearth</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${new RawHtml(STYLE + (options.style ?? ''))}</style>
</head>
<body>
<header><a href="/">${HEADER_LOGO}Hearth</a></header>
<main${new RawHtml(options.wide ? ' class="wide"' : '')}>
${body}
</main>
</body>
</html>`);
}

export function errorBox(message: string | null): RawHtml {
  return message ? html`<p class="error" role="alert" id="form-error">${message}</p>` : html``;
}

export const hiddenFields = (fields: Record<string, string | undefined>): RawHtml =>
  new RawHtml(
    Object.entries(fields)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => String(html`<input type="hidden" name="${k}" value="${v as string}">`))
      .join('\n'),
  );

/**
 * The site's icon at the cloud's root, which its pages (these, the account pages, the API reference) link to, and
 * `/favicon.ico`, which browsers and tools ask for on their own, sent to it: no page of the cloud meets a 404 for it.
 */
export function registerFavicon(app: FastifyInstance): void {
  app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(logoSvg),
  );
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/favicon.svg', 301));
}
