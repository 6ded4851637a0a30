import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** A stand-in for the cloud's `GET /cloud/delegation/key`, counting how often the hub asks. */
async function keyServer(pem: string, asJsonString: boolean) {
  let fetches = 0;
  const server: Server = createServer((request, response) => {
    if (request.url !== '/cloud/delegation/key') {
      response.writeHead(404).end();
      return;
    }
    fetches += 1;
    response.writeHead(200, { 'content-type': asJsonString ? 'application/json' : 'text/plain' });
    response.end(asJsonString ? JSON.stringify(pem) : pem);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sign = (key: Key, claims: JWTPayload, options: { audience?: string; expiresIn?: string | number; alg?: string } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'RS512' })
    .setIssuedAt()
    .setAudience(options.audience ?? 'homey')
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(key);

describe('POST /api/manager/users/login with a delegation token', () => {
  let privateKey: Key;
  let otherKey: Key;
  let rs256Key: Key;
  let cloud: Awaited<ReturnType<typeof keyServer>>;
  let t: TestHub;
  let hubId: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS512');
    privateKey = pair.privateKey;
    otherKey = (await generateKeyPair('RS512')).privateKey;
    rs256Key = (await generateKeyPair('RS256')).privateKey;
    cloud = await keyServer(await exportSPKI(pair.publicKey), false);
    t = await startTestHub({ cloudUrl: cloud.url });
    hubId = t.hub.context.config.id;
  });
  afterAll(async () => {
    await t.stop();
    await cloud.close();
  });

  const login = (token: string) => t.call<string>('POST', '/users/login', { token }, null);

  it("binds the owner's cloud account on first sign-in and answers a bare session token", async () => {
    const token = await sign(privateKey, { sub: 'cloud-owner', homeyId: hubId, role: 'owner', name: 'Olive' });
    const answer = await login(token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof answer.body).toBe('string');
    const me = await t.call<{ type: string; intersectedScopes: string[]; expiresAt: string }>(
      'GET',
      '/sessions/session/me',
      undefined,
      answer.body,
    );
    expect(me.body).toMatchObject({ type: 'OAUTH', intersectedScopes: ['homey'] });
    expect(Date.parse(me.body.expiresAt)).toBeGreaterThan(Date.now());
    const user = await t.call<{ id: string; athomId: string; role: string; name: string }>(
      'GET',
      '/users/user/me',
      undefined,
      answer.body,
    );
    expect(user.body).toMatchObject({
      id: t.hub.context.users.owner()!.id,
      athomId: 'cloud-owner',
      role: 'owner',
      name: 'Olive',
    });

    const again = await login(await sign(privateKey, { sub: 'cloud-owner' }));
    expect(again.status).toBe(200);
    expect(again.body).not.toBe(answer.body);
    expect(t.hub.context.users.count()).toBe(1);
    expect(cloud.fetches()).toBe(1);
  });

  it('creates a user with the role the token names, and refuses strangers', async () => {
    const guest = await login(await sign(privateKey, { sub: 'cloud-guest', role: 'guest', name: 'Gus', homeyId: hubId }));
    expect(guest.status).toBe(200);
    const me = await t.call<{ role: string; athomId: string }>('GET', '/users/user/me', undefined, guest.body);
    expect(me.body).toMatchObject({ role: 'guest', athomId: 'cloud-guest' });
    expect((await t.call('POST', '/zones/zone', { name: 'x', icon: 'x', parent: 'x' }, guest.body)).status).toBe(403);

    const stranger = await login(await sign(privateKey, { sub: 'cloud-stranger' }));
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ error: 'forbidden', statusCode: 403 });
    const ownerClaim = await login(await sign(privateKey, { sub: 'cloud-thief', role: 'owner', homeyId: hubId }));
    expect(ownerClaim.status).toBe(403);
    // Without a hub named, a role says nothing about this hub (the cloud gives every token one).
    const unnamed = await login(await sign(privateKey, { sub: 'cloud-stranger', role: 'manager' }));
    expect(unnamed.status).toBe(403);
  });

  it('refuses tokens that are expired, for another audience or hub, badly signed or not RS512', async () => {
    const cases = [
      await sign(privateKey, { sub: 'cloud-owner' }, { expiresIn: Math.floor(Date.now() / 1000) - 10 }),
      await sign(privateKey, { sub: 'cloud-owner' }, { audience: 'cloud' }),
      await sign(privateKey, { sub: 'cloud-owner', homeyId: 'bbbbbbbbbbbbbbbbbbbbbbbb' }),
      await sign(otherKey, { sub: 'cloud-owner' }),
      await sign(rs256Key, { sub: 'cloud-owner' }, { alg: 'RS256' }),
      'not-a-jwt',
    ];
    for (const token of cases) {
      const answer = await login(token);
      expect(answer.status, token).toBe(401);
      expect(answer.body).toMatchObject({ error: 'invalid_token', statusCode: 401 });
    }
    expect((await t.call('POST', '/users/login', {}, null)).body).toMatchObject({
      statusCode: 400,
      error_description: 'Missing Parameter: token',
    });
  });

  it('lets an installer in only while the owner grants access, and lets them hand the hub over', async () => {
    const installerJwt = await sign(privateKey, { sub: 'cloud-installer', name: 'Ian' });
    expect((await t.call('POST', '/users/installer/request', { jwt: installerJwt }, null)).status).toBe(403);
    const guestToken = t.sessionFor('guest');
    expect((await t.call('POST', '/users/installer/grant', {}, guestToken)).status).toBe(403);
    const granted = await t.call<{ granted: boolean }>('POST', '/users/installer/grant', {});
    expect(granted.body.granted).toBe(true);

    const session = await t.call<string>('POST', '/users/installer/request', { jwt: installerJwt }, null);
    expect(session.status).toBe(200);
    const me = await t.call<{ role: string; properties: { installer: boolean } }>(
      'GET',
      '/users/user/me',
      undefined,
      session.body,
    );
    expect(me.body).toMatchObject({ role: 'manager', properties: { installer: true } });

    const invited = t.hub.context.users.create({ name: 'New owner', role: 'user', athomId: 'cloud-new-owner' });
    const swapped = await t.call<{ id: string; role: string }>(
      'POST',
      '/users/installer/swap-owner',
      { jwt: installerJwt, newOwnerUserId: invited.id },
      null,
    );
    expect(swapped.body).toMatchObject({ id: invited.id, role: 'owner' });
    const strangerJwt = await sign(privateKey, { sub: 'cloud-stranger' });
    const refused = await t.call('POST', '/users/installer/swap-owner', { jwt: strangerJwt, newOwnerUserId: invited.id }, null);
    expect(refused.status).toBe(403);

    // Only the (new) owner may revoke; revoking ends the installer's sessions.
    const newOwnerToken = t.hub.context.sessions.create({ type: 'OAUTH', userId: invited.id, scopes: null }).token;
    expect((await t.call('POST', '/users/installer/revoke', {}, newOwnerToken)).body).toMatchObject({ granted: false });
    expect((await t.call('GET', '/users/user/me', undefined, session.body)).status).toBe(401);
  });
});

