import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSystem, startSystem } from './system';

type Json = Record<string, unknown>;
type Device = { id: string; name: string; driverId: string; capabilitiesObj: Record<string, { value: unknown }> };

/** Waits until `read` answers what `ok` accepts (retained messages and Z-Wave interviews reach the hub in their time). */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Node = { nodeId: number; ready: boolean; interviewStage: string };
type Candidate = Json & { name: string; data: { zwave: { nodeId: number } }; capabilities: string[] };
type Hub = RunningSystem['hubs'][number];

/** The built-in generic Z-Wave driver, which offers the nodes no app claims. */
const GENERIC_ZWAVE_DRIVER = 'homey:app:com.hearth.virtual:zwavenode';

/**
 * `npm start`'s stand-ins for radios and the devices behind them, in one system started as `npm start` starts it
 * (starting one takes most of this file's time): the demo MQTT broker, the virtual Z-Wave network, and the virtual
 * Matter devices the hub "Home" commissions over IP on first start.
 */
let system: RunningSystem;
beforeAll(async () => {
  system = await startSystem({ MATTER_DEMO: '1' });
}, 180_000);
afterAll(async () => {
  await system?.stop();
});

/** Calls a hub's API as its owner. */
async function call<T>(hub: Hub, method: string, path: string, body?: unknown) {
  const response = await fetch(`${hub.url}/api/manager${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.ownerToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (response.status === 204 ? null : await response.json()) as T };
}
const home = () => system.hubs.find((h) => h.name === 'Home') as Hub;

/**
 * `npm start`'s demo broker: started as `npm start` starts it, with its stand-ins for zigbee2mqtt and an ESPHome
 * sensor; the hub "Home" bridges it out of the box, the other demo hubs do not.
 */
describe('the demo MQTT broker of npm start', () => {
  const bridged = async () =>
    Object.values((await call<Record<string, Device>>(home(), 'GET', '/devices/device')).body).filter((d) =>
      d.driverId.startsWith('homey:app:com.hearth.mqtt:'),
    );

  it('says where the broker is and which one runs, in the output and in running.json', () => {
    expect(system.mqttUrl).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(system.mqttBroker).toMatch(/^(Mosquitto \d|aedes)/);
    expect(system.output()).toContain(`MQTT broker    ${system.mqttUrl}  (${system.mqttBroker};`);
  });

  it('the hub Home is connected to it, and the stand-ins’ Zigbee and discovery devices exist with their values', async () => {
    const state = await until(
      () => call<Json>(home(), 'GET', '/mqtt/state'),
      (s) => s.body.state === 'connected',
    );
    expect(state.body).toMatchObject({ state: 'connected', url: system.mqttUrl, source: 'environment' });
    const devices = await until(bridged, (list) => list.length >= 5);
    expect(devices.map((d) => d.name).sort()).toEqual(
      ['Balcony sensor', 'Bedside remote', 'Front door', 'Kettle plug', 'Living room/Lamp'].sort(),
    );
    const lamp = devices.find((d) => d.name === 'Living room/Lamp') as Device;
    expect(lamp.capabilitiesObj.onoff?.value).toBe(true);
    const balcony = devices.find((d) => d.name === 'Balcony sensor') as Device;
    expect(balcony.capabilitiesObj.measure_temperature?.value).toBe(18.6);
    // A write reaches the zigbee2mqtt stand-in, whose state answer confirms it.
    expect((await call(home(), 'PUT', `/devices/device/${lamp.id}/capability/onoff`, { value: false })).status).toBe(204);
    const after = await call<Device>(home(), 'GET', `/devices/device/${lamp.id}`);
    expect(after.body.capabilitiesObj.onoff?.value).toBe(false);
  });

  it('the other demo hubs bridge no broker', async () => {
    for (const hub of system.hubs.filter((h) => h.name !== 'Home'))
      expect((await call<Json>(hub, 'GET', '/mqtt/state')).body).toMatchObject({ state: 'disabled', url: null });
  });
});

/**
 * `npm start`'s virtual Z-Wave network, started as `npm start` starts it: zwave-js's mock controller and nodes in a
 * process of their own, a stand-in for the stick; the hub "Home" runs the real zwave-js driver on it.
 */
describe('the virtual Z-Wave network of npm start', () => {
  it('says where the stand-in stick is and that it is one, in the output, running.json and the hub’s state', async () => {
    expect(system.zwavePort).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    expect(system.output()).toContain(`Z-Wave stick   ${system.zwavePort}  (STAND-IN: zwave-js's mock controller, no radio;`);
    expect(system.output()).toContain('node 2: wall plug');
    const state = await until(
      () => call<Json & { controller: Json; nodes: Node[] }>(home(), 'GET', '/zwave/state'),
      (s) => [2, 3, 4].every((id) => s.body.nodes.find((n) => n.nodeId === id)?.ready),
      // Interviews on the mock take seconds each; a loaded CI machine may need several times that.
      90_000,
    );
    expect(state.body.controller).toMatchObject({ port: system.zwavePort, ready: true, failure: null });
    expect(String(state.body.controller.standIn)).toContain('stand-in for a Z-Wave stick');
    expect(state.body.homeId).toBe('7e570001');
    expect(state.body.nodes.map((n) => n.nodeId)).toEqual([1, 2, 3, 4]);
  }, 120_000);

  it('Home adds the virtual plug through a pair session and switches it; the node’s report confirms each write', async () => {
    const session = await call<{ id: string }>(home(), 'POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: GENERIC_ZWAVE_DRIVER,
    });
    expect(session.status).toBe(200);
    const found = await call<Candidate[]>(home(), 'POST', `/drivers/pairsession/${session.body.id}/emit`, {
      event: 'list_devices',
    });
    expect(found.body.map((c) => c.data.zwave.nodeId)).toEqual([2, 3, 4]);
    const plug = found.body[0] as Candidate;
    expect(plug.capabilities.sort()).toEqual(['measure_power', 'meter_power', 'onoff']);
    const added = await call<Device>(home(), 'POST', `/drivers/pairsession/${session.body.id}/device`, plug);
    expect(added.status).toBe(200);
    // The plug's meter readings came from the mock node's interview, through zwave-js.
    const device = async () => (await call<Device>(home(), 'GET', `/devices/device/${added.body.id}`)).body;
    expect((await device()).capabilitiesObj.measure_power?.value).toBe(42);
    for (const value of [true, false]) {
      const write = await call(home(), 'PUT', `/devices/device/${added.body.id}/capability/onoff`, { value });
      expect(write.status).toBe(204);
      expect((await device()).capabilitiesObj.onoff?.value).toBe(value);
    }
  });

  it('the other demo hubs open no stick', async () => {
    for (const hub of system.hubs.filter((h) => h.name !== 'Home'))
      expect((await call<Json>(hub, 'GET', '/zwave/state')).body).toMatchObject({
        controller: { port: null, ready: false, standIn: null },
      });
  });
});

