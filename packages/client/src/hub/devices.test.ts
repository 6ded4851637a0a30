import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The hub's demo seed is not part of its public entry; tests of the client reach for it directly.
import { seedDemoHub } from '../../../hub/src/runtime/seed';
import { type CapabilityEvent, type CoreHubAPI, DEVICE_REFRESH, Device, HubAPI } from '../node';
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
  // Fails if the hub published a wire event its contract does not declare.
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
    // Other demo devices (an app's sensor, say) report too: only this device's updates count here.
    watcher.devices.on('device.update', (item: { id?: string }) => {
      if (item.id === device.id) updates.push(item);
    });

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

describe('realtime events typed from the contract (real hub)', () => {
  it("types a manager's listeners by event name, and what they receive matches", async () => {
    await watcher.devices.connect();
    const devices = await watcher.devices.getDevices();
    const socket = Object.values(devices).find((device) => device.capabilitiesObj.onoff?.setable);
    if (!socket) throw new Error('the demo world has a socket');

    const updated: { name: string; onoff: unknown }[] = [];
    // `device` is the contract's Device with the library's item fields: no cast, and a wrong field would not compile.
    watcher.devices.on('device.update', (device) => {
      updated.push({ name: device.name, onoff: device.capabilitiesObj.onoff?.value });
      expect(device.uri).toBe(`homey:device:${device.id}`);
    });
    const next = !(socket.capabilitiesObj.onoff?.value as boolean);
    await writer.devices.setCapabilityValue({ deviceId: socket.id, capabilityId: 'onoff', value: next });
    await until(() => updated.some((u) => u.name === socket.name && u.onoff === next));

    const zones: string[] = [];
    await watcher.zones.connect();
    watcher.zones.on('zone.create', (zone) => zones.push(zone.name));
    const root = Object.values(await watcher.zones.getZones()).find((zone) => zone.parent === null);
    await writer.zones.createZone({ zone: { name: 'Shed', icon: 'garden', parent: root?.id ?? '' } });
    await until(() => zones.includes('Shed'));

    // Names the contract does not declare for a manager are refused by the compiler.
    // @ts-expect-error zones publish no device events
    watcher.zones.on('device.update', () => {});
    // @ts-expect-error a payload is the declared one: a zone has no capabilitiesObj
    watcher.zones.on('zone.update', (zone) => zone.capabilitiesObj);
    watcher.zones.off('zone.create');
    watcher.devices.off('device.update');
  });

  it("types a device's own capability events from the contract", async () => {
    const devices = await watcher.devices.getDevices();
    const socket = Object.values(devices).find((device) => device.capabilitiesObj.onoff?.setable) as unknown as Device;
    expect(socket).toBeInstanceOf(Device);
    const events: CapabilityEvent[] = [];
    socket.on('capability', (event) => {
      // Declared fields, typed: the transactionId is a string, the time a number.
      events.push({ ...event, transactionId: event.transactionId.slice(0), transactionTime: event.transactionTime + 0 });
    });
    await socket.connect();
    await writer.devices.setCapabilityValue({
      deviceId: socket.id,
      capabilityId: 'onoff',
      value: true,
      transactionId: 'typed-1',
    });
    await until(() => events.some((e) => e.transactionId === 'typed-1'));
    expect(events.find((e) => e.transactionId === 'typed-1')).toMatchObject({ capabilityId: 'onoff', value: true });
    socket.disconnect();
  });
});
