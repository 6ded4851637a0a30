import { afterAll, beforeAll, expect, it } from 'vitest';
import { HubAPI, nodePlatform } from '../node';
import { deadAddress, type RunningHub, startRealHub } from '../testing/servers';

// Its own id, so nothing but this hub's own mDNS advertisement can answer for homey-<id>.local.
const ADVERTISED_ID = 'a1d5ee0000000000000000d5';
let hub: RunningHub;
let dead: string;

beforeAll(async () => {
  hub = await startRealHub({ id: ADVERTISED_ID, mdns: true });
  dead = await deadAddress();
});
afterAll(() => hub?.stop());

it('finds the real hub through its own mDNS advertisement when its local address is dead', async () => {
  const port = Number(new URL(hub.url).port);
  const api = await HubAPI.discover(
    { id: ADVERTISED_ID, apiVersion: 3, platform: 'local', localUrl: dead, portHttp: port, remoteUrlForwarded: dead },
    { token: hub.token },
    nodePlatform,
  );
  expect(api.discovery?.strategy).toBe('mdns');
  expect(api.baseUrl).toBe(`http://127.0.0.1:${port}`);
  expect((await api.system.getInfo()).id).toBe(ADVERTISED_ID);
});
