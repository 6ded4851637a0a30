import { createHmac, randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import { addressKey, RateLimited, type RatePolicy } from '@hearth/contract/fastify';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sharedSecret } from '../../platform/cluster/secrets';
import type { CloudContext } from '../../platform/context';
import { hashSecret, newSecret, safeEqual } from '../../platform/tokens';
import { passwordStrength } from './account/password-policy';
import type { OAuth } from './oauth';
import { pkceProblem } from './oauth-codes';
import { errorBox, hiddenFields, html, page, RawHtml } from './pages';
import { PASSKEY_OPTIONS_ROUTE, passkeyForm, registerPasskeySignInRoutes } from './passkeys/sign-in-page';
import { requestPasswordReset, resetPassword, resetTokenUser } from './password-reset';

const CSRF_COOKIE = 'hearth_csrf';
/** How long the code step of a two-factor sign-in waits for its code. */
const TWO_FACTOR_STEP_MS = 10 * 60 * 1000;
/** Parameters of the authorisation request carried through the sign-in form. */
const AUTHORISE_FIELDS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;

type Fields = Record<string, string>;

/** Where "Back" leads: the app that asked, told that the person went back (RFC 6749 §4.1.2.1, `access_denied`). */
function backTo(redirectUri: string, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', 'access_denied');
  if (state) url.searchParams.set('state', state);
  return url.toString();
}

const stringFields = (value: unknown): Fields => {
  const out: Fields = {};
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
};

/** The token endpoint's own limit per address, below the general one: each call may check a password or secret. */
const TOKEN_ENDPOINT: RatePolicy = { name: 'oauth-token', quota: 120, windowSeconds: 60 };
/** The limit per address of each sign-in and password page (each method and path counts apart). */
const SIGN_IN_PAGES: RatePolicy = { name: 'sign-in-pages', quota: 60, windowSeconds: 60 };
const PAGE_ROUTES = new Set([
  '/cloud/oauth2/authorise',
  PASSKEY_OPTIONS_ROUTE,
  '/cloud/password-forgotten',
  '/cloud/password-reset',
]);

/**
 * The sign-in page of `GET /cloud/oauth2/authorise` and the password pages. Forms are CSRF-protected by a
 * double-submit token bound to a random cookie (the hidden field is an HMAC of the cookie), rate limited per
 * address (beyond the general limits), and failed sign-ins are slowed per account and per address.
 */
