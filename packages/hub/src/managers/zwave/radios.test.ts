import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

describe('radios over HTTP (Z-Wave without a stick; the other radios simulated)', () => {
  let t: TestHub;

  async function pair(driverId: string, event: string, data?: unknown): Promise<Json & { id: string; data: Json }> {
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId });
    const found = await t.call<Json>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event, data });
    const candidate = Array.isArray(found.body) ? found.body[0] : found.body;
    return (await t.call<Json & { id: string; data: Json }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate))
      .body;
  }

  beforeAll(async () => {
    t = await startTestHub();
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
  });
  afterAll(async () => {
    await t.stop();
  });

  it('Z-Wave without a stick: no controller, said clearly; options and the log still work', async () => {
    const state = await t.call<Json>('GET', '/zwave/state');
    expect(state.body).toMatchObject({
      region: 'EU',
      regionOverride: null,
      controller: { port: null, ready: false },
      homeId: null,
      controllerNodeId: null,
      nodes: [],
    });
    expect(String((state.body.controller as Json).failure)).toContain('HUB_ZWAVE_PORT');
    for (const body of [{ command: 'getNodes' }, { command: 'ping', opts: { nodeId: 2 } }, { command: 'heal' }]) {
      const refused = await t.call<Json>('POST', '/zwave/command', body);
      expect(refused.status, body.command).toBe(409);
      expect(refused.body.error, body.command).toBe('no_controller');
      expect(refused.body.error_description, body.command).toContain('no Z-Wave controller');
    }
    expect((await t.call('POST', '/zwave/command', { command: 'explode' })).status).toBe(400);
    expect((await t.call('PUT', '/zwave/option/regionOverride', { value: 'US' })).body).toEqual({ value: 'US' });
    expect((await t.call('PUT', '/zwave/option/regionOverride', { value: 'XX' })).status).toBe(400);
    expect((await t.call<Json>('GET', '/zwave/state')).body).toMatchObject({ region: 'US', regionOverride: 'US' });
    expect((await t.call('PUT', '/zwave/log', { enabled: true })).body).toEqual({ enabled: true });
    await t.call('POST', '/zwave/command', { command: 'heal' });
    const log = await t.call<{ enabled: boolean; entries: { line: string }[] }>('GET', '/zwave/log');
    expect(log.body.entries.at(-1)?.line).toContain('heal');
    // The virtual devices app's Z-Wave plug is its own stand-in: it numbers its nodes without a controller, and says so.
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: 'homey:app:com.hearth.virtual:zwave',
    });
    const found = await t.call<Json>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'zwave_include' });
    expect(found.body).toMatchObject({ data: { nodeId: 2, standIn: true } });
    expect(String((found.body.store as Json).standIn)).toContain('no Z-Wave controller');
    const plug = await pair('homey:app:com.hearth.virtual:zwave', 'zwave_include');
    expect(plug.data).toMatchObject({ nodeId: 3, standIn: true });
    await t.call('DELETE', `/devices/device/${plug.id}`);
    const second = await pair('homey:app:com.hearth.virtual:zwave', 'zwave_include');
    expect(second.data.nodeId).toBe(4);
    // The generic driver and apps' Z-Wave drivers need the controller, and say it is missing.
    const generic = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: 'homey:app:com.hearth.virtual:zwavenode',
    });
    const refused = await t.call<Json>('POST', `/drivers/pairsession/${generic.body.id}/emit`, { event: 'zwave_include' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('no_controller');
  });

  it('Zigbee: nodes, permit join, channel', async () => {
    const light = await pair('homey:app:com.hearth.virtual:zigbee', 'zigbee_join');
    const nodes = await t.call<Json[]>('POST', '/zigbee/command', { command: 'getNodes' });
    expect(nodes.body).toEqual([
      expect.objectContaining({ deviceId: light.id, ieeeAddress: light.data.ieeeAddress, type: 'router' }),
    ]);
    expect(
      (await t.call('POST', '/zigbee/command', { command: 'ping', opts: { ieeeAddress: '00:00:00:00:00:00:00:00' } })).status,
    ).toBe(404);
    expect(
      (await t.call<Json>('POST', '/zigbee/command', { command: 'permitJoin', opts: { duration: 30 } })).body.permitJoinUntil,
    ).toBeTruthy();
    expect((await t.call('POST', '/zigbee/command', { command: 'setChannel', opts: { channel: 30 } })).status).toBe(400);
    expect((await t.call<Json>('POST', '/zigbee/command', { command: 'setChannel', opts: { channel: 20 } })).body.channel).toBe(
      20,
    );
    expect((await t.call<Json>('GET', '/zigbee/state')).body).toMatchObject({ channel: 20, nodes: 1 });
  });

  it('BLE: discovery, then connecting to what was discovered', async () => {
    expect((await t.call('POST', '/ble/command', { command: 'connect', opts: { uuid: 'c0ffee000001' } })).status).toBe(404);
    const found = await t.call<Json[]>('POST', '/ble/command', { command: 'discover' });
    expect(found.body.length).toBeGreaterThan(0);
    expect((await t.call('POST', '/ble/command', { command: 'connect', opts: { uuid: 'c0ffee000001' } })).status).toBe(409);
    expect((await t.call<Json>('GET', '/ble/state')).body).toMatchObject({ discovered: found.body.length });
  });

  it('433 MHz and infrared: a recorded signal can be replayed; Pronto hex is checked', async () => {
    const recorded = await t.call<{ frequency: string; data: number[] }>('POST', '/rf/record', {
      frequency: '433',
      timeout: 5000,
    });
    expect(recorded.body.data.length).toBe(49);
    const replay = await t.call<Json>('POST', '/rf/replay', { frequency: '433', data: recorded.body.data });
    expect(replay.body).toMatchObject({ frequency: '433', pulses: 49, matchesRecording: true });
    expect((await t.call<Json>('POST', '/rf/868/emulate', [500, 500, 1500])).body).toMatchObject({
      frequency: '868',
      matchesRecording: false,
    });
    expect((await t.call('POST', '/rf/replay', { frequency: '433', data: [] })).status).toBe(400);
    expect((await t.call('POST', '/rf/replay', { frequency: '915', data: [1] })).status).toBe(400);
    expect((await t.call('POST', '/rf/replay', { frequency: '433', data: Array(200).fill(100_000) })).status).toBe(400);
    const config = await t.call<Json>('POST', '/rf/mhz433/config', { modulation: 'FSK', baudrate: 4800 });
    expect(config.body).toMatchObject({ modulation: 'FSK', baudrate: 4800 });
    expect((await t.call('POST', '/rf/mhz433/config', { power: 40 })).status).toBe(400);
    const pronto = '0000 006D 0002 0000 0157 00AB 0015 0040';
    const ir = await t.call<Json>('POST', '/rf/ir/prontohex', { payload: pronto, repetitions: 2 });
    expect(ir.body).toMatchObject({ frequency: 'ir', pulses: 4, repetitions: 2 });
    expect(Math.abs(Number(ir.body.carrier) - 38_000)).toBeLessThan(500);
    expect(
      (await t.call<Json>('POST', '/rf/ir/prontohex', { payload: '0000 006D 0003 0000 0157 00AB' })).body.error_description,
    ).toContain('payload');
    expect((await t.call<Json>('GET', '/rf/state')).body).toMatchObject({ transmissions: 3 });
  });

  it('bridges pair once; coprocessor debug is private', async () => {
    const bridge = await t.call<Json>('POST', '/coprocessor/bridge', { serialHash: 'a1b2c3d4e5f60718' });
    expect(bridge.body).toMatchObject({ serialHash: 'a1b2c3d4e5f60718', state: 'connected' });
    expect((await t.call('POST', '/coprocessor/bridge', { serialHash: 'A1B2C3D4E5F60718' })).status).toBe(409);
    expect((await t.call('POST', '/coprocessor/bridge', { serialHash: 'not-hex' })).status).toBe(400);
    expect((await t.call<Json[]>('GET', '/coprocessor/bridge')).body).toHaveLength(1);
    expect((await t.call('PUT', '/coprocessor/debug', { enabled: true })).status).toBe(403);
  });

  it("Matter and Thread: the simulated Thread thermostat is a Thread child, never a node of the hub's Matter fabric", async () => {
    const thermostat = await pair('homey:app:com.hearth.virtual:matter', 'matter_code', { code: '34970112332' });
    // Matter nodes are only what the hub's matter.js controller commissioned (matter.test.ts): a stand-in is none.
    expect((await t.call<Json[]>('GET', '/matter/nodes')).body).toEqual([]);
    const topology = await t.call<{ nodes: Json[] }>('GET', '/thread/topology');
    expect(topology.body.nodes).toEqual([expect.objectContaining({ deviceId: thermostat.id })]);
    expect((await t.call('GET', '/thread/active-dataset')).status).toBe(403);
    expect((await t.call('PUT', '/matter/option/paaSettings', { value: { source: 'dcl' } })).body).toEqual({
      value: { source: 'dcl' },
    });
  });

  it('answers GET /state of every manager of the device runtime, and keeps private calls private', async () => {
    for (const manager of [
      'apps',
      'drivers',
      'devices',
      'insights',
      'energy',
      'images',
      'devkit',
      'zwave',
      'zigbee',
      'ble',
      'rf',
      'coprocessor',
      'matter',
      'thread',
    ]) {
      const state = await t.call<Json>('GET', `/${manager}/state`);
      expect(state.status, manager).toBe(200);
      expect(typeof state.body, manager).toBe('object');
    }
    expect((await t.call('POST', '/thread/active-dataset', { tlvHex: '0e080000000000010000' })).status).toBe(403);
    expect((await t.call('GET', '/thread/state', undefined, null)).status).toBe(401);
  });
});
