import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hiddenFields, html, type RawHtml } from '../pages';
import type { Passkeys } from './passkeys';

const require = createRequire(import.meta.url);
/** @simplewebauthn/browser's self-contained build (it defines `SimpleWebAuthnBrowser`), served as it ships. */
const BROWSER_LIBRARY = readFileSync(
  // The package exports only its modules: its root is two levels above the CommonJS entry (script/index.js).
  join(require.resolve('@simplewebauthn/browser'), '..', '..', 'dist', 'bundle', 'index.umd.min.js'),
  'utf8',
);
const PAGE_SCRIPT = readFileSync(join(import.meta.dirname, 'passkey-button.js'), 'utf8');
export const PASSKEY_OPTIONS_ROUTE = '/cloud/oauth2/passkey-options';

/**
 * The passkey button of the sign-in page: a second form posting the passkey's answer with the same carried fields.
 * Hidden until its script finds WebAuthn in the browser.
 */
export function passkeyForm(carried: Record<string, string | undefined>): RawHtml {
  return html`<form method="post" action="/cloud/oauth2/authorise" id="passkey-form" hidden>
${hiddenFields(carried)}
<input type="hidden" name="passkey" value="">
<button type="submit" class="secondary">Use a passkey</button>
<p class="hint" id="passkey-status" role="status"></p>
</form>
<script src="/cloud/oauth2/webauthn-browser.js"></script>
<script src="/cloud/oauth2/passkey-sign-in.js"></script>`;
}

/** The scripts of {@link passkeyForm} and the challenge its button asks for (only with the form's CSRF token). */
export function registerPasskeySignInRoutes(
  app: FastifyInstance,
  passkeys: Passkeys,
  csrfValid: (request: FastifyRequest, token: string | undefined) => boolean,
): void {
  const script = (text: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(text);
  app.get('/cloud/oauth2/webauthn-browser.js', { schema: { hide: true } }, script(BROWSER_LIBRARY));
  app.get('/cloud/oauth2/passkey-sign-in.js', { schema: { hide: true } }, script(PAGE_SCRIPT));
  app.post(PASSKEY_OPTIONS_ROUTE, { schema: { hide: true } }, async (request, reply) => {
    const body = request.body as { csrf?: unknown } | undefined;
    if (!csrfValid(request, typeof body?.csrf === 'string' ? body.csrf : undefined))
      return reply.status(403).send({
        error: 'forbidden',
        error_description: 'The sign-in form expired. Reload the page and try again.',
        statusCode: 403,
      });
    return reply.header('cache-control', 'no-store').send(await passkeys.signInOptions());
  });
}
