import { expectLimited } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../platform/tokens';
import type { Cloud } from '../../server';
import {
  authorizationCode,
  call,
  createUser,
  DEMO_CLIENTS,
  DEMO_USER,
  describeOnDatabases,
  openSignInPage,
  pkcePair,
  readJson,
  signIn,
  startTestCloud,
  submitSignIn,
  TEST_PUBLIC_URL,
  tokenRequest,
} from '../../testing';

const SUPPORT_REDIRECT = `${TEST_PUBLIC_URL}/support/`;

/** The support form's authorisation request (a public client), with an S256 challenge. */
const supportFormQuery = (challenge: string): Record<string, string> => ({
  client_id: DEMO_CLIENTS.supportForm.id,
  redirect_uri: SUPPORT_REDIRECT,
  response_type: 'code',
  code_challenge: challenge,
  code_challenge_method: 'S256',
});

const supportForm = { id: DEMO_CLIENTS.supportForm.id };

describeOnDatabases('OAuth2', (backend) => {
  let cloud: Cloud;
  // The sign-in holds last a second from the last failure: the test of them holds the limits' clock still (null: the
  // wall clock), so a loaded machine taking over a second between two requests cannot end the hold early.
  let limitsTime: number | null = null;
  beforeAll(async () => {
    cloud = await startTestCloud(backend, {}, { limitsClock: () => limitsTime ?? Date.now() });
  });
  afterAll(() => cloud.stop());

  describe('password grant', () => {
    it('issues tokens for client credentials in HTTP Basic (percent-encoded) and serves /user/me', async () => {
      const response = await tokenRequest(cloud, {
        grant_type: 'password',
        username: DEMO_USER.email,
        password: DEMO_USER.password,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const tokens = await readJson(response);
      expect(tokens).toMatchObject({ token_type: 'Bearer' });
      expect(tokens.expires_in).toBeGreaterThan(3590);
      expect(tokens.access_token).toEqual(expect.any(String));
      expect(tokens.refresh_token).toEqual(expect.any(String));

      const me = await call(cloud, 'GET', '/cloud/user/me', tokens.access_token);
      expect(me.status).toBe(200);
      const user = await readJson(me);
      expect(Object.keys(user)[0]).toBe('_id');
      expect(user).toMatchObject({ email: DEMO_USER.email, firstname: 'Dana', lastname: 'Demo', devices: [], roleIds: [] });
      expect(user._id).toMatch(/^[0-9a-f]{24}$/);
      expect(user.homeys).toHaveLength(3);
      for (const hub of user.homeys) {
        expect(Object.keys(hub)[0]).toBe('_id');
        expect(hub).toMatchObject({ apiVersion: 3, role: 'owner', softwareVersion: expect.any(String), language: 'en' });
        expect(hub.portHttp).toEqual(expect.any(Number));
      }
      const home = user.homeys.find((h: { name: string }) => h.name === 'Home');
      expect(home).toMatchObject({ platform: 'local', localUrl: 'http://127.0.0.1:4100', model: 'hearth-pro-5q' });
      const studio = user.homeys.find((h: { name: string }) => h.name === 'Studio');
      expect(studio).toMatchObject({ platform: 'cloud', remoteUrl: 'http://127.0.0.1:4102' });
      const subscriptions = Object.keys(user.subscriptions);
      expect(subscriptions.some((id) => id.startsWith('homey_plus_'))).toBe(true);
      expect(subscriptions.some((id) => id.startsWith('homey_premium_'))).toBe(true);
      expect(subscriptions.some((id) => id.startsWith('homey_developer_'))).toBe(true);
      for (const id of subscriptions) expect(user.subscriptions[id].startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    });

    it('accepts client credentials as form fields too', async () => {
      const response = await tokenRequest(
        cloud,
        {
          grant_type: 'password',
          username: DEMO_USER.email,
          password: DEMO_USER.password,
          client_id: DEMO_CLIENTS.demo.id,
          client_secret: DEMO_CLIENTS.demo.secret,
        },
        null,
      );
      expect(response.status).toBe(200);
    });

    it('refuses a wrong client secret with invalid_client', async () => {
      const response = await tokenRequest(
        cloud,
        { grant_type: 'password', username: DEMO_USER.email, password: DEMO_USER.password },
        { id: DEMO_CLIENTS.demo.id, secret: 'wrong-secret' },
      );
      expect(response.status).toBe(401);
      expect(await readJson(response)).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
    });

    it('refuses a wrong password with invalid_grant', async () => {
      const response = await tokenRequest(cloud, { grant_type: 'password', username: DEMO_USER.email, password: 'not-it' });
      expect(response.status).toBe(400);
      expect(await readJson(response)).toMatchObject({ error: 'invalid_grant' });
    });

    it('names a missing grant_type', async () => {
      const response = await tokenRequest(cloud, { username: 'x' });
      expect(response.status).toBe(400);
      expect(await readJson(response)).toMatchObject({
        error: 'missing_parameter',
        error_description: 'Missing Parameter: grant_type',
      });
    });

    it('refuses an unknown grant type', async () => {
      const response = await tokenRequest(cloud, { grant_type: 'magic' });
      expect(response.status).toBe(400);
      expect(await readJson(response)).toMatchObject({ error: 'unsupported_grant_type' });
    });

    it('refuses the password grant to the public browser client', async () => {
      const response = await tokenRequest(
        cloud,
        { grant_type: 'password', username: DEMO_USER.email, password: DEMO_USER.password },
        { id: DEMO_CLIENTS.supportForm.id },
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    });

    it('slows repeated failed sign-ins of one account', async () => {
      const victim = await createUser(cloud, 'slow@hearth.test', 'the-right-password');
      expect(victim.id).toMatch(/^[0-9a-f]{24}$/);
      limitsTime = Date.now();
      try {
        for (let i = 0; i < 5; i++) {
          const r = await tokenRequest(cloud, { grant_type: 'password', username: 'slow@hearth.test', password: `wrong-${i}` });
          expect(r.status).toBe(400);
        }
        const locked = await tokenRequest(cloud, {
          grant_type: 'password',
          username: 'slow@hearth.test',
          password: 'the-right-password',
        });
        expect(locked.status).toBe(429);
        expect(await readJson(locked)).toMatchObject({
          error: 'rate_limited',
          error_description: expect.stringContaining('Try again in'),
        });
      } finally {
        limitsTime = null;
      }
    });
  });

  describe('bearer tokens', () => {
    it('answers 401 missing_token without a token and invalid_token for an unknown one', async () => {
      const none = await call(cloud, 'GET', '/cloud/user/me', null);
      expect(none.status).toBe(401);
      expect(await readJson(none)).toMatchObject({ error: 'missing_token' });
      const unknown = await call(cloud, 'GET', '/cloud/user/me', 'not-a-token');
      expect(unknown.status).toBe(401);
      expect(await readJson(unknown)).toMatchObject({ error: 'invalid_token' });
    });

    it('answers invalid_token for an expired token', async () => {
      const tokens = await signIn(cloud);
      await cloud.context.database.db
        .updateTable('oauth_tokens')
        .set({ access_expires_at: new Date(Date.now() - 1000) })
        .where('access_hash', '=', (await import('../../platform/tokens')).hashSecret(tokens.access_token))
        .execute();
      const response = await call(cloud, 'GET', '/cloud/user/me', tokens.access_token);
      expect(response.status).toBe(401);
      expect(await readJson(response)).toMatchObject({ error: 'invalid_token' });
    });
  });

  describe('refresh_token grant', () => {
    it('rotates: the new pair works, the old access token is revoked', async () => {
      const first = await signIn(cloud);
      const response = await tokenRequest(cloud, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
      expect(response.status).toBe(200);
      const second = await readJson(response);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect((await call(cloud, 'GET', '/cloud/user/me', second.access_token)).status).toBe(200);
      const old = await call(cloud, 'GET', '/cloud/user/me', first.access_token);
      expect(old.status).toBe(401);
      expect(await readJson(old)).toMatchObject({ error: 'invalid_token' });
    });

    it('revokes the whole family when a rotated refresh token is used again', async () => {
      const first = await signIn(cloud);
      const second = await readJson(
        await tokenRequest(cloud, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string }),
      );
      const replay = await tokenRequest(cloud, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
      expect(replay.status).toBe(400);
      expect(await readJson(replay)).toMatchObject({ error: 'invalid_grant' });
      expect((await call(cloud, 'GET', '/cloud/user/me', second.access_token)).status).toBe(401);
      const next = await tokenRequest(cloud, { grant_type: 'refresh_token', refresh_token: second.refresh_token });
      expect(next.status).toBe(400);
    });

    it('refuses a refresh token of another client', async () => {
      const tokens = await signIn(cloud);
      const response = await tokenRequest(
        cloud,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
        { id: DEMO_CLIENTS.supportForm.id },
      );
      expect(response.status).toBe(400);
      expect(await readJson(response)).toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('client_credentials grant', () => {
    it('issues a client token that acts for no user', async () => {
      const response = await tokenRequest(cloud, { grant_type: 'client_credentials' });
      expect(response.status).toBe(200);
      const tokens = await readJson(response);
      const me = await call(cloud, 'GET', '/cloud/user/me', tokens.access_token);
      expect(me.status).toBe(403);
      const privateCall = await call(cloud, 'GET', '/cloud/homey/', tokens.access_token);
      expect(privateCall.status).toBe(403);
      expect(await readJson(privateCall)).toMatchObject({ error: 'private_operation' });
    });
  });

  describe('login-token extended grant', () => {
    it('exchanges a one-time login token once', async () => {
      const tokens = await signIn(cloud);
      const created = await call(cloud, 'POST', '/store/user/login-token', tokens.access_token, {});
      expect(created.status).toBe(200);
      const { token } = await readJson(created);
      const grant = 'urn:hearth:params:oauth:grant-type:login-token';
      const exchanged = await tokenRequest(cloud, { grant_type: grant, token }, { id: DEMO_CLIENTS.supportForm.id });
      expect(exchanged.status).toBe(200);
      const fresh = await readJson(exchanged);
      const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', fresh.access_token));
      expect(me.email).toBe(DEMO_USER.email);
      const again = await tokenRequest(cloud, { grant_type: grant, token }, { id: DEMO_CLIENTS.supportForm.id });
      expect(again.status).toBe(400);
      expect(await readJson(again)).toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('PKCE for the public client', () => {
    it('refuses to start the code flow without an S256 challenge, on the page and on submission', async () => {
      const { challenge } = pkcePair();
      const base = { client_id: DEMO_CLIENTS.supportForm.id, redirect_uri: SUPPORT_REDIRECT, response_type: 'code' };
      const { cookie, csrf } = await openSignInPage(cloud, supportFormQuery(challenge));
      const cases: [Record<string, string>, string][] = [
        [base, 'must send a PKCE code challenge'],
        [{ ...base, code_challenge: challenge }, 'code_challenge_method=S256'],
        [{ ...base, code_challenge: challenge, code_challenge_method: 'plain' }, 'Only the S256'],
      ];
      for (const [query, message] of cases) {
        const page = await openSignInPage(cloud, query);
        expect(page.response.status, JSON.stringify(query)).toBe(400);
        expect(page.html).toContain(message);
        expect(page.html).not.toContain('name="password"');
        const posted = await submitSignIn(cloud, cookie, {
          ...query,
          csrf,
          email: DEMO_USER.email,
          password: DEMO_USER.password,
        });
        expect(posted.status).toBe(400);
        expect(posted.headers.get('location')).toBeNull();
      }
    });

    it('refuses the exchange without the verifier, and the code is spent by the attempt', async () => {
      const { verifier, challenge } = pkcePair();
      const code = await authorizationCode(cloud, supportFormQuery(challenge));
      const bare = await tokenRequest(cloud, { grant_type: 'authorization_code', code }, supportForm);
      expect(bare.status).toBe(400);
      expect(await readJson(bare)).toMatchObject({ error: 'invalid_grant' });
      const late = await tokenRequest(cloud, { grant_type: 'authorization_code', code, code_verifier: verifier }, supportForm);
      expect(late.status).toBe(400);
    });

    it('refuses to exchange a code of the public client that carries no challenge (issued before PKCE was required)', async () => {
      const code = 'a-code-from-before-pkce-was-required';
      const user = await cloud.context.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USER.email)
        .executeTakeFirstOrThrow();
      await cloud.context.database.db
        .insertInto('oauth_codes')
        .values({
          code_hash: hashSecret(code),
          client_id: DEMO_CLIENTS.supportForm.id,
          user_id: user.id,
          scopes: JSON.stringify(null),
          redirect_uri: SUPPORT_REDIRECT,
          code_challenge: null,
          code_challenge_method: null,
          expires_at: new Date(Date.now() + 60_000),
          token_family_id: 'family-before-pkce',
        })
        .execute();
      const response = await tokenRequest(cloud, { grant_type: 'authorization_code', code }, supportForm);
      expect(response.status).toBe(400);
      expect(await readJson(response)).toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('authorization code replay (RFC 6749 §4.1.2)', () => {
    /** A fresh code of the support form and its verifier. */
    const freshCode = async () => {
      const { verifier, challenge } = pkcePair();
      return { code: await authorizationCode(cloud, supportFormQuery(challenge)), verifier };
    };
    const exchange = ({ code, verifier }: { code: string; verifier: string }) =>
      tokenRequest(cloud, { grant_type: 'authorization_code', code, code_verifier: verifier }, supportForm);
    const refresh = (refreshToken: string) =>
      tokenRequest(cloud, { grant_type: 'refresh_token', refresh_token: refreshToken }, supportForm);
    const me = async (accessToken: string) => (await call(cloud, 'GET', '/cloud/user/me', accessToken)).status;

    it('refuses the replay and revokes the access and refresh tokens issued from the code', async () => {
      const grant = await freshCode();
      const first = await exchange(grant);
      expect(first.status).toBe(200);
      const tokens = await readJson(first);
      expect(await me(tokens.access_token)).toBe(200);

      const replay = await exchange(grant);
      expect(replay.status).toBe(400);
      expect(await readJson(replay)).toMatchObject({ error: 'invalid_grant' });

      const revoked = await call(cloud, 'GET', '/cloud/user/me', tokens.access_token);
      expect(revoked.status).toBe(401);
      expect(await readJson(revoked)).toMatchObject({ error: 'invalid_token' });
      const refused = await refresh(tokens.refresh_token);
      expect(refused.status).toBe(400);
      expect(await readJson(refused)).toMatchObject({ error: 'invalid_grant' });
    });

    it('revokes the tokens refreshed from the code too, and leaves other sign-ins alone', async () => {
      const other = await readJson(await exchange(await freshCode()));
      const grant = await freshCode();
      const issued = await readJson(await exchange(grant));
      const refreshed = await readJson(await refresh(issued.refresh_token));
      expect(await me(refreshed.access_token)).toBe(200);

      expect((await exchange(grant)).status).toBe(400);
      expect(await me(refreshed.access_token)).toBe(401);
      expect((await refresh(refreshed.refresh_token)).status).toBe(400);
      expect(await me(other.access_token)).toBe(200);
    });

    it('leaves no working token when one code is exchanged twice at once', async () => {
      const grant = await freshCode();
      const answers = await Promise.all([exchange(grant), exchange(grant)]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses[1]).toBe(400);
      for (const answer of answers) {
        if (answer.status !== 200) continue;
        expect(await me((await readJson(answer)).access_token)).toBe(401);
      }
    });
  });

  describe('sign-in page and authorization_code grant', () => {
    it('signs in on the page, redirects back with code and state, and the code is exchanged once (PKCE)', async () => {
      const { verifier, challenge } = pkcePair();
      const query = {
        client_id: DEMO_CLIENTS.supportForm.id,
        redirect_uri: SUPPORT_REDIRECT,
        response_type: 'code',
        state: 'st-123',
        scope: 'homey,homey.device.readonly',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const { response, html, cookie, csrf } = await openSignInPage(cloud, query);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<label for="email">');
      expect(html).toContain('<label for="password">');
      expect(html).toContain('Hearth support form');
      expect(cookie).toMatch(/^hearth_csrf=/);
      expect(csrf).not.toBe('');

      const submitted = await submitSignIn(cloud, cookie, {
        ...query,
        csrf,
        email: DEMO_USER.email,
        password: DEMO_USER.password,
      });
      expect(submitted.status).toBe(302);
      const location = new URL(submitted.headers.get('location') as string);
      expect(`${location.origin}${location.pathname}`).toBe(SUPPORT_REDIRECT);
      expect(location.searchParams.get('state')).toBe('st-123');
      const code = location.searchParams.get('code') as string;
      expect(code).toBeTruthy();

      const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier };
      const response2 = await tokenRequest(cloud, exchange, { id: DEMO_CLIENTS.supportForm.id });
      expect(response2.status).toBe(200);
      const tokens = await readJson(response2);
      expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'homey homey.device.readonly' });
      const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', tokens.access_token));
      expect(me.email).toBe(DEMO_USER.email);

      const reused = await tokenRequest(cloud, exchange, { id: DEMO_CLIENTS.supportForm.id });
      expect(reused.status).toBe(400);
      expect(await readJson(reused)).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses a code exchanged with the wrong PKCE verifier', async () => {
      const { challenge } = pkcePair();
      const query = {
        client_id: DEMO_CLIENTS.supportForm.id,
        redirect_uri: SUPPORT_REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const { cookie, csrf } = await openSignInPage(cloud, query);
      const submitted = await submitSignIn(cloud, cookie, {
        ...query,
        csrf,
        email: DEMO_USER.email,
        password: DEMO_USER.password,
      });
      const code = new URL(submitted.headers.get('location') as string).searchParams.get('code') as string;
      const response = await tokenRequest(
        cloud,
        { grant_type: 'authorization_code', code, code_verifier: pkcePair().verifier },
        { id: DEMO_CLIENTS.supportForm.id },
      );
      expect(response.status).toBe(400);
      expect(await readJson(response)).toMatchObject({ error: 'invalid_grant' });
    });

    it('works for the confidential client without PKCE and without redirect_uri on the exchange', async () => {
      const query = {
        client_id: DEMO_CLIENTS.demo.id,
        redirect_uri: `${TEST_PUBLIC_URL}/oauth2/callback`,
        response_type: 'code',
      };
      const { cookie, csrf } = await openSignInPage(cloud, query);
      const submitted = await submitSignIn(cloud, cookie, {
        ...query,
        csrf,
        email: DEMO_USER.email,
        password: DEMO_USER.password,
      });
      expect(submitted.status).toBe(302);
      const code = new URL(submitted.headers.get('location') as string).searchParams.get('code') as string;
      const response = await tokenRequest(cloud, { grant_type: 'authorization_code', code });
      expect(response.status).toBe(200);
    });

    it('refuses an unregistered redirect address without redirecting', async () => {
      const query = { client_id: DEMO_CLIENTS.supportForm.id, redirect_uri: 'https://evil.example/steal', response_type: 'code' };
      const { response, html } = await openSignInPage(cloud, query);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(html).toContain('not registered');
      const posted = await submitSignIn(cloud, '', { ...query, email: DEMO_USER.email, password: DEMO_USER.password });
      expect(posted.status).toBe(400);
      expect(posted.headers.get('location')).toBeNull();
    });

    it('refuses an unknown client', async () => {
      const { response } = await openSignInPage(cloud, {
        client_id: 'nobody',
        redirect_uri: SUPPORT_REDIRECT,
        response_type: 'code',
      });
      expect(response.status).toBe(400);
    });

    it('refuses a form without its CSRF token', async () => {
      const query = supportFormQuery(pkcePair().challenge);
      const { cookie } = await openSignInPage(cloud, query);
      const response = await submitSignIn(cloud, cookie, {
        ...query,
        csrf: 'forged',
        email: DEMO_USER.email,
        password: DEMO_USER.password,
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('location')).toBeNull();
    });

    it('shows a wrong password on the page, with an alert', async () => {
      const query = supportFormQuery(pkcePair().challenge);
      const { cookie, csrf } = await openSignInPage(cloud, query);
      const response = await submitSignIn(cloud, cookie, { ...query, csrf, email: DEMO_USER.email, password: 'nope' });
      expect(response.status).toBe(401);
      const html = await response.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain('Wrong e-mail address or password.');
    });
  });
});

describeOnDatabases('OAuth2 rate limits', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('limits the token endpoint per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++)
      statuses.push((await tokenRequest(cloud, { grant_type: 'client_credentials' }, { id: 'nobody', secret: 'x' })).status);
    expect(statuses.slice(0, 120).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await tokenRequest(cloud, { grant_type: 'client_credentials' }, { id: 'nobody', secret: 'x' });
    // Only the limit that refused is announced: no other limiter's quota left over to mislead the client.
    await expectLimited(limited, { 'oauth-token': { q: 120, w: 60 } });
  });

  it('limits the sign-in page per address', async () => {
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 62; i++) {
      last = await fetch(`${cloud.url}/cloud/oauth2/authorise?client_id=nobody`);
      statuses.push(last.status);
    }
    expect(statuses[0]).toBe(400);
    expect(statuses.at(-1)).toBe(429);
    await expectLimited(last as Response, { 'sign-in-pages': { q: 60, w: 60 } });
  });
});
