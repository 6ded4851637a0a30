import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, type CoreHubAPI, HubAPI, Item, TimeoutError } from '../node';
import { HUB_ID, type RunningHub, startRealHub } from '../testing/servers';

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

let hub: RunningHub;
const clients: CoreHubAPI[] = [];
const client = async (token = hub.token, debug?: (line: string) => void) => {
  const api = await HubAPI.local({ address: hub.url, token, debug });
  clients.push(api);
  return api;
};

beforeAll(async () => {
  hub = await startRealHub();
});
afterAll(async () => {
  for (const api of clients) api.destroy();
  await hub.stop();
});

describe('realtime (real hub)', () => {
  it('keeps a connected manager’s cache live from zone.create, zone.update and zone.delete', async () => {
    const watcher = await client();
    const writer = await client();
    await watcher.zones.connect();
    expect(watcher.zones.isConnected).toBe(true);
    const zones = await watcher.zones.getZones();
    const root = Object.values(zones).find((zone) => zone.parent === null)!;

    const created: unknown[] = [];
    watcher.zones.on('zone.create', (item: unknown) => created.push(item));
    const zone = await writer.zones.createZone({ zone: { name: 'Attic', icon: 'attic', parent: root.id } });
    await until(() => created.length === 1);
    expect(created[0]).toBeInstanceOf(Item);
    const cached = (await watcher.zones.getZones())[zone.id]!;
    expect(cached.name).toBe('Attic');

    const updates: string[] = [];
    cached.on('update', (item: { name: string }) => updates.push(item.name));
    await writer.zones.updateZone({ id: zone.id, zone: { name: 'Loft' } });
    await until(() => updates.length === 1);
    expect(updates).toEqual(['Loft']);
    expect((await watcher.zones.getZone({ id: zone.id })).name).toBe('Loft');
    // Same object: the cache updates items in place.
    expect((await watcher.zones.getZones())[zone.id]).toBe(cached);

    let deleted = false;
    cached.on('delete', () => {
      deleted = true;
    });
    await writer.zones.deleteZone({ id: zone.id });
    await until(() => deleted);
    expect((await watcher.zones.getZones())[zone.id]).toBeUndefined();
  });

  it('keeps items created and renamed while the manager lists, when their events arrive before the list’s answer', async () => {
    const watcher = await client();
    const writer = await client();
    const root = Object.values(await writer.zones.getZones()).find((zone) => zone.parent === null)!;
    const garage = await writer.zones.createZone({ zone: { name: 'Garage', icon: 'garage', parent: root.id } });
    // The hub listed before the zone was made and the other renamed, and its answer arrives after their events:
    // hold the answer back until both are in.
    const created = new Promise<unknown>((resolve) => watcher.zones.once('zone.create', resolve));
    const renamed = new Promise<unknown>((resolve) => watcher.zones.once('zone.update', resolve));
    const send = watcher.send.bind(watcher);
    watcher.send = async (manager, request, args) => {
      const answer = await send(manager, request, args);
      if (manager === 'zones' && request.operation.name === 'getZones') {
        await writer.zones.createZone({ zone: { name: 'Cellar', icon: 'basement', parent: root.id } });
        await writer.zones.updateZone({ id: garage.id, zone: { name: 'Workshop' } });
        await Promise.all([created, renamed]);
      }
      return answer;
    };
    await watcher.zones.connect();
    const names = Object.values(await watcher.zones.getZones()).map((zone) => zone.name);
    expect(names).toContain('Cellar');
    expect(names).toContain('Workshop');
    expect(names).not.toContain('Garage');
    // The same object the create event gave its listeners.
    expect(watcher.zones.cached('zone')).toContain(await created);
  });

  it('sends calls over the socket once connected, not over HTTP', async () => {
    const lines: string[] = [];
    const api = await client(hub.token, (line) => lines.push(line));
    await api.connect();
    lines.length = 0;
    const info = await api.system.getInfo();
    expect(info.id).toBe(HUB_ID);
    expect(lines.filter((line) => line.startsWith('→'))).toEqual([]);
    await expect(api.system.setSystemName({ name: '' })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses a bad token at the handshake with the hub’s 401', async () => {
    const api = new HubAPI({ id: HUB_ID, baseUrl: hub.url, token: 'definitely-not-valid' });
    clients.push(api);
    const error = await api.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ statusCode: 401 });
  });
});

describe('realtime across a hub restart', () => {
  it('reconnects, handshakes again, re-subscribes and refills the cache', async () => {
    const restartable = await startRealHub();
    const port = Number(new URL(restartable.url).port);
    let current = restartable;
    try {
      const api = await HubAPI.local({ address: restartable.url, token: restartable.token });
      clients.push(api);
      await api.zones.connect();
      const root = Object.values(await api.zones.getZones()).find((zone) => zone.parent === null)!;
      let reconnected = 0;
      api.realtime.on('reconnect', () => {
        reconnected++;
      });
      // The manager says when its cache is whole again, so a view of it can read it afresh.
      let refilled = 0;
      api.zones.on('connect', () => {
        refilled++;
      });

      await restartable.hub.stop();
      await until(() => !api.realtime.connected);
      // A cache that may be missing events is never answered from: the read goes to the (stopped) hub.
      await expect(api.zones.getZones()).rejects.toBeInstanceOf(APIError);
      current = await startRealHub({ dataDir: restartable.dataDir, port }, { issueToken: false });
      await until(() => reconnected === 1, 15_000);
      await until(() => refilled === 1, 15_000);

      const writer = await HubAPI.local({ address: current.url, token: restartable.token });
      clients.push(writer);
      const zone = await writer.zones.createZone({ zone: { name: 'After restart', icon: 'home', parent: root.id } });
      await until(() => api.zones.cached('zone').some((item) => item.id === zone.id));
    } finally {
      await current.stop();
      rmSync(restartable.dataDir, { recursive: true, force: true });
    }
  });
});

describe('realtime time limits', () => {
  it('times out a handshake and a subscription after 10000 ms with the seed’s messages', { timeout: 30_000 }, async () => {
    const http = createServer();
    const io = new Server(http, { path: '/socket.io/' });
    io.on('connection', (socket) => {
      // Answers the handshake only for the token "ok"; never acknowledges a subscription.
      socket.on('handshakeClient', (payload: { token: string }, ack: (e: null, r: object) => void) => {
        if (payload.token === 'ok') ack(null, { namespace: '/api' });
      });
    });
    io.of('/api').on('connection', () => {});
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const silent = new HubAPI({ id: HUB_ID, baseUrl: url, token: 'silent', reconnect: false });
      const ok = new HubAPI({ id: HUB_ID, baseUrl: url, token: 'ok', reconnect: false });
      clients.push(silent, ok);
      const [handshake, subscribe] = await Promise.all([
        silent.connect().catch((e: unknown) => e),
        ok.realtime.subscribe('homey:manager:zones', () => {}).catch((e: unknown) => e),
      ]);
      expect(handshake).toBeInstanceOf(TimeoutError);
      expect((handshake as Error).message).toBe('Failed to handshake client (Timeout after 10000ms).');
      expect(subscribe).toBeInstanceOf(TimeoutError);
      expect((subscribe as Error).message).toBe('Failed to subscribe to homey:manager:zones (Timeout after 10000ms).');
    } finally {
      io.close();
    }
  });
});
