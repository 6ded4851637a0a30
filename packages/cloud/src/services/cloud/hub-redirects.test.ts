import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hubSecret, ORIGIN_PROOF_PATH, originProof } from '@hearth/contract/hub-secret';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  type Backend,
  call,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  INTERNAL_SECRET,
  openSignInPage,
  pkcePair,
  startTestCloud,
  submitSignIn,
  tokenRequest,
} from '../../testing';
import { HOME_CLIENT_ID } from './seed';

/**
 * A stand-in for a hub's HTTP server answering the cloud's origin proof (the hub's own route is
 * `packages/hub/src/cloudlink/origin-proof.ts`): it answers as hub `answersAs`, or not at all (`null`, 404).
 */
async function originServer(answersAs: string | null): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin');
    if (answersAs === null || url.pathname !== ORIGIN_PROOF_PATH) {
      response.writeHead(404).end();
      return;
    }
    const proof = originProof(hubSecret(INTERNAL_SECRET, answersAs), answersAs, url.searchParams.get('nonce') ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hubId: answersAs, proof }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * The household web app (`hearth-home`) is sent back to the root of the hub that served it. Hubs register their own
 * addresses, so a hub's owner picks them: a code goes only to a hub of the person signing in, only at an origin the
 * hub proved it serves, and what it is exchanged for signs in to that hub and nothing else.
 */
describeOnDatabases('hub addresses as redirects of the web app', (backend: Backend) => {
  let cloud: Cloud;
  const home = DEMO_HUBS[0]?.id as string;
  const holiday = DEMO_HUBS[1]?.id as string;
  const servers: Server[] = [];
  let homeRoot: string;
  let foreignRoot: string;
  let silentRoot: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    // The demo user's "Home" hub serves its origin; "Holiday home" registered a forwarded origin that "Home"
    // answers for (a foreign hub's origin) and another that is not a hub at all (http://evil.example:4859).
    const [homeOrigin, foreign, silent] = await Promise.all([originServer(home), originServer(home), originServer(null)]);
    servers.push(homeOrigin.server, foreign.server, silent.server);
    homeRoot = `${homeOrigin.origin}/`;
    foreignRoot = `${foreign.origin}/`;
    silentRoot = `${silent.origin}/`;
    const { db } = cloud.context.database;
    await db.updateTable('hubs').set({ local_url: homeOrigin.origin }).where('id', '=', home).execute();
    await db
      .updateTable('hubs')
      .set({ local_url: silent.origin, remote_url_forwarded: foreign.origin })
      .where('id', '=', holiday)
      .execute();
  });
  afterAll(async () => {
    for (const server of servers) server.close();
    await cloud.stop();
  });

  const signInFor = async (credentials: { email: string; password: string }, redirectUri: string) => {
    const pkce = pkcePair();
    const query = {
      response_type: 'code',
      client_id: HOME_CLIENT_ID,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      state: 'web-app',
    };
    const { cookie, csrf } = await openSignInPage(cloud, query);
    return { answer: await submitSignIn(cloud, cookie, { ...query, csrf, ...credentials }), verifier: pkce.verifier };
  };
  const demo = { email: DEMO_USER.email, password: DEMO_USER.password };
  const homeCodes = () =>
    cloud.context.database.db.selectFrom('oauth_codes').select('redirect_uri').where('client_id', '=', HOME_CLIENT_ID).execute();

  it('sends a member back to a hub that proved its origin, with a code that signs in to that hub only', async () => {
    const { answer, verifier } = await signInFor(demo, homeRoot);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') as string);
    expect(`${location.origin}/`).toBe(homeRoot);
    const code = location.searchParams.get('code') as string;
    expect(code).toBeTruthy();

    const exchange = await tokenRequest(
      cloud,
      { grant_type: 'authorization_code', code, code_verifier: verifier },
      { id: HOME_CLIENT_ID },
    );
    expect(exchange.status).toBe(200);
    const { access_token: token } = (await exchange.json()) as { access_token: string };

    // Not a token of the whole account: it reads who the person is and which hubs they have (the web app's hub
    // switcher), but the hubs themselves, account changes and delegation to another hub are refused.
    const me = await call(cloud, 'GET', '/cloud/user/me', token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { homeys: { _id: string }[] }).homeys.map((hub) => hub._id)).toContain(home);
    expect((await call(cloud, 'GET', `/cloud/homey/${home}`, token)).status).toBe(403);
    expect(
      (
        await call(cloud, 'POST', '/cloud/user/me/password', token, {
          password: 'another-long-password-9',
          old_password: demo.password,
        })
      ).status,
    ).toBe(403);
    const elsewhere = await call(cloud, 'POST', `/cloud/delegation/token?audience=homey&homeyId=${holiday}`, token, {});
    expect(elsewhere.status).toBe(403);
    // Delegation without naming a hub names the code's hub.
    const delegation = await call(cloud, 'POST', '/cloud/delegation/token?audience=homey', token, {});
    expect(delegation.status).toBe(200);
    const claims = decodeJwt(JSON.parse(await delegation.text()) as string);
    expect(claims.homeyId).toBe(home);
    expect(claims.role).toBe('owner');
  });

  it('gives the owner no code for an origin their hub registered but did not prove', async () => {
    for (const root of [foreignRoot, silentRoot, 'http://evil.example:4859/']) {
      if (root.startsWith('http://evil')) {
        await cloud.context.database.db
          .updateTable('hubs')
          .set({ remote_url_forwarded: 'http://evil.example:4859' })
          .where('id', '=', holiday)
          .execute();
      }
      const before = (await homeCodes()).length;
      const { answer } = await signInFor(demo, root);
      expect(answer.status, root).toBe(403);
      expect(answer.headers.get('location')).toBeNull();
      expect((await homeCodes()).length).toBe(before);
    }
  });

  it('gives no code, and no redirect, for someone else’s hub', async () => {
    await createUser(cloud, 'not.a.member@example.test', 'heron-basalt-clover-82');
    const before = (await homeCodes()).length;
    const { answer } = await signInFor({ email: 'not.a.member@example.test', password: 'heron-basalt-clover-82' }, homeRoot);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toContain('not one of yours');
    expect((await homeCodes()).length).toBe(before);
  });
});
