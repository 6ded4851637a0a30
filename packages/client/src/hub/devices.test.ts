import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The hub's demo seed is not part of its public entry; tests of the client reach for it directly.
import { seedDemoHub } from '../../../hub/src/runtime/seed';
import { type CoreHubAPI, DEVICE_REFRESH, Device, HubAPI } from '../node';
import { type RunningHub, startRealHub } from '../testing/servers';

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

let hub: RunningHub;
let watcher: CoreHubAPI;
let writer: CoreHubAPI;

beforeAll(async () => {
  hub = await startRealHub();
  seedDemoHub(hub.hub, { historyDays: 0 });
  watcher = await HubAPI.local({ address: hub.url, token: hub.token });
  writer = await HubAPI.local({ address: hub.url, token: hub.token });
});
afterAll(async () => {
  watcher.destroy();
  writer.destroy();
  await hub.stop();
});

/** A device with a settable on/off capability. */
const socketOf = (devices: Record<string, { capabilitiesObj?: Record<string, { setable?: boolean }> }>) =>
  Object.values(devices).find((device) => device.capabilitiesObj?.onoff?.setable) as unknown as Device;

describe('devices and capabilities (real hub, demo devices)', () => {
  it('lists devices as Device items with capability values', async () => {
    const devices = await watcher.devices.getDevices();
    const device = socketOf(devices);
    expect(device).toBeInstanceOf(Device);
    expect(device.uri).toBe(`homey:device:${device.id}`);
    expect(device.capabilitiesObj?.onoff).toMatchObject({ id: 'onoff', setable: true });
  });

  it('follows a capability live: the instance hears each new value and the cached device holds it', async () => {
    await watcher.devices.connect();
    const device = socketOf(await watcher.devices.getDevices());
    const heard: unknown[] = [];
    const instance = device.makeCapabilityInstance('onoff', (value) => heard.push(value));
    await device.connect();
    const updates: unknown[] = [];
    watcher.devices.on('device.update', (item: unknown) => updates.push(item));

    const target = !device.capabilitiesObj?.onoff?.value;
    await writer.devices.setCapabilityValue({ deviceId: device.id, capabilityId: 'onoff', value: target, transactionId: 'tx-1' });
    await until(() => heard.length > 0);
    expect(heard.at(-1)).toBe(target);
    expect(instance.value).toBe(target);
    await until(() => updates.length > 0);
    // The manager's cached item is the same object, updated in place.
    expect(updates.at(-1)).toBe(device);
    expect((await watcher.devices.getDevice({ id: device.id })).capabilitiesObj?.onoff?.value).toBe(target);

    // And the instance sets values too.
    await instance.setValue(!target);
    await until(() => heard.at(-1) === !target);
    instance.destroy();
    device.disconnect();
  });

  it('schedules a refresh 1000 ms after a trigger, only when the device is over 2500 ms old, once per burst', async () => {
    const device = socketOf(await watcher.devices.getDevices());
    device.lastUpdated = Date.now();
    expect(device.scheduleRefresh()).toBe(false);
    device.lastUpdated = Date.now() - DEVICE_REFRESH.staleAfter - 1;
    const triggered = Date.now();
    expect(device.scheduleRefresh()).toBe(true);
    expect(device.scheduleRefresh()).toBe(false);
    let refreshedAt = 0;
    device.once('update', () => {
      refreshedAt = Date.now();
    });
    await until(() => refreshedAt > 0, 3000);
    expect(refreshedAt - triggered).toBeGreaterThanOrEqual(DEVICE_REFRESH.delay - 5);
    expect(Date.now() - device.lastUpdated).toBeLessThan(1000);
  });
});
