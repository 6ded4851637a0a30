import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The hub's demo seed is not part of its public entry; tests of the client reach for it directly.
import { seedDemoHub } from '../../../hub/src/runtime/seed';
import { CloudAPI, type Device, HubAPI, nodePlatform } from '../node';
import { HUB_ID } from '../testing/servers';
import { DEMO, type RunningWorld, startWorld } from '../testing/world';

let world: RunningWorld;
let secureUrl: string;
const apis: HubAPI[] = [];

/** A bare HTTPS GET: the status and the `X-Homey-ID` header, or the TLS error's code. */
function get(url: string, ca?: string): Promise<{ status: number; id: string | undefined } | { error: string }> {
  return new Promise((resolve) => {
    const sent = request(url, { ca, headers: { 'X-Homey-ID': HUB_ID } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, id: response.headers['x-homey-id'] as string | undefined });
    });
    sent.on('error', (error: Error & { code?: string }) => resolve({ error: error.code ?? error.message }));
    sent.end();
  });
}

beforeAll(async () => {
  // The hub serves HTTPS on a free port with a certificate the cloud's CA signs, and registers the address.
  world = await startWorld({}, { securePort: 0 });
  seedDemoHub(world.hub.hub, { historyDays: 0 });
  secureUrl = (await world.hub.hub.secureUrl) as string;
  expect(await world.hub.hub.cloudRegistration).toBe(true);
}, 120_000);
afterAll(async () => {
  for (const api of apis) api.destroy();
  await world?.stop();
});

describe('the hub’s local secure address, verified against the cloud’s CA', () => {
  it('serves HTTPS with a certificate only the cloud’s CA vouches for', async () => {
    expect(secureUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = ((await (await fetch(`${world.cloudUrl}/certificate/ca`)).json()) as { certificate: string }).certificate;
    expect(await get(`${secureUrl}/api/manager/system/ping?id=${HUB_ID}`, ca)).toEqual({ status: 200, id: HUB_ID });
    // Without the CA the certificate is one nobody else trusts.
    const untrusted = await get(`${secureUrl}/api/manager/system/ping`);
    expect(untrusted).toEqual({ error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    // The plain address goes on serving the same hub.
    expect((await fetch(`${world.hub.url}/api/manager/system/ping`)).headers.get('x-homey-id')).toBe(HUB_ID);
  });

  it('the client finds the hub at localUrlSecure, calls it and hears its realtime events over TLS', async () => {
    const cloud = new CloudAPI({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, baseUrl: world.cloudUrl });
    await cloud.authenticateWithPassword({ username: DEMO.email, password: DEMO.password });
    const record = (await cloud.getAuthenticatedUser()).getHubById(HUB_ID);
    expect(record.data.localUrlSecure).toBe(secureUrl);
    // Without the CA the secure address is not taken for the hub.
    const blind = HubAPI.discover({ ...record.data, id: HUB_ID }, { token: null, strategies: ['localSecure'] }, nodePlatform);
    await expect(blind).rejects.toThrow();
    const api = await record.authenticate({ strategies: ['localSecure'] });
    apis.push(api);
    expect(api.discovery?.strategy).toBe('localSecure');
    expect(api.baseUrl).toBe(secureUrl);
    expect((await api.system.getInfo()).id).toBe(HUB_ID);

    await api.devices.connect();
    const devices = await api.devices.getDevices();
    const device = Object.values(devices).find((d) => d.capabilitiesObj?.onoff?.setable) as unknown as Device;
    const heard: unknown[] = [];
    device.makeCapabilityInstance('onoff', (value) => heard.push(value));
    await device.connect();
    const target = !device.capabilitiesObj?.onoff?.value;
    await api.devices.setCapabilityValue({ deviceId: device.id, capabilityId: 'onoff', value: target });
    const end = Date.now() + 10_000;
    while (!heard.includes(target) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toContain(target);
  });
});
