import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../../testing/hub';
import { until } from '../../testing/until';
import { startZwaveTestHub } from '../../testing/zwave-hub';
import type { ZwaveMockNetwork } from '../../testing/zwave-mock';
import { ZWAVE_DRIVER_ID } from './devices';

type Json = Record<string, unknown>;
type Device = Json & { id: string; driverId: string; capabilitiesObj: Record<string, { value: unknown }> };

const APP = 'com.test.zwaveplug';
const fixture = resolve(import.meta.dirname, 'fixtures', APP);
/** Meter type 1 is electricity; scale 2 is W, 0 kWh. */
const ELECTRIC = 1;

/**
 * An app written on the public Apps SDK's Z-Wave API (fixtures/com.test.zwaveplug: a driver with `zwave` ids in its
 * app.json; a device calling `this.homey.zwave.getNode(this)` and its command classes' commands and reports),
 * installed like any app, pairs a node of zwave-js's mock network, switches it, and hears its reports.
 */
describe('the Apps SDK’s Z-Wave API, against zwave-js’s mock controller', () => {
  let network: ZwaveMockNetwork;
  let t: TestHub;
  let sessionId: string;
  let device: Device;
  let nodeId: number;

  const std = async () =>
    (await t.call<{ line: string }[]>('GET', `/devkit/std/${sessionId}`)).body.map((l) => l.line).join('\n');
  const value = async (capability: string) =>
    (await t.call<Device>('GET', `/devices/device/${device.id}`)).body.capabilitiesObj[capability]?.value;
  const untilValue = (capability: string, expected: unknown) =>
    until(
      () => value(capability),
      (v) => v === expected,
      10_000,
    );

  beforeAll(async () => {
    ({ network, t, sessionId } = await startZwaveTestHub(fixture, APP));
  }, 50_000);
  afterAll(async () => {
    await t?.stop();
    await network?.stop();
  });

  it('pairs the node as the app’s device; its onInit reads the node through getNode and GET commands', async () => {
    ({ nodeId } = await network.ask<{ nodeId: number }>('include', {
      security: 'none',
      meter: true,
      extras: true,
      config: true,
      manufacturerId: 0x7e57,
      productTypeId: 1,
      productId: 0x0001,
    }));
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: ZWAVE_DRIVER_ID });
    const added = await t.call<Device>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'zwave_include' });
    expect(added.status).toBe(200);
    device = added.body;
    expect(device.driverId).toBe(`homey:app:${APP}:plug`);
    // The driver's zwave.defaultConfiguration was set on the node before the device was made.
    expect(await network.ask('state', { node: nodeId, key: 'Configuration_value_3' })).toBe(5);
    const output = await until(std, (text) => text.includes('unsupported command'), 10_000);
    expect(output).toContain(
      `node ${nodeId} manufacturer 32343 classes COMMAND_CLASS_BASIC,COMMAND_CLASS_SWITCH_BINARY,COMMAND_CLASS_SWITCH_MULTILEVEL,COMMAND_CLASS_SENSOR_MULTILEVEL,COMMAND_CLASS_METER,COMMAND_CLASS_CONFIGURATION,COMMAND_CLASS_MANUFACTURER_SPECIFIC,COMMAND_CLASS_BATTERY,COMMAND_CLASS_VERSION`,
    );
    // METER_GET({ Properties1: { Scale: 0 } }) answered the node's kWh reading; `(Raw)` fields are Buffers.
    expect(output).toContain('meter read 1.5 kWh, raw true');
    expect(await value('meter_power')).toBe(1.5);
    expect(await value('onoff')).toBe(false);
    // A command the hub does not map rejects clearly instead of being missing.
    expect(output).toMatch(/unsupported command: not_implemented COMMAND_CLASS_METER\.METER_RESET is not offered/);
  });

  it('switches the node through SWITCH_BINARY_SET and a raw sendCommand', async () => {
    expect((await t.call('PUT', `/devices/device/${device.id}/capability/onoff`, { value: true })).status).toBe(204);
    expect(await network.ask('state', { node: nodeId, key: 'BinarySwitch_currentValue' })).toBe(true);
    expect((await t.call('PUT', `/devices/device/${device.id}/capability/onoff`, { value: false })).status).toBe(204);
    expect(await network.ask('state', { node: nodeId, key: 'BinarySwitch_currentValue' })).toBe(false);
  });

  it('the node’s own reports reach the app’s report listeners, which set the capabilities', async () => {
    await network.ask('report', { node: nodeId, cc: 'meter', type: ELECTRIC, scale: 2, value: 12.5 });
    expect(await untilValue('measure_power', 12.5)).toBe(12.5);
    await network.ask('report', { node: nodeId, cc: 'meter', type: ELECTRIC, scale: 0, value: 3.75 });
    expect(await untilValue('meter_power', 3.75)).toBe(3.75);
    await network.ask('report', { node: nodeId, cc: 'switch', value: true });
    expect(await untilValue('onoff', true)).toBe(true);
  });

  it('Basic, Multilevel Switch, Multilevel Sensor and Battery answer in the ecosystem’s fields; the rest say what is missing', async () => {
    const run = async (commandClass: string, command: string, args: Json = {}) => {
      const response = await fetch(`${t.url}/api/app/${APP}/command`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device: device.id, commandClass, command, args }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Json & { report?: Json; raw?: string[]; error?: string; message?: string };
    };
    expect((await run('COMMAND_CLASS_SWITCH_MULTILEVEL', 'SWITCH_MULTILEVEL_SET', { Value: 40 })).report).toBeNull();
    expect(await network.ask('state', { node: nodeId, key: 'MultilevelSwitch_currentValue' })).toBe(40);
    expect((await run('COMMAND_CLASS_SWITCH_MULTILEVEL', 'SWITCH_MULTILEVEL_GET')).report).toMatchObject({
      'Current Value': 40,
      'Target Value': 40,
    });
    expect((await run('COMMAND_CLASS_SWITCH_MULTILEVEL', 'SWITCH_MULTILEVEL_SET', { Value: 150 })).error).toBe(
      'invalid_parameter',
    );
    const temperature = await run('COMMAND_CLASS_SENSOR_MULTILEVEL', 'SENSOR_MULTILEVEL_GET', {
      'Sensor Type': 'Temperature (version 1)',
      Properties1: { Scale: 0 },
    });
    expect(temperature.report).toMatchObject({ 'Sensor Type': 'Temperature (version 1)', 'Sensor Value (Parsed)': 21.5 });
    const battery = await run('COMMAND_CLASS_BATTERY', 'BATTERY_GET');
    expect(battery.report).toMatchObject({ 'Battery Level': 87 });
    expect(battery.raw).toEqual(['Battery Level (Raw)']);
    expect((await run('COMMAND_CLASS_BASIC', 'BASIC_SET', { Value: 0 })).report).toBeNull();
    expect((await run('COMMAND_CLASS_BASIC', 'BASIC_GET')).report).toHaveProperty('Current Value');
    const power = await run('COMMAND_CLASS_METER', 'METER_GET', { Properties1: { Scale: 2 } });
    expect(power.report).toMatchObject({
      Properties1: { 'Meter Type': 'Electric meter' },
      Properties2: { 'Scale bits 10': 2 },
      'Meter Value (Parsed)': 42,
    });
    // A class the node lacks is absent; a command of a class the hub does not map yet says so.
    expect((await run('COMMAND_CLASS_DOOR_LOCK', 'DOOR_LOCK_GET')).missing).toBe('COMMAND_CLASS_DOOR_LOCK');
    const version = await run('COMMAND_CLASS_VERSION', 'VERSION_GET');
    expect(version).toMatchObject({ error: 'not_implemented' });
    expect(version.message).toContain('COMMAND_CLASS_VERSION.VERSION_GET is not offered');
  });
});