describe('first sign-in of the owner', () => {
  it('binds the configured owner account, and nobody else, from tokens naming no hub', async () => {
    const pair = await generateKeyPair('RS512');
    const cloud = await keyServer(await exportSPKI(pair.publicKey), false);
    const t = await startTestHub({ cloudUrl: cloud.url, ownerAthomId: 'cloud-real-owner' });
    try {
      const owner = t.hub.context.users.owner()!;
      expect(owner.athomId).toBe('cloud-real-owner');
      const other = await t.call(
        'POST',
        '/users/login',
        { token: await sign(pair.privateKey, { sub: 'cloud-first', role: 'user' }) },
        null,
      );
      expect(other.status).toBe(403);
      const real = await t.call<string>(
        'POST',
        '/users/login',
        { token: await sign(pair.privateKey, { sub: 'cloud-real-owner', role: 'user' }) },
        null,
      );
      expect(real.status).toBe(200);
      expect((await t.call<{ id: string }>('GET', '/users/user/me', undefined, real.body)).body.id).toBe(owner.id);
    } finally {
      await t.stop();
      await cloud.close();
    }
  });

  it("refuses a stranger's token on a hub nobody owns yet: the first account to sign in does not take it", async () => {
    const pair = await generateKeyPair('RS512');
    const cloud = await keyServer(await exportSPKI(pair.publicKey), false);
    const t = await startTestHub({ cloudUrl: cloud.url });
    try {
      for (const claims of [{ sub: 'cloud-stranger' }, { sub: 'cloud-stranger', role: 'owner' }]) {
        const answer = await t.call('POST', '/users/login', { token: await sign(pair.privateKey, claims) }, null);
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ error: 'forbidden', error_description: 'This account is not a user of this hub' });
      }
      expect(t.hub.context.users.owner()?.athomId).toBeNull();
      expect(t.hub.context.users.count()).toBe(1);
      // The owner the cloud vouches for (a token naming this hub with the role the cloud's registry gives) binds it.
      const owner = await t.call<string>(
        'POST',
        '/users/login',
        { token: await sign(pair.privateKey, { sub: 'cloud-owner', role: 'owner', homeyId: t.hub.context.config.id }) },
        null,
      );
      expect(owner.status).toBe(200);
      expect(t.hub.context.users.owner()?.athomId).toBe('cloud-owner');
    } finally {
      await t.stop();
      await cloud.close();
    }
  });
});

describe('delegation key sources', () => {
  it('reads a key served as a JSON string', async () => {
    const pair = await generateKeyPair('RS512');
    const cloud = await keyServer(await exportSPKI(pair.publicKey), true);
    const t = await startTestHub({ cloudUrl: `${cloud.url}/` });
    try {
      const owner = await sign(pair.privateKey, { sub: 'cloud-owner', role: 'owner', homeyId: t.hub.context.config.id });
      expect((await t.call('POST', '/users/login', { token: owner }, null)).status).toBe(200);
    } finally {
      await t.stop();
      await cloud.close();
    }
  });

  it('answers 503 without a cloud, or when the cloud cannot be reached', async () => {
    const pair = await generateKeyPair('RS512');
    const token = await sign(pair.privateKey, { sub: 'cloud-owner', role: 'owner' });
    const offline = await startTestHub();
    const unreachable = await startTestHub({ cloudUrl: 'http://127.0.0.1:9' });
    try {
      for (const t of [offline, unreachable]) {
        const answer = await t.call('POST', '/users/login', { token }, null);
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ error: 'unavailable', statusCode: 503 });
      }
    } finally {
      await offline.stop();
      await unreachable.stop();
    }
  });
});
