import { prepareRequest } from '@hearth/contract/client';
import { hubSecret } from '@hearth/contract/hub-secret';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  CloudAPI,
  CloudHub,
  CoreCloudAPI,
  findOperation,
  HubAPI,
  MemoryStorageAdapter,
  messages,
  NotFoundError,
  nodePlatform,
  type StoredState,
} from '../node';
import { HUB_ID } from '../testing/servers';
import { DEMO, INTERNAL_CLIENT, type RunningWorld, startWorld } from '../testing/world';

let world: RunningWorld;

beforeAll(async () => {
  world = await startWorld();
}, 120_000);
afterAll(() => world?.stop());

const demoClient = (options: Partial<ConstructorParameters<typeof CloudAPI>[0]> = {}) =>
  new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: world.cloudUrl, ...options });

describe('CloudAPI sign-in (real cloud)', () => {
  it('signs in with the password grant, stores the token and reads the user with their hubs', async () => {
    const store = new MemoryStorageAdapter();
    const cloud = demoClient({ store });
    const token = await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    expect(token).toMatchObject({ token_type: 'Bearer', grant_type: 'password', access_token: expect.any(String) });
    expect((store.get().token as { access_token: string }).access_token).toBe(token.access_token);
    expect(await cloud.isLoggedIn()).toBe(true);

    const user = await cloud.getAuthenticatedUser();
    expect(user.email).toBe(DEMO.email);
    // The documented user fields are on the user object, the name to show among them.
    expect([user.firstname, user.lastname, user.fullname]).toEqual(['Dana', 'Demo', 'Dana Demo']);
    const hub = user.getFirstHub();
    expect(hub.id).toBe(HUB_ID);
    expect(user.getHubById(HUB_ID)).toMatchObject({ id: HUB_ID });
    const missing = (() => {
      try {
        user.getHubById('nope');
      } catch (error) {
        return error;
      }
    })();
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toBe('Homey Not Found: nope');

    // A second client reads the stored token.
    const again = demoClient({ store });
    expect((await again.getAuthenticatedUser()).id).toBe(user.id);
  });

  it('answers a wrong password with the server’s message and never shows the password', async () => {
    const cloud = demoClient();
    const error = await cloud.authenticateWithPassword({ username: DEMO.email, password: 'wrong-password-42' }).catch((e) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error.statusCode).toBeGreaterThanOrEqual(400);
    expect(error.statusCode).toBeLessThan(500);
    expect(error.message).not.toContain('wrong-password-42');
    expect(await cloud.isLoggedIn()).toBe(false);
  });

  it('requires each grant’s fields before any request', async () => {
    const cloud = demoClient();
    await expect(cloud.authenticateWithPassword({ username: '', password: 'x' })).rejects.toThrow('Missing Parameter: username');
    await expect(cloud.authenticateWithAuthorizationCode({ code: '' })).rejects.toThrow('Missing Parameter: code');
    await expect(cloud.authenticateWithRefreshToken()).rejects.toThrow('Missing Refresh Token');
    await expect(new CloudAPI({ baseUrl: world.cloudUrl }).authenticateWithClientCredentials()).rejects.toThrow(
      'Missing Parameter: client_id',
    );
    await expect(cloud.getAuthenticatedUser()).rejects.toThrow(messages.missingToken);
  });

  it('signs in with client credentials and exchanges the refresh token', async () => {
    const service = demoClient();
    expect(await service.authenticateWithClientCredentials()).toMatchObject({ grant_type: 'client_credentials' });

    const cloud = demoClient();
    const first = await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const second = await cloud.authenticateWithRefreshToken();
    expect(second.access_token).not.toBe(first.access_token);
    expect((await cloud.getAuthenticatedUser()).email).toBe(DEMO.email);
  });

  it('builds the authorise URL and exchanges the code the sign-in page returns, with PKCE', async () => {
    const cloud = new CoreCloudAPI({
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
      redirectUrl: `${world.cloud.context.config.publicUrl}/oauth2/callback`,
      baseUrl: world.cloudUrl,
      platform: { ...nodePlatform, pkce: true },
    });
    const loginUrl = new URL(await cloud.getLoginUrl({ state: 'xyz', scopes: ['homey', 'homey.device'] }));
    expect(loginUrl.pathname).toBe('/cloud/oauth2/authorise');
    expect(Object.fromEntries(loginUrl.searchParams)).toMatchObject({
      client_id: DEMO.clientId,
      redirect_uri: `${world.cloud.context.config.publicUrl}/oauth2/callback`,
      response_type: 'code',
      state: 'xyz',
      scope: 'homey,homey.device',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    await expect(new CloudAPI({ clientId: 'x', baseUrl: world.cloudUrl }).getLoginUrl()).rejects.toThrow(
      'Missing Parameter: redirectUrl',
    );

    // The person signs in on the real page.
    const page = await fetch(loginUrl, { redirect: 'manual' });
    const html = await page.text();
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const fields = { ...Object.fromEntries(loginUrl.searchParams), csrf };
    const answer = await fetch(`${world.cloudUrl}/cloud/oauth2/authorise`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ ...fields, email: DEMO.email, password: DEMO.password }).toString(),
    });
    const location = new URL(answer.headers.get('location') ?? '', world.cloudUrl);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code');
    expect(code).toEqual(expect.any(String));

    const token = await cloud.authenticateWithAuthorizationCode({ code: code! });
    expect(token.grant_type).toBe('authorization_code');
    expect((await cloud.getAuthenticatedUser()).email).toBe(DEMO.email);
  });
});

