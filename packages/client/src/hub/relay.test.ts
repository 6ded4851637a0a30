import { rmSync } from 'node:fs';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The hub's demo seed is not part of its public entry; tests of the client reach for it directly.
import { seedDemoHub } from '../../../hub/src/runtime/seed';
import { CloudAPI, type Device, type HubAPI } from '../node';
import { deadAddress, HUB_ID, startRealHub } from '../testing/servers';
import { DEMO, INTERNAL_CLIENT, type RunningWorld, startWorld } from '../testing/world';

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

// Relay origins are `<hubId>.connect.localhost`, which browsers resolve to this machine and Node here does not.
resolveLocalhostNames();

let world: RunningWorld;
let dataDir: string;
const apis: HubAPI[] = [];

/** Points the hub's record at an address where nothing answers, as for a client away from home. */
async function unreachableAtHome(): Promise<void> {
  const service = new CloudAPI({ clientId: INTERNAL_CLIENT.id, clientSecret: INTERNAL_CLIENT.secret, baseUrl: world.cloudUrl });
  const token = await service.authenticateWithClientCredentials();
  const response = await fetch(`${world.cloudUrl}/cloud/homey/${HUB_ID}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ homey: { localUrl: await deadAddress() } }),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  world = await startWorld();
  dataDir = world.hub.dataDir;
  seedDemoHub(world.hub.hub, { historyDays: 0 });
  await (await world.hub.hub.tunnel)?.whenConnected();
  await unreachableAtHome();
}, 120_000);
afterAll(async () => {
  for (const api of apis) api.destroy();
  await world?.hub.hub.stop();
  await world?.cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Signs in as the demo user and connects to their hub the way an app away from home does. */
async function connectAway(): Promise<{ api: HubAPI; lines: string[] }> {
  const cloud = new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: world.cloudUrl });
  await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
  const user = await cloud.getAuthenticatedUser();
  const lines: string[] = [];
  const api = await user.getHubById(HUB_ID).authenticate({ debug: (line) => lines.push(line) });
  apis.push(api);
  return { api, lines };
}

/** A device with a settable on/off capability (the cache holds Device items). */
const socketOf = (devices: Record<string, { capabilitiesObj?: Record<string, { setable?: boolean }> }>) =>
  Object.values(devices).find((device) => device.capabilitiesObj?.onoff?.setable) as unknown as Device;

describe('a hub away from home, through the connect relay (real cloud and hub)', () => {
  it('finds the hub through the cloud strategy when its local address does not answer', async () => {
    const { api, lines } = await connectAway();
    const port = new URL(world.cloudUrl).port;
    expect(api.baseUrl).toBe(`http://${HUB_ID}.connect.localhost:${port}`);
    expect(lines.some((line) => line.includes(`cloud http://${HUB_ID}.connect.localhost`))).toBe(true);
  });

  it('lists devices, writes a capability and hears the realtime event, all through the relay', async () => {
    const { api } = await connectAway();
    const watcher = (await connectAway()).api;
    await watcher.devices.connect();
    const device = socketOf(await watcher.devices.getDevices());
    expect(device.capabilitiesObj?.onoff).toMatchObject({ id: 'onoff', setable: true });
    const heard: unknown[] = [];
    device.makeCapabilityInstance('onoff', (value) => heard.push(value));
    await device.connect();
    const target = !device.capabilitiesObj?.onoff?.value;
    await api.devices.setCapabilityValue({ deviceId: device.id, capabilityId: 'onoff', value: target });
    await until(() => heard.includes(target));
    expect((await api.devices.getDevice({ id: device.id })).capabilitiesObj?.onoff?.value).toBe(target);
  });

  it('keeps realtime working across a relay reconnect: the socket comes back and re-subscribes', async () => {
    const { api } = await connectAway();
    const watcher = (await connectAway()).api;
    await watcher.devices.connect();
    const device = socketOf(await watcher.devices.getDevices());
    const heard: unknown[] = [];
    device.makeCapabilityInstance('onoff', (value) => heard.push(value));
    await device.connect();
    let reconnected = false;
    watcher.realtime.on('reconnect', () => {
      reconnected = true;
    });
    // The hub restarts: its tunnel closes, the relay answers 503 meanwhile, then the hub tunnels in again.
    const port = Number(new URL(world.hub.url).port);
    await world.hub.hub.stop();
    world.hub = await startRealHub(
      {
        dataDir,
        port,
        cloudUrl: world.cloudUrl,
        cloudClientSecret: INTERNAL_CLIENT.secret,
        relay: { minDelayMs: 50, maxDelayMs: 200 },
      },
      { issueToken: false },
    );
    await (await world.hub.hub.tunnel)?.whenConnected();
    await until(() => reconnected, 20_000);
    const current = (await api.devices.getDevice({ id: device.id })).capabilitiesObj?.onoff?.value;
    await api.devices.setCapabilityValue({ deviceId: device.id, capabilityId: 'onoff', value: !current });
    await until(() => heard.includes(!current));
  }, 60_000);
});
