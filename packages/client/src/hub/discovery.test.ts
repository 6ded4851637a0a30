import makeMdns from 'multicast-dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, HubAPI, messages, nodePlatform, OfflineError } from '../node';
import { deadAddress, HUB_ID, type RunningHub, startRealHub, startTinyServer, type TinyServer } from '../testing/servers';

let hub: RunningHub;
let slow: TinyServer;
let notAHub: TinyServer;
let dead: string;

/** A ping answer as a hub gives it, after `delay` ms. */
const pingAfter = (delay: number) =>
  startTinyServer((_request, response) => {
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-homey-id': HUB_ID, 'x-homey-version': '12.4.0' });
      response.end('{}');
    }, delay);
  });

beforeAll(async () => {
  hub = await startRealHub();
  slow = await pingAfter(1500);
  notAHub = await startTinyServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}');
  });
  dead = await deadAddress();
});
afterAll(async () => {
  await Promise.all([slow.close(), notAHub.close()]);
  await hub.stop();
});

const record = (addresses: Record<string, string | number | undefined>) => ({ id: HUB_ID, apiVersion: 3, ...addresses });
const discover = (addresses: Record<string, string | number | undefined>) =>
  HubAPI.discover(record(addresses), { token: hub.token }, nodePlatform);

describe('discovery', () => {
  it('prefers an answering secure local address over a local one', async () => {
    const api = await discover({ localUrlSecure: hub.url, localUrl: hub.url, remoteUrl: hub.url });
    expect(api.discovery?.strategy).toBe('localSecure');
  });

  it('takes the local address when the secure one is dead, without waiting for a slow cloud', async () => {
    const started = Date.now();
    const api = await discover({ localUrlSecure: dead, localUrl: hub.url, remoteUrl: slow.url });
    expect(api.discovery?.strategy).toBe('local');
    expect(api.baseUrl).toBe(hub.url);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await api.system.getInfo()).toMatchObject({ id: HUB_ID });
  });

  it('gives up on a local address slower than 1 s and takes the cloud address', async () => {
    const started = Date.now();
    const api = await discover({ localUrl: slow.url, remoteUrl: hub.url });
    const elapsed = Date.now() - started;
    expect(api.discovery?.strategy).toBe('cloud');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1450);
  });

  it('takes the remote forwarded address before the cloud one', async () => {
    const api = await discover({ localUrl: dead, remoteUrlForwarded: hub.url, remoteUrl: slow.url });
    expect(api.discovery?.strategy).toBe('remoteForwarded');
  });

  it('pings with X-Homey-ID and ?id=, without credentials', async () => {
    await discover({ localUrl: dead, remoteUrl: notAHub.url }).catch(() => undefined);
    const ping = notAHub.requests.at(-1);
    expect(ping?.url).toBe(`/api/manager/system/ping?id=${HUB_ID}`);
    expect(ping?.headers['x-homey-id']).toBe(HUB_ID);
    expect(ping?.headers.authorization).toBeUndefined();
  });

  it("throws 'Homey Offline' (500) when no address answers as this hub", async () => {
    const other = await startRealHub({ id: 'ffffffffffffffffffffffff' });
    try {
      const error = await discover({ localUrl: other.url, remoteUrl: notAHub.url, remoteUrlForwarded: dead }).catch((e) => e);
      expect(error).toBeInstanceOf(OfflineError);
      expect(error).toMatchObject({ message: 'Homey Offline', statusCode: 500 });
    } finally {
      await other.stop();
    }
  });

  it('refuses records without addresses, with a bad id or another API version', async () => {
    await expect(discover({})).rejects.toThrow(messages.noStrategies);
    await expect(HubAPI.discover({ id: 'not an id!', localUrl: hub.url }, { token: null }, nodePlatform)).rejects.toThrow(
      'Invalid Homey ID',
    );
    await expect(
      HubAPI.discover({ ...record({ localUrl: hub.url }), apiVersion: 2 }, { token: null }, nodePlatform),
    ).rejects.toThrow('Unsupported Homey API Version');
  });
});

describe('HubAPI.local', () => {
  it('reads the hub id from the ping header', async () => {
    const api = await HubAPI.local({ address: hub.url, token: hub.token });
    expect(api.id).toBe(HUB_ID);
  });

  it("throws 'No Homey Found At Address' when the address does not answer as a hub", async () => {
    const error = await HubAPI.local({ address: notAHub.url, token: hub.token }).catch((e) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toBe('No Homey Found At Address');
  });

  it('needs an address and a token', async () => {
    await expect(HubAPI.local({ address: hub.url, token: '' })).rejects.toThrow('Missing Token');
    await expect(HubAPI.local({ address: '', token: hub.token })).rejects.toThrow('Missing Parameter: address');
  });
});

describe('discovery over mDNS (Node)', () => {
  it('looks up homey-<id>.local and pings the address it resolves to, before the remote addresses', async () => {
    // Stands in for the hub's own advertisement: answers A queries for its name with the loopback address.
    const responder = makeMdns();
    const name = `homey-${HUB_ID}.local`;
    responder.on('query', (query) => {
      if (query.questions.some((question) => question.name === name && question.type === 'A')) {
        responder.respond({ answers: [{ name, type: 'A', ttl: 120, data: '127.0.0.1' }] });
      }
    });
    try {
      const port = Number(new URL(hub.url).port);
      const api = await discover({ platform: 'local', localUrl: dead, portHttp: port, remoteUrl: slow.url });
      expect(api.discovery?.strategy).toBe('mdns');
      expect(api.baseUrl).toBe(`http://127.0.0.1:${port}`);
      expect((await api.system.getInfo()).id).toBe(HUB_ID);
    } finally {
      responder.destroy();
    }
  });
});