describe('CloudAPI store and logout', () => {
  it('checks the store and the token', async () => {
    expect(() => demoClient({ store: {} as never })).toThrow('The store must be a storage adapter');
    await expect(demoClient().setToken('abc' as never)).rejects.toThrow('The token must be a token object');
  });

  it('logout forgets the user, the stored data and the token', async () => {
    const saved: StoredState[] = [];
    const store = {
      state: {} as StoredState,
      get() {
        return this.state;
      },
      set(value: StoredState) {
        this.state = value;
        saved.push(value);
      },
    };
    const cloud = demoClient({ store });
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    await cloud.getAuthenticatedUser();
    expect(cloud.user).not.toBeNull();
    await cloud.logout();
    expect(cloud.user).toBeNull();
    expect(store.state).toEqual({});
    expect(await cloud.getToken()).toBeNull();
    await expect(cloud.getAuthenticatedUser()).rejects.toThrow('Missing Token');
  });
});

describe('hub.authenticate() (real cloud and hub)', () => {
  it('finds the hub, logs in with a delegation token and answers a connected HubAPI', async () => {
    const cloud = demoClient();
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const user = await cloud.getAuthenticatedUser();
    const hub = await user.getFirstHub().authenticate();
    try {
      expect(hub.id).toBe(HUB_ID);
      expect(hub.discovery?.strategy).toBe('local');
      expect(hub.session?.intersectedScopes).toEqual(expect.any(Array));
      const zones = await hub.zones.getZones();
      expect(Object.keys(zones).length).toBeGreaterThan(0);
      await hub.zones.connect();
      expect(hub.zones.isConnected).toBe(true);
    } finally {
      hub.destroy();
    }
  });

  it('logs in again once when the hub session is revoked, then retries the call', async () => {
    const cloud = demoClient();
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const hub = await (await cloud.getAuthenticatedUser()).getFirstHub().authenticate();
    const before = hub.token;
    const sessionId = hub.session?.id as string;
    // The owner revokes that session on the hub.
    const owner = await (await import('../node')).HubAPI.local({ address: world.hub.url, token: world.hub.token });
    await owner.sessions.deleteSession({ id: sessionId });
    const info = await hub.system.getInfo();
    expect(info.id).toBe(HUB_ID);
    expect(hub.token).not.toBe(before);
    hub.destroy();
  });
});