export async function registerSignInPages(app: FastifyInstance, context: CloudContext, oauth: OAuth): Promise<void> {
  // Every node must accept the forms of every other: the key is configured or kept in the database.
  const csrfKey = await sharedSecret(context.database, 'sign-in-csrf', context.config.signInSecret);
  const csrfFor = (nonce: string) => createHmac('sha256', csrfKey).update(nonce).digest('base64url');
  const secure = context.config.publicUrl.startsWith('https://');

  await app.register(formbody);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === '/cloud/oauth2/token') await context.rateLimiter.count(request, TOKEN_ENDPOINT, addressKey(request.ip));
    else if (url !== undefined && PAGE_ROUTES.has(url))
      await context.rateLimiter.count(request, SIGN_IN_PAGES, `${request.method} ${url} ${addressKey(request.ip)}`);
  });

  /** Sets a fresh CSRF cookie and answers the matching form token. */
  function issueCsrf(reply: FastifyReply, path: string): string {
    const nonce = randomBytes(24).toString('base64url');
    reply.header(
      'set-cookie',
      serializeCookie(CSRF_COOKIE, nonce, { httpOnly: true, sameSite: 'lax', secure, path, maxAge: 3600 }),
    );
    return csrfFor(nonce);
  }

  function csrfValid(request: FastifyRequest, token: string | undefined): boolean {
    const nonce = parseCookie(request.headers.cookie ?? '')[CSRF_COOKIE];
    return Boolean(nonce && token && safeEqual(csrfFor(nonce), token));
  }

  // Browsers apply form-action to the redirect that follows a submission too: the sign-in form may lead to the
  // (validated) address of the app that asked.
  // The sign-in form runs the cloud's own passkey scripts (and nothing else).
  const send = (reply: FastifyReply, status: number, body: string, formTarget?: string, scripts = false) =>
    reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'DENY')
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'unsafe-inline';${scripts ? " script-src 'self'; connect-src 'self';" : ''} form-action 'self'${formTarget ? ` ${formTarget}` : ''}; frame-ancestors 'none'`,
      )
      .type('text/html; charset=utf-8')
      .send(body);

  const problemPage = (reply: FastifyReply, status: number, message: string) =>
    send(
      reply,
      status,
      page(
        'Sign-in problem',
        html`<h1>This sign-in link does not work</h1>${errorBox(message)}<p>Go back to the app or page you came from and try again.</p>`,
      ),
    );

  /** Validates the client and redirect address; problems are shown here, never redirected. */
  async function checkRequest(fields: Fields): Promise<{ clientName: string; redirectUri: string } | string> {
    if (!fields.client_id) return 'The request names no application (client_id is missing).';
    const client = await oauth.client(fields.client_id);
    if (!client) return 'The application that sent you here is not known to Hearth.';
    if (!client.grants.includes('authorization_code')) return 'This application cannot ask you to sign in here.';
    const redirectUri = fields.redirect_uri || client.redirect_uris[0];
    if (!redirectUri || !(await oauth.allowsRedirect(client.redirect_uris, redirectUri)))
      return 'The address to return to is not registered for this application.';
    if (fields.response_type !== 'code') return 'The request must ask for response_type=code.';
    const pkce = pkceProblem(client, fields.code_challenge, fields.code_challenge_method);
    if (pkce) return pkce;
    return { clientName: client.name, redirectUri };
  }

  function signInForm(
    reply: FastifyReply,
    status: number,
    fields: Fields,
    checked: { clientName: string; redirectUri: string },
    error: string | null,
    email = '',
  ) {
    const clientName = checked.clientName;
    const csrf = issueCsrf(reply, '/cloud/');
    const carried = Object.fromEntries(AUTHORISE_FIELDS.map((k) => [k, fields[k]]));
    const describedBy = error ? ' aria-describedby="form-error"' : '';
    return send(
      reply,
      status,
      page(
        'Sign in',
        html`<h1>Sign in to Hearth</h1>
<p class="lead">to continue to <strong>${clientName}</strong></p>
${errorBox(error)}
<form method="post" action="/cloud/oauth2/authorise" novalidate>
${hiddenFields({ ...carried, csrf })}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}"${new RawHtml(describedBy)}${new RawHtml(email ? '' : ' autofocus')}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${new RawHtml(email ? ' autofocus' : '')}>
<button type="submit">Sign in</button>
</form>
${passkeyForm({ ...carried, csrf })}
<nav class="links" aria-label="More">
<a href="/signup">Create account</a>
<a href="/cloud/password-forgotten">Forgot your password?</a>
<a href="${backTo(checked.redirectUri, fields.state)}">Back to ${clientName}</a>
</nav>`,
      ),
      new URL(checked.redirectUri).origin,
      true,
    );
  }

  /** The second step for accounts with two-factor sign-in: the code, carried by a short-lived one-time token. */
  function codeForm(
    reply: FastifyReply,
    status: number,
    fields: Fields,
    checked: { clientName: string; redirectUri: string },
    step: string,
    error: string | null,
  ) {
    const csrf = issueCsrf(reply, '/cloud/');
    const carried = Object.fromEntries(AUTHORISE_FIELDS.map((k) => [k, fields[k]]));
    const describedBy = error ? 'code-hint form-error' : 'code-hint';
    return send(
      reply,
      status,
      page(
        'Two-factor sign-in',
        html`<h1>Enter your code</h1>
