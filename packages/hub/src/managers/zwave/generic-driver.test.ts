import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';
import { startZwaveMockNetwork, type ZwaveMockNetwork } from '../../testing/zwave-mock';
import { ZWAVE_DRIVER_ID } from './devices';

type Json = Record<string, unknown>;
type Candidate = Json & { name: string; data: { id: string; zwave: { nodeId: number } }; capabilities: string[]; class: string };
type Device = Json & { id: string; capabilitiesObj: Record<string, { value: unknown }> };

/** Notification types and events the mock multisensor sends: Home Security's motion, Access Control's door. */
const MOTION = { type: 7, event: 8 };
const MOTION_IDLE = { type: 7, event: 0 };
const DOOR_OPEN = { type: 6, event: 22 };

describe('the built-in generic Z-Wave driver, against zwave-js’s mock controller and nodes in their own process', () => {
  let network: ZwaveMockNetwork;
  let t: TestHub;
  const devices: Record<number, string> = {};

  const device = async (nodeId: number) => (await t.call<Device>('GET', `/devices/device/${devices[nodeId]}`)).body;
  const capabilityValue = async (nodeId: number, capability: string) => (await device(nodeId)).capabilitiesObj[capability]?.value;
  /** Waits (on the hub's own state, not a fixed time) until the capability reads `expected`; answers what it read. */
  const untilValue = (nodeId: number, capability: string, expected: unknown) =>
    until(
      () => capabilityValue(nodeId, capability),
      (v) => v === expected,
      10_000,
    );

  beforeAll(async () => {
    network = await startZwaveMockNetwork();
    t = await startTestHub({ zwavePort: network.port });
    await untilAppRunning(t);
    await until(
      () => t.call<{ nodes: { nodeId: number; ready: boolean }[] }>('GET', '/zwave/state'),
      (s) => [2, 3, 4].every((id) => s.body.nodes.find((n) => n.nodeId === id)?.ready),
      // Interviews on the mock take seconds; a loaded CI machine may need several times that.
      40_000,
    );
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await network?.stop();
  });

  it('offers each interviewed node as a device with capabilities from its command classes', async () => {
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    expect(session.status).toBe(200);
    const found = await t.call<Candidate[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' });
    expect(found.body.map((c) => c.data.zwave.nodeId)).toEqual([2, 3, 4]);
    const [plug, dimmer, sensor] = found.body as [Candidate, Candidate, Candidate];
    expect(plug.capabilities.sort()).toEqual(['measure_power', 'meter_power', 'onoff']);
    expect(plug.class).toBe('socket');
    expect(dimmer.capabilities.sort()).toEqual(['dim', 'onoff']);
    expect(dimmer.class).toBe('light');
    expect(sensor.capabilities.sort()).toEqual(['alarm_contact', 'alarm_motion', 'measure_battery', 'measure_temperature']);
    expect(sensor.class).toBe('sensor');
    for (const candidate of found.body) {
      const added = await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate);
      expect(added.status).toBe(200);
      devices[candidate.data.zwave.nodeId] = added.body.id;
    }
    // A node that is a device already is offered no more.
    const again = await t.call<Candidate[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' });
    expect(again.body).toEqual([]);
    // The new devices start with what their nodes reported in their interviews.
    expect(await capabilityValue(2, 'meter_power')).toBe(1.5);
    expect(await capabilityValue(2, 'measure_power')).toBe(42);
    expect(await capabilityValue(4, 'measure_temperature')).toBe(21.5);
    expect(await capabilityValue(4, 'measure_battery')).toBe(87);
  });

  it('a capability write through the device API reaches the node, and the node’s report sets the capability', async () => {
    expect((await t.call('PUT', `/devices/device/${devices[2]}/capability/onoff`, { value: true })).status).toBe(204);
    expect(await network.ask('state', { node: 2, key: 'BinarySwitch_currentValue' })).toBe(true);
    expect(await capabilityValue(2, 'onoff')).toBe(true);
    expect((await t.call('PUT', `/devices/device/${devices[2]}/capability/onoff`, { value: false })).status).toBe(204);
    expect(await network.ask('state', { node: 2, key: 'BinarySwitch_currentValue' })).toBe(false);
    expect(await capabilityValue(2, 'onoff')).toBe(false);

    // dim 0.5 is level 50 of the dimmer's 0–99; the dimmer's report of 50 reads back as 0.51.
    expect((await t.call('PUT', `/devices/device/${devices[3]}/capability/dim`, { value: 0.5 })).status).toBe(204);
    expect(await network.ask('state', { node: 3, key: 'MultilevelSwitch_currentValue' })).toBe(50);
    expect(await untilValue(3, 'dim', 0.51)).toBe(0.51);
    expect(await capabilityValue(3, 'onoff')).toBe(true);
    expect((await t.call('PUT', `/devices/device/${devices[3]}/capability/onoff`, { value: false })).status).toBe(204);
    expect(await network.ask('state', { node: 3, key: 'MultilevelSwitch_currentValue' })).toBe(0);
    expect(await untilValue(3, 'dim', 0)).toBe(0);
  });

  it('reports the nodes send unasked reach the capabilities', async () => {
    await network.ask('report', { node: 2, cc: 'meter', type: 1, scale: 2, value: 55.5 });
    expect(await untilValue(2, 'measure_power', 55.5)).toBe(55.5);
    await network.ask('report', { node: 2, cc: 'meter', type: 1, scale: 0, value: 2.25 });
    expect(await untilValue(2, 'meter_power', 2.25)).toBe(2.25);
    await network.ask('report', { node: 4, cc: 'sensor', type: 1, scale: 0, value: 23.4 });
    expect(await untilValue(4, 'measure_temperature', 23.4)).toBe(23.4);
    await network.ask('report', { node: 4, cc: 'battery', level: 40 });
    expect(await untilValue(4, 'measure_battery', 40)).toBe(40);
    await network.ask('report', { node: 4, cc: 'notification', ...MOTION });
    expect(await untilValue(4, 'alarm_motion', true)).toBe(true);
    await network.ask('report', { node: 4, cc: 'notification', ...MOTION_IDLE });
    expect(await untilValue(4, 'alarm_motion', false)).toBe(false);
    await network.ask('report', { node: 4, cc: 'notification', ...DOOR_OPEN });
    expect(await untilValue(4, 'alarm_contact', true)).toBe(true);
  });

  it('refuses writes the node cannot take with a clear 4xx', async () => {
    const reading = await t.call<Json>('PUT', `/devices/device/${devices[2]}/capability/measure_power`, { value: 3 });
    expect(reading.status).toBeGreaterThanOrEqual(400);
    expect(reading.status).toBeLessThan(500);
    const missing = await t.call<Json>('PUT', `/devices/device/${devices[4]}/capability/onoff`, { value: true });
    expect(missing.status).toBe(404);
  });
});