type MatterNode = { id: string; deviceId: string | null; reachable: boolean; productName: string | null };
type NodeAttribute = { endpoint: number; clusterName: string; attributeName: string; value: unknown };

/**
 * `npm start`'s virtual Matter devices: real Matter nodes (matter.js's device side) in a process of their own, which
 * the hub "Home" commissioned with their pairing codes through its pair session before the system said it runs.
 */
describe('the demo Matter devices of npm start', () => {
  const matterDevices = async () =>
    Object.values((await call<Record<string, Device & { zone: string }>>(home(), 'GET', '/devices/device')).body).filter(
      (d) => d.driverId === 'homey:app:com.hearth.virtual:matter_clusters',
    );

  it('lists each device with its pairing code, and Home has all five on its fabric, named and in their zones', async () => {
    expect(system.matterDevices.map((d) => d.name)).toEqual([
      'Hallway light',
      'Reading lamp',
      'Washing machine plug',
      'Back door',
      'Office thermostat',
    ]);
    for (const device of system.matterDevices)
      expect(system.output()).toMatch(new RegExp(`${device.name}\\s+${device.kind}\\s+code ${device.manualPairingCode}`));
    const devices = await matterDevices();
    expect(devices.map((d) => d.name).sort()).toEqual(system.matterDevices.map((d) => d.name).sort());
    const zones = (await call<Record<string, { id: string; name: string }>>(home(), 'GET', '/zones/zone')).body;
    for (const device of devices) {
      const expected = system.matterDevices.find((d) => d.name === device.name)?.zone;
      expect(zones[device.zone]?.name).toBe(expected);
    }
    const nodes = (await call<MatterNode[]>(home(), 'GET', '/matter/nodes')).body;
    expect(nodes).toHaveLength(5);
    expect(nodes.every((node) => node.reachable)).toBe(true);
  });

  it('switches the hallway light from Home, as the light itself then reads', async () => {
    const light = (await matterDevices()).find((d) => d.name === 'Hallway light') as Device;
    const node = (await call<MatterNode[]>(home(), 'GET', '/matter/nodes')).body.find((n) => n.deviceId === light.id);
    expect(node).toBeDefined();
    for (const value of [true, false]) {
      expect((await call(home(), 'PUT', `/devices/device/${light.id}/capability/onoff`, { value })).status).toBe(204);
      // Read from the node now, not from the hub's copy.
      const attributes = (await call<NodeAttribute[]>(home(), 'GET', `/matter/node/${node?.id}/attributes`)).body;
      expect(attributes.find((a) => a.clusterName === 'OnOff' && a.attributeName === 'onOff')?.value).toBe(value);
    }
  });
});