<p class="lead">to continue to <strong>${checked.clientName}</strong></p>
${errorBox(error)}
<form method="post" action="/cloud/oauth2/authorise" novalidate>
${hiddenFields({ ...carried, csrf, two_factor: step })}
<label for="code">Code from your authenticator app</label>
<p class="hint" id="code-hint">Six digits, or one of your recovery codes.</p>
<input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required autofocus aria-describedby="${describedBy}">
<button type="submit">Continue</button>
</form>
<nav class="links" aria-label="More">
<a href="${backTo(checked.redirectUri, fields.state)}">Back to ${checked.clientName}</a>
</nav>`,
      ),
      new URL(checked.redirectUri).origin,
    );
  }

  /** Starts the code step: the password was right and the account has two-factor sign-in. */
  async function startTwoFactorStep(userId: string): Promise<string> {
    const step = newSecret();
    await context.database.db
      .insertInto('one_time_tokens')
      .values({
        token_hash: hashSecret(step),
        kind: 'two_factor',
        user_id: userId,
        expires_at: new Date(context.clock.now() + TWO_FACTOR_STEP_MS),
      })
      .execute();
    return step;
  }

  async function continueTwoFactor(
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Fields,
    checked: { clientName: string; redirectUri: string },
  ) {
    const step = fields.two_factor as string;
    const expired = () => signInForm(reply, 400, fields, checked, 'Your sign-in expired. Please sign in again.');
    if (!csrfValid(request, fields.csrf)) return expired();
    const { db } = context.database;
    const pending = await db
      .selectFrom('one_time_tokens')
      .select('user_id')
      .where('token_hash', '=', hashSecret(step))
      .where('kind', '=', 'two_factor')
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date(context.clock.now()))
      .executeTakeFirst();
    if (!pending) return expired();
    if (!fields.code) return codeForm(reply, 400, fields, checked, step, 'Enter the code from your authenticator app.');
    let ok: boolean;
    try {
      ok = await oauth.twoFactor.verify(pending.user_id, fields.code, request.ip);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      error.writeHeaders(reply);
      return codeForm(reply, 429, fields, checked, step, error.message);
    }
    if (!ok) return codeForm(reply, 401, fields, checked, step, 'That code is not correct. Try the next one.');
    const used = await db
      .updateTable('one_time_tokens')
      .set({ used_at: new Date(context.clock.now()) })
      .where('token_hash', '=', hashSecret(step))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return expired();
    return signedIn(request, reply, fields, checked, pending.user_id);
  }

  /** The person proved who they are here: the single sign-on cookie, and back to the app with a code. */
  async function signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Fields,
    checked: { clientName: string; redirectUri: string },
    userId: string,
  ) {
    await oauth.browserSessions.start(reply, userId);
    return codeRedirect(request, reply, fields, checked, userId);
  }

  /** Back to the app with a code; a hub's address that is not one of the person's hubs gets no code at all. */
  async function codeRedirect(
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Fields,
    checked: { clientName: string; redirectUri: string },
    userId: string,
  ) {
    const location = await oauth.authorize(request, { ...fields, redirect_uri: checked.redirectUri }, userId);
    if (location === null)
      return problemPage(
        reply,
        403,
        'This sign-in came from an address of a Hearth hub that is not one of yours, or that the hub did not prove it serves, so it cannot continue.',
      );
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  }

  /** The passkey form's answer: the passkey alone signs in (it was made and used with user verification). */
  async function passkeySignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Fields,
    checked: { clientName: string; redirectUri: string },
  ) {
    if (!csrfValid(request, fields.csrf))
      return signInForm(reply, 403, fields, checked, 'Your sign-in form expired. Please try again.');
    let answer: unknown;
    try {
      answer = JSON.parse(fields.passkey as string);
    } catch {
      answer = null;
    }
    const userId = await oauth.passkeys.verifySignIn(answer);
    if (!userId)
      return signInForm(reply, 401, fields, checked, 'That passkey did not sign you in. Try again, or use your password.');
    return signedIn(request, reply, fields, checked, userId);
  }
  registerPasskeySignInRoutes(app, oauth.passkeys, csrfValid);

  app.get('/cloud/oauth2/authorise', { schema: { hide: true } }, async (request, reply) => {
    const fields = stringFields(request.query);
    const checked = await checkRequest(fields);
    if (typeof checked === 'string') return problemPage(reply, 400, checked);
    // Signed in here before (the single sign-on cookie): straight back with a code, unless the app asks for the form.
    const userId = fields.prompt === 'login' ? null : await oauth.browserSessions.current(request);
    if (userId) return codeRedirect(request, reply, fields, checked, userId);
    return signInForm(reply, 200, fields, checked, null);
  });

  app.post('/cloud/oauth2/authorise', { schema: { hide: true } }, async (request, reply) => {
    const fields = stringFields(request.body);
    const checked = await checkRequest(fields);
    if (typeof checked === 'string') return problemPage(reply, 400, checked);
    if (fields.two_factor) return continueTwoFactor(request, reply, fields, checked);
    if (fields.passkey) return passkeySignIn(request, reply, fields, checked);
    if (!csrfValid(request, fields.csrf))
      return signInForm(reply, 403, fields, checked, 'Your sign-in form expired. Please try again.', fields.email);
    if (!fields.email || !fields.password)
      return signInForm(reply, 400, fields, checked, 'Enter your e-mail address and password.', fields.email);
    let userId: string | null;
    try {
      userId = await oauth.signIn.check(fields.email, fields.password, request.ip);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      error.writeHeaders(reply);
      return signInForm(reply, 429, fields, checked, error.message, fields.email);
    }
    if (!userId) return signInForm(reply, 401, fields, checked, 'Wrong e-mail address or password.', fields.email);
    if (await oauth.twoFactor.enabled(userId))
      return codeForm(reply, 200, fields, checked, await startTwoFactorStep(userId), null);
    return signedIn(request, reply, fields, checked, userId);
  });

  const forgottenForm = (reply: FastifyReply, status: number, notice: string | null, error: string | null) => {
    const csrf = issueCsrf(reply, '/cloud/');
    return send(
      reply,
      status,
      page(
        'Forgotten password',
        html`<h1>Forgotten password</h1>
