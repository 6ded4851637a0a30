import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestHub, type TestHub } from '../testing/hub';
import { ack, connected, connectRealtime } from '../testing/socket';

interface Zone {
  id: string;
  name: string;
  parent: string | null;
}

const opened: { close(): void }[] = [];
const track = <T extends { close(): void }>(thing: T): T => {
  opened.push(thing);
  return thing;
};

/**
 * Connects like the ecosystem's client, reconnecting on its own (the reconnect test drops the connection), and
 * asserts the handshake's answer, which this file tests.
 */
async function apiSocket(t: TestHub, token: string) {
  const realtime = track(await connectRealtime(t, token, { reconnection: true, reconnectionDelay: 50 }));
  const [error, result] = realtime.handshake;
  expect(error).toBeNull();
  expect(result).toEqual({ namespace: '/api' });
  return realtime;
}

/** Collects the events delivered for one URI. */
const collect = (socket: Socket, uri: string) => {
  const events: [string, unknown][] = [];
  socket.on(uri, (event: string, data: unknown) => events.push([event, data]));
  return events;
};

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('realtime socket', () => {
  let t: TestHub;
  let rootZone: string;

  beforeAll(async () => {
    t = await startTestHub();
    rootZone = (await t.call<{ rootZoneId: string }>('GET', '/zones/state')).body.rootZoneId;
  });
  afterEach(() => {
    for (const thing of opened.splice(0)) thing.close();
  });
  afterAll(() => t.stop());

  it('handshakes, subscribes and delivers zone events named by the URI', async () => {
    const { api } = await apiSocket(t, t.token);
    expect(await ack(api, 'subscribe', 'homey:manager:zones')).toEqual([null]);
    const events = collect(api, 'homey:manager:zones');
    const created = await t.call<Zone>('POST', '/zones/zone', { name: 'Study', icon: 'study', parent: rootZone });
    await until(() => events.length === 1);
    expect(events[0]).toEqual(['zone.create', created.body]);

    api.emit('unsubscribe', 'homey:manager:zones');
    await ack(api, 'subscribe', 'homey:manager:users'); // a round trip, so the unsubscribe has arrived
    await t.call('DELETE', `/zones/zone/${created.body.id}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toHaveLength(1);
  });

  it('refuses bad handshakes and /api without one', async () => {
    const root = track(connect(t.hub.url, { path: '/socket.io/', transports: ['websocket'], forceNew: true }));
    await connected(root);
    const [error] = await ack(root, 'handshakeClient', { token: 'hses_nope', homeyId: t.hub.context.config.id });
    expect(error).toMatchObject({ error: 'invalid_token', statusCode: 401 });
    const [missing] = await ack(root, 'handshakeClient', {});
    expect(missing).toMatchObject({ error: 'missing_token', statusCode: 401 });
    const [otherHub] = await ack(root, 'handshakeClient', { token: t.token, homeyId: 'ffffffffffffffffffffffff' });
    expect(otherHub).toMatchObject({ statusCode: 404 });

    const api = track(connect(`${t.hub.url}/api`, { path: '/socket.io/', transports: ['websocket'], forceNew: true }));
    const failure = await new Promise<Error & { data?: unknown }>((resolve) => api.once('connect_error', resolve));
    expect(failure.data).toMatchObject({ statusCode: 401 });
  });

  it('lets current clients authenticate /api with auth.token', async () => {
    const api = track(
      connect(`${t.hub.url}/api`, {
        path: '/socket.io/',
        transports: ['websocket'],
        forceNew: true,
        auth: { token: t.token },
      }),
    );
    await connected(api);
    expect(await ack(api, 'subscribe', 'homey:manager:zones')).toEqual([null]);
  });

  it('denies subscriptions the scopes cannot read, and filters events by scope', async () => {
    const narrow = t.sessionFor('manager', ['homey.device.readonly']);
    const { api: narrowApi } = await apiSocket(t, narrow);
    const [denied] = await ack(narrowApi, 'subscribe', 'homey:manager:zones');
    expect(denied).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
    const [badUri] = await ack(narrowApi, 'subscribe', 'homey:nonsense');
    expect(badUri).toMatchObject({ statusCode: 400 });
    const [unknownManager] = await ack(narrowApi, 'subscribe', 'homey:manager:nope');
    expect(unknownManager).toMatchObject({ statusCode: 404 });

    // Both may subscribe to users (homey.user.self reads it), but only a reader of users gets user events.
    const selfOnly = t.sessionFor('guest', ['homey.user.self']);
    const { api: selfApi } = await apiSocket(t, selfOnly);
    const { api: ownerApi } = await apiSocket(t, t.token);
    expect(await ack(selfApi, 'subscribe', 'homey:manager:users')).toEqual([null]);
    expect(await ack(ownerApi, 'subscribe', 'homey:manager:users')).toEqual([null]);
    const selfEvents = collect(selfApi, 'homey:manager:users');
    const ownerEvents = collect(ownerApi, 'homey:manager:users');
    await t.call('POST', '/users/user', { name: 'Visitor', role: 'guest' });
    await until(() => ownerEvents.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ownerEvents[0]?.[0]).toBe('user.create');
    expect(selfEvents).toEqual([]);
  });

  it('shows each session only what the API shows it: others’ properties, notifications and sessions', async () => {
    const guestToken = t.sessionFor('guest');
    const guest = (await t.call<{ id: string }>('GET', '/users/user/me', undefined, guestToken)).body;
    const owner = (await t.call<{ id: string }>('GET', '/users/user/me')).body;
    const { api: guestApi } = await apiSocket(t, guestToken);
    const { api: ownerApi } = await apiSocket(t, t.token);
    const uris = ['homey:manager:users', 'homey:manager:notifications', 'homey:manager:sessions'];
    const seen = { guest: [] as [string, string, unknown][], owner: [] as [string, string, unknown][] };
    for (const [who, api] of [
      ['guest', guestApi],
      ['owner', ownerApi],
    ] as const) {
      for (const uri of uris) {
        expect(await ack(api, 'subscribe', uri)).toEqual([null]);
        api.on(uri, (event: string, data: unknown) => seen[who].push([uri, event, data]));
      }
    }

    // The owner's private properties reach the owner's sockets, not the guest's (as GET /user/:id answers them).
    await t.call('PUT', '/users/user/me/properties/pin', { value: { code: 1234 } });
    // Notifications for one role reach that role only; read state only its reader.
    const forOwners = t.hub.services.notifications.notify({
      ownerUri: 'homey:manager:system',
      excerpt: 'Owners only',
      roles: ['owner'],
    });
    const forGuests = t.hub.services.notifications.notify({
      ownerUri: 'homey:manager:system',
      excerpt: 'Guests only',
      roles: ['guest'],
    });
    const read = await t.call('POST', `/notifications/notification/${forGuests?.id}/read`, {}, guestToken);
    expect(read.status).toBe(200);
    // A new session reaches its own user and the household's owners and managers.
    const ownerPat = await t.call<{ id: string }>('POST', '/users/pat', { name: 'Script', scopes: ['homey.zone.readonly'] });
    const guestPat = await t.call<{ id: string }>('POST', '/users/pat', { name: 'Mine', scopes: [] }, guestToken);
    expect([ownerPat.status, guestPat.status]).toEqual([200, 200]);
    // Both see this last event: whatever reached them before it has arrived (one connection keeps order).
    await t.call('POST', '/users/user', { name: 'Marker', role: 'guest' });
    const done = (events: [string, string, unknown][]) =>
      events.some(([, e, d]) => e === 'user.create' && (d as { name: string }).name === 'Marker');
    await until(() => done(seen.guest) && done(seen.owner));

    const summary = (events: [string, string, unknown][]) =>
      events.map(([, event, data]) => {
        const { id, excerpt, name } = data as { id: string; excerpt?: string; name?: string };
        return `${event} ${excerpt ?? name ?? (id === owner.id ? 'owner' : '')}`.trim();
      });
    expect(summary(seen.owner)).toEqual([
      'user.update Owner',
      'notification.create Owners only',
      'session.create Script',
      'session.create Mine',
      'user.create Marker',
    ]);
    expect(summary(seen.guest)).toEqual([
      'user.update Owner',
      'notification.create Guests only',
      'notification.update Guests only',
      'session.create Mine',
      'user.create Marker',
    ]);
    const ownerAsSeen = (events: [string, string, unknown][]) => events.find(([, e]) => e === 'user.update')?.[2];
    expect(ownerAsSeen(seen.owner)).toMatchObject({ properties: { pin: { code: 1234 } } });
    expect(ownerAsSeen(seen.guest)).toEqual((await t.call('GET', `/users/user/${owner.id}`, undefined, guestToken)).body);
    expect(ownerAsSeen(seen.guest)).toMatchObject({ properties: {} });
    const readAsSeen = seen.guest.find(([, e]) => e === 'notification.update')?.[2];
    expect(readAsSeen).toMatchObject({ id: forGuests?.id, readBy: [guest.id] });
    expect(forOwners).not.toBeNull();
    // Revoking the guest's token reaches the guest and the owner, with nothing but its id.
    await t.call('DELETE', `/users/pat/${guestPat.body.id}`, undefined, guestToken);
    await until(() => [seen.guest, seen.owner].every((events) => events.some(([, e]) => e === 'session.delete')));
    expect(seen.guest.find(([, e]) => e === 'session.delete')?.[2]).toEqual({ id: guestPat.body.id });
  });

  it('runs operations through the api event exactly as HTTP', async () => {
    const { api } = await apiSocket(t, t.token);
    const [error, zone] = (await ack(api, 'api', {
      uri: 'homey:manager:zones',
      operation: 'createZone',
      args: { zone: { name: 'Porch', icon: 'porch', parent: rootZone }, $validate: true },
    })) as [unknown, Zone];
    expect(error).toBeNull();
    expect(zone).toMatchObject({ name: 'Porch', parent: rootZone });
    expect(await ack(api, 'api', { uri: 'homey:manager:zones', operation: 'getZone', args: { id: zone.id } })).toEqual([
      null,
      zone,
    ]);
    const [missing] = await ack(api, 'api', {
      uri: 'homey:manager:zones',
      operation: 'createZone',
      args: { zone: { name: 'No icon', parent: rootZone } },
    });
    expect(missing).toEqual({ error: 'missing_parameter', error_description: 'Missing Parameter: icon', statusCode: 400 });
    const [notFound] = await ack(api, 'api', { uri: 'homey:manager:zones', operation: 'getZone', args: { id: 'nope' } });
    expect(notFound).toMatchObject({ statusCode: 404 });
    const [unknown] = await ack(api, 'api', { uri: 'homey:manager:zones', operation: 'explode', args: {} });
    expect(unknown).toMatchObject({ statusCode: 404 });
    // Body fields by name; a 204 answers (null) with no result.
    const renamed = await ack(api, 'api', { uri: 'homey:manager:system', operation: 'setSystemName', args: { name: 'Den' } });
    expect(renamed).toEqual([null, 'Den']);
    expect(await ack(api, 'api', { uri: 'homey:manager:zones', operation: 'deleteZone', args: { id: zone.id } })).toEqual([null]);

    const reader = t.sessionFor('manager', ['homey.zone.readonly']);
    const { api: readerApi } = await apiSocket(t, reader);
    const [forbidden] = await ack(readerApi, 'api', {
      uri: 'homey:manager:zones',
      operation: 'createZone',
      args: { zone: { name: 'X', icon: 'x', parent: rootZone } },
    });
    expect(forbidden).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
  });

  it('handshakes again and re-subscribes after a reconnect', async () => {
    const { manager, root, api } = await apiSocket(t, t.token);
    expect(await ack(api, 'subscribe', 'homey:manager:zones')).toEqual([null]);
    const events = collect(api, 'homey:manager:zones');
    // Drop the underlying connection; the client reconnects on its own.
    manager.engine.close();
    await new Promise<void>((resolve) => root.io.once('reconnect', () => resolve()));
    await connected(root);
    const [error] = await ack(root, 'handshakeClient', { token: t.token });
    expect(error).toBeNull();
    await connected(api);
    expect(await ack(api, 'subscribe', 'homey:manager:zones')).toEqual([null]);
    const created = await t.call<Zone>('POST', '/zones/zone', { name: 'Loft', icon: 'loft', parent: rootZone });
    await until(() => events.some(([event, data]) => event === 'zone.create' && (data as Zone).id === created.body.id));
  });

  it('disconnects sockets of a revoked session', async () => {
    const token = t.sessionFor('manager', null);
    const { api } = await apiSocket(t, token);
    const session = t.hub.context.sessions.findByToken(token)!;
    const gone = new Promise<string>((resolve) => api.once('disconnect', (reason) => resolve(reason)));
    expect((await t.call('DELETE', `/sessions/session/${session.id}`)).status).toBe(204);
    expect(await gone).toBe('io server disconnect');
  });

  it('speaks Engine.IO 3 to the ecosystem client (socket.io v2 wire)', async () => {
    const port = new URL(t.hub.url).port;
    const ws = track(new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=3&transport=websocket`));
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(String(data)));
    const frame = async (test: (f: string) => boolean) => {
      await until(() => frames.some(test));
      return frames.splice(frames.findIndex(test), 1)[0] as string;
    };
    const open = JSON.parse((await frame((f) => f.startsWith('0{'))).slice(1)) as { pingInterval: number; pingTimeout: number };
    expect(open).toMatchObject({ pingInterval: 5000, pingTimeout: 8000 });
    await frame((f) => f === '40');
    ws.send(`421["handshakeClient",${JSON.stringify({ token: t.token, homeyId: t.hub.context.config.id })}]`);
    expect(JSON.parse((await frame((f) => f.startsWith('431'))).slice(3))).toEqual([null, { namespace: '/api' }]);
    ws.send('40/api,');
    await frame((f) => f.startsWith('40/api'));
    ws.send('42/api,2["subscribe","homey:manager:zones"]');
    expect(await frame((f) => f.startsWith('43/api,2'))).toBe('43/api,2[null]');
    const created = await t.call<Zone>('POST', '/zones/zone', { name: 'Shed', icon: 'shed', parent: rootZone });
    const event = await frame((f) => f.startsWith('42/api,["homey:manager:zones"'));
    expect(JSON.parse(event.slice('42/api,'.length))).toEqual(['homey:manager:zones', 'zone.create', created.body]);
    ws.send('2');
    await frame((f) => f === '3');
  });

  it('lets an Engine.IO 3 client join /api before it handshakes, as after a reconnect', async () => {
    const port = new URL(t.hub.url).port;
    const ws = track(new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=3&transport=websocket`));
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(String(data)));
    await until(() => frames.includes('40'));
    ws.send('40/api,');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(frames.some((f) => f.startsWith('40/api') || f.startsWith('44/api'))).toBe(false);
    ws.send(`420["handshakeClient",${JSON.stringify({ token: t.token })}]`);
    await until(() => frames.some((f) => f.startsWith('40/api')));
    expect(frames.some((f) => f.startsWith('44/api'))).toBe(false);
  });
});