describe('token refresh (real cloud)', () => {
  it('refreshes once for concurrent calls that meet 401 invalid_token, retries each, and keeps the outcome 30 s', async () => {
    const lines: string[] = [];
    const cloud = demoClient({ debug: (line) => lines.push(line) });
    const signedIn = await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    // The access token stops being valid (as when it expires); the refresh token still is.
    await cloud.setToken({ ...signedIn, access_token: 'expired-access-token-0000' });
    lines.length = 0;
    const users = await Promise.all(Array.from({ length: 5 }, () => cloud.getAuthenticatedUser()));
    for (const user of users) expect(user.email).toBe(DEMO.email);
    const tokenCalls = () => lines.filter((line) => line.startsWith('→ POST') && line.includes('/oauth2/token'));
    expect(tokenCalls()).toHaveLength(1);
    const refreshed = await cloud.getToken();
    expect(refreshed?.grant_type).toBe('refresh_token');
    expect(refreshed?.access_token).not.toBe(signedIn.access_token);
    for (const line of lines) expect(line).not.toContain(refreshed!.access_token);

    // Within the memo a call that meets a 401 retries with the memoised refresh instead of spending another.
    expect(await cloud.refreshToken()).toEqual(refreshed);
    expect(tokenCalls()).toHaveLength(1);
  });

  it('does not refresh when auto-refresh is off', async () => {
    const cloud = demoClient({ autoRefreshTokens: false });
    const signedIn = await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    await cloud.setToken({ ...signedIn, access_token: 'expired-access-token-0000' });
    await expect(cloud.getAuthenticatedUser()).rejects.toMatchObject({ statusCode: 401, code: 'invalid_token' });
  });
});

describe('avatar upload (real cloud)', () => {
  // A 1×1 transparent GIF.
  const gif = Uint8Array.from(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));

  it('uploads a gif as multipart and the cloud serves it', async () => {
    const cloud = demoClient();
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const avatar = await cloud.uploadAvatar({ avatar: gif });
    expect(avatar).toMatchObject({ medium: expect.any(String), large: expect.any(String) });
  });

  it('refuses anything but a jpg, png or gif buffer before any request', async () => {
    const lines: string[] = [];
    const cloud = demoClient({ debug: (line) => lines.push(line) });
    await expect(cloud.uploadAvatar({ avatar: 'not bytes' as never, id: 'x' })).rejects.toThrow(
      'Invalid Parameter Type: avatar. Got: string. Expected: Buffer',
    );
    await expect(cloud.uploadAvatar({ avatar: new TextEncoder().encode('<svg/>'), id: 'x' })).rejects.toThrow(
      'Only jpg, png or gif images are accepted',
    );
    expect(lines).toEqual([]);
  });
});