${notice ? html`<p role="status">${notice}</p>` : html``}${errorBox(error)}
<form method="post" action="/cloud/password-forgotten">
${hiddenFields({ csrf })}
<label for="email">E-mail address of your account</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus>
<button type="submit">Send me a reset link</button>
</form>
<nav class="links" aria-label="More"><a href="/">Back to your account</a></nav>`,
      ),
    );
  };

  app.get('/cloud/password-forgotten', { schema: { hide: true } }, async (_request, reply) =>
    forgottenForm(reply, 200, null, null),
  );
  app.post('/cloud/password-forgotten', { schema: { hide: true } }, async (request, reply) => {
    const fields = stringFields(request.body);
    if (!csrfValid(request, fields.csrf)) return forgottenForm(reply, 403, null, 'The form expired. Please try again.');
    if (!fields.email) return forgottenForm(reply, 400, null, 'Enter your e-mail address.');
    await requestPasswordReset(context, fields.email);
    return forgottenForm(
      reply,
      200,
      'If that address has a Hearth account, a reset link is on its way. It works once, for an hour.',
      null,
    );
  });

  const resetForm = (reply: FastifyReply, status: number, token: string, error: string | null) => {
    const csrf = issueCsrf(reply, '/cloud/');
    return send(
      reply,
      status,
      page(
        'Choose a new password',
        html`<h1>Choose a new password</h1>
${errorBox(error)}
<form method="post" action="/cloud/password-reset">
${hiddenFields({ csrf, token })}
<label for="password">New password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required autofocus>
<button type="submit">Save the new password</button>
</form>`,
      ),
    );
  };

  app.get('/cloud/password-reset', { schema: { hide: true } }, async (request, reply) => {
    const token = stringFields(request.query).token ?? '';
    if (!token || !(await resetTokenUser(context, token)))
      return problemPage(reply, 400, 'This reset link is invalid, used or expired. Ask for a new one.');
    return resetForm(reply, 200, token, null);
  });
  app.post('/cloud/password-reset', { schema: { hide: true } }, async (request, reply) => {
    const fields = stringFields(request.body);
    const token = fields.token ?? '';
    if (!csrfValid(request, fields.csrf)) return resetForm(reply, 403, token, 'The form expired. Please try again.');
    const password = fields.password ?? '';
    if (password.length < 8 || password.length > 256)
      return resetForm(reply, 400, token, 'The password must be 8 to 256 characters long.');
    const strength = passwordStrength(password);
    if (!strength.acceptable)
      return resetForm(reply, 400, token, `${strength.warning || 'This password is too easy to guess.'} Choose a longer one.`);
    if (!(await resetPassword(context, token, password)))
      return problemPage(reply, 400, 'This reset link is invalid, used or expired. Ask for a new one.');
    return send(
      reply,
      200,
      page(
        'Password changed',
        html`<h1>Password changed</h1><p role="status">Your new password is set and you were signed out everywhere. Sign in again from your app.</p>`,
      ),
    );
  });
}