describe('other cloud services (real cloud)', () => {
  it('derives every service’s methods, each under its own base, which can be overridden', async () => {
    const cloud = demoClient();
    const apps = await cloud.services.apps.getApps();
    expect(apps).toBeDefined();
    await expect(cloud.services.apps.searchApps({} as never)).rejects.toThrow('Missing Parameter: query');

    const moved = demoClient({ baseUrls: { apps: `${world.cloudUrl}/apps/` } });
    expect(moved.baseUrlOf('apps')).toBe(`${world.cloudUrl}/apps`);
    expect(await moved.services.apps.getApps()).toEqual(apps);
    const dead = demoClient({ baseUrls: { apps: 'http://127.0.0.1:9/apps' } });
    expect(dead.baseUrlOf('cloud')).toBe(`${world.cloudUrl}/cloud`);
    await expect(dead.services.apps.getApps()).rejects.toMatchObject({ code: 'network_error' });
  });

  it('searches the infrared database and reads the codes of a device with a hub’s secret', async () => {
    const cloud = demoClient();
    const found = await cloud.services.infrared.searchDevices({ query: 'lg tv' });
    expect(found.map((device) => device.id)).toContain('ha-ip-lg-tv');
    const secret = hubSecret(INTERNAL_CLIENT.secret, HUB_ID);
    const device = await cloud.services.infrared.getDevice({ deviceId: 'ha-ip-lg-tv', secret });
    // NEC1 at 38.4 kHz (006C), a 9 ms / 4.5 ms lead-in, 34 pairs once and the 2-pair ditto while held.
    expect(device.codes.find((code) => code.id === 'power')?.pronto).toMatch(/^0000 006C 0022 0002 015A 00AD /);
    const forged = cloud.services.infrared.getDevice({ deviceId: 'ha-ip-lg-tv', secret: 'x' });
    await expect(forged).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe('a cloud-made hub client after its session is revoked while connected', () => {
  it('reconnects, logs in again at the handshake, re-subscribes and keeps its cache live', async () => {
    const cloud = demoClient();
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const hub = await (await cloud.getAuthenticatedUser()).getFirstHub().authenticate();
    try {
      await hub.zones.connect();
      let reconnected = 0;
      hub.realtime.on('reconnect', () => {
        reconnected++;
      });
      const owner = await HubAPI.local({ address: world.hub.url, token: world.hub.token });
      await owner.sessions.deleteSession({ id: hub.session?.id as string });
      const end = Date.now() + 15_000;
      while (reconnected === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reconnected).toBe(1);
      expect(hub.realtime.connected).toBe(true);

      const root = Object.values(await owner.zones.getZones()).find((zone) => zone.parent === null)!;
      const zone = await owner.zones.createZone({ zone: { name: 'After relogin', icon: 'home', parent: root.id } });
      const until = Date.now() + 5000;
      while (!hub.zones.cached('zone').some((item) => item.id === zone.id) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(hub.zones.cached('zone').some((item) => item.id === zone.id)).toBe(true);
      expect((await hub.system.getInfo()).id).toBe(HUB_ID);
      owner.destroy();
    } finally {
      hub.destroy();
    }
  });
});

describe('users without hubs, and the internal client', () => {
  it("creates a user through a private operation and finds 'No Homey Available' for them", async () => {
    const internal = new CloudAPI({
      clientId: INTERNAL_CLIENT.id,
      clientSecret: INTERNAL_CLIENT.secret,
      baseUrl: world.cloudUrl,
    });
    await internal.authenticateWithClientCredentials();
    const email = `nohub-${Date.now()}@hearth.test`;
    const created = await internal.createUser({
      user: { email, password: 'a-long-password-1', firstname: 'No', lastname: 'Hub' },
    });
    expect(created._id).toEqual(expect.any(String));

    const cloud = demoClient();
    await cloud.authenticateWithPassword({ username: email, password: 'a-long-password-1' });
    const user = await cloud.getAuthenticatedUser();
    expect(user.getHubs()).toEqual([]);
    expect(() => user.getFirstHub()).toThrow(NotFoundError);
    expect(() => user.getFirstHub()).toThrow('No Homey Available');
  });

  it("refuses to sign in to a hub without a cloud client: 'Cannot Sign In: Missing AthomCloudAPI'", async () => {
    const orphan = new CloudHub(undefined as never, { _id: HUB_ID, localUrl: world.hub.url });
    await expect(orphan.authenticate()).rejects.toThrow('Cannot Sign In: Missing AthomCloudAPI');
  });
});

describe('declared operations with headers of their own (real cloud)', () => {
  it('sends a helpdesk ticket twice with the same Idempotency-Key: one ticket', async () => {
    const cloud = demoClient();
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const createTicket = findOperation('cloud', 'helpdesk', 'createTicket');
    const text = (...names: string[]) => Object.fromEntries(names.map((name) => [name, '']));
    const request = prepareRequest(createTicket, {
      ...text('name', 'email', 'diagnosticReport', 'homeyApps', 'homeyId', 'homeyLanguage', 'homeyLicenses', 'homeyModel'),
      ...text('homeyModelName', 'homeyPlatform', 'homeyRegion', 'homeySoftwareVersion', 'underVoltagePercentage', 'appId'),
      ...text('driverId', 'orderId', 'subscriptionId', 'subscriptions', 'supportFormPath'),
      subject: 'Client idempotency',
      message: 'Sent twice with one idempotency key.',
      tags: ['account'],
      homeyAppsCount: 0,
      homeyBridges: 0,
      homeyUsers: 0,
      underVoltageOccured: 'no',
      uploadTokens: [],
    });
    const key = `client-test-${Date.now()}`;
    const first = (await cloud.send(request, undefined, { 'Idempotency-Key': key })) as { ticketCreated: boolean; id: string };
    const again = (await cloud.send(request, undefined, { 'Idempotency-Key': key })) as { id: string };
    expect(first.ticketCreated).toBe(true);
    expect(again.id).toBe(first.id);
    const other = (await cloud.send(request, undefined, { 'Idempotency-Key': `${key}-2` })) as { id: string };
    expect(other.id).not.toBe(first.id);
    expect(() => findOperation('cloud', 'helpdesk', 'deleteEverything')).toThrow(
      'The contract declares no cloud operation helpdesk.deleteEverything',
    );
  });
});
