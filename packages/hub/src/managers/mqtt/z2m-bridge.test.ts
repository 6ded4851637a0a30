import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub, type TestHub } from '../../testing/hub';
import { connectClient, MOSQUITTO_URL, testPrefix, Z2M_DEVICES } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { until } from '../../testing/until';
import { REQUEST_TIMEOUT_MS } from './z2m-bridge';
import { ZIGBEE2MQTT_DOWN } from './zigbee2mqtt';

type Json = Record<string, unknown>;

/** What zigbee2mqtt 2.x publishes, retained, on `bridge/info` (the parts the hub reads, and some it does not). */
const INFO = {
  version: '2.1.1',
  commit: '2f1c4bd',
  coordinator: { ieee_address: '0x00124b0024c2a4f1', type: 'zStack3x0', meta: { revision: 20230507 } },
  network: { channel: 15, pan_id: 6754, extended_pan_id: '0xdddddddddddddddd' },
  log_level: 'info',
  permit_join: false,
  restart_required: false,
  config: { mqtt: { base_topic: 'zigbee2mqtt' } },
};

/**
 * zigbee2mqtt's bridge topics through the HTTP API, against Mosquitto on a base topic of this file's own: its info,
 * its device events, and permit-join as a request answered on `bridge/response/permit_join` (the hub on a fake
 * clock, so the request's timeout and the end of the join window are moved to, not waited for).
 */
describe('zigbee2mqtt bridge topics and permit-join', () => {
  const base = testPrefix('z2m-bridge');
  const clock = new FakeClock();
  let t: TestHub;
  /** Plays zigbee2mqtt; answers requests as `respond` says (nothing: it does not answer). */
  let z2m: MqttClient;
  const requests: Json[] = [];
  let respond: ((request: Json) => Json) | null = null;
  const retained: string[] = [];
  const { availability, bridgeState, device } = bridgedDevices(() => t, 'homey:app:com.hearth.mqtt:zigbee2mqtt');
  const publish = (topic: string, payload: unknown, retain = false) => {
    if (retain) retained.push(topic);
    return z2m.publishAsync(`${base}/${topic}`, JSON.stringify(payload), { qos: 1, retain });
  };
  const permitJoin = (body: unknown, token?: string) => t.call<Json>('POST', '/mqtt/zigbee2mqtt/permit_join', body, token);
  const zigbee2mqtt = async (ok: (bridge: Json) => boolean) =>
    (await bridgeState((s) => s.zigbee2mqtt !== null && ok(s.zigbee2mqtt as Json))).body.zigbee2mqtt as Json;

  beforeAll(async () => {
    z2m = await connectClient(MOSQUITTO_URL);
    z2m.on('message', (_topic, payload) => {
      const request = JSON.parse(payload.toString()) as Json;
      requests.push(request);
      if (respond) void publish('bridge/response/permit_join', { ...respond(request), transaction: request.transaction });
    });
    await z2m.subscribeAsync(`${base}/bridge/request/permit_join`);
    await publish('bridge/devices', Z2M_DEVICES, true);
    t = await startTestHub({ mqtt: { url: MOSQUITTO_URL, baseTopic: base } }, { clock });
    await availability('Kettle plug', true);
  });
  afterAll(async () => {
    await t?.stop();
    // Retained messages outlive the test on a shared broker: an empty retained message deletes each.
    for (const topic of retained) await z2m?.publishAsync(`${base}/${topic}`, '', { qos: 1, retain: true });
    await z2m?.endAsync(true);
  });

  it("says nothing of zigbee2mqtt before it spoke, then reads bridge/info's version, coordinator and channel", async () => {
    expect((await t.call<Json>('GET', '/mqtt/state')).body.zigbee2mqtt).toBeNull();
    await publish('bridge/info', INFO, true);
    expect(await zigbee2mqtt((b) => b.version !== null)).toEqual({
      online: null,
      version: '2.1.1',
      coordinator: 'zStack3x0',
      channel: 15,
      permitJoin: false,
      permitJoinEnd: null,
      events: [],
    });
  });

  it("makes zigbee2mqtt's devices unavailable while its bridge/state says offline (its last will), and back", async () => {
    await publish('bridge/state', { state: 'online' }, true);
    expect(await zigbee2mqtt((b) => b.online === true)).toMatchObject({ online: true, version: '2.1.1' });
    // A device offline for its own reason keeps that reason through zigbee2mqtt's absence.
    await publish('Front door/availability', { state: 'offline' });
    await availability('Front door', false);
    await publish('bridge/state', { state: 'offline' }, true);
    expect(await availability('Living room/Lamp', false)).toMatchObject({ unavailableMessage: ZIGBEE2MQTT_DOWN });
    expect(await availability('Kettle plug', false)).toMatchObject({ unavailableMessage: ZIGBEE2MQTT_DOWN });
    expect((await device('Front door'))?.unavailableMessage).toContain('zigbee2mqtt says the device is not reachable');
    const lamp = await device('Living room/Lamp');
    const refused = await t.call<Json>('PUT', `/devices/device/${lamp?.id}/capability/onoff`, { value: true });
    expect(refused.status).toBe(503);
    expect(refused.body.error_description).toContain(ZIGBEE2MQTT_DOWN);
    // The legacy plain payload, as zigbee2mqtt 1.x without JSON availability publishes it.
    await z2m.publishAsync(`${base}/bridge/state`, 'online', { qos: 1, retain: true });
    expect(await availability('Living room/Lamp', true)).toMatchObject({ unavailableMessage: null });
    expect(await availability('Kettle plug', true)).toMatchObject({ unavailableMessage: null });
    expect((await device('Front door'))?.available).toBe(false);
    await z2m.publishAsync(`${base}/bridge/state`, 'restarting', { qos: 1 });
    await until(
      () => t.hub.context.journal.tail(10).join('\n'),
      (j) => j.includes('bridge/state: neither online nor offline'),
    );
    expect(await zigbee2mqtt(() => true)).toMatchObject({ online: true });
  });

  it('opens the network when zigbee2mqtt confirms, until the time it granted is over on the clock', async () => {
    respond = (request) => ({ data: { time: request.time }, status: 'ok' });
    const answer = await permitJoin({ time: 120 });
    expect(answer.status).toBe(200);
    const end = new Date(clock.now() + 120_000).toISOString();
    expect(answer.body).toMatchObject({ permitJoin: true, permitJoinEnd: end });
    // zigbee2mqtt 2.x reads `time`, 1.x `value`: both are sent, with a transaction id the response carries back.
    expect(requests).toEqual([{ time: 120, value: true, transaction: expect.stringMatching(/^hearth-\d+$/) }]);
    expect((await t.call<Json>('GET', '/mqtt/state')).body.zigbee2mqtt).toMatchObject({ permitJoin: true });
    await clock.advance(120_000);
    expect((await t.call<Json>('GET', '/mqtt/state')).body.zigbee2mqtt).toMatchObject({
      permitJoin: false,
      permitJoinEnd: null,
    });
    // zigbee2mqtt 1.x says how many seconds are left.
    await publish('bridge/info', { ...INFO, permit_join: true, permit_join_timeout: 30 });
    expect(await zigbee2mqtt((b) => b.permitJoin === true)).toMatchObject({
      permitJoinEnd: new Date(clock.now() + 30_000).toISOString(),
    });
    requests.length = 0;
    expect((await permitJoin({ time: 0 })).body).toMatchObject({ permitJoin: false, permitJoinEnd: null });
    expect(requests).toEqual([{ time: 0, value: false, transaction: expect.any(String) }]);
  });

  it("keeps zigbee2mqtt's device events, newest first, and removes a device that left at once", async () => {
    await publish('bridge/event', {
      type: 'device_joined',
      data: { friendly_name: '0x00158d0009abcdef', ieee_address: '0x00158d0009abcdef' },
    });
    await publish('bridge/event', {
      type: 'device_interview',
      data: { friendly_name: '0x00158d0009abcdef', status: 'successful', ieee_address: '0x00158d0009abcdef', supported: true },
    });
    await publish('bridge/event', {
      type: 'device_leave',
      data: { ieee_address: '0xa4c138f2e1d0c0b0', friendly_name: 'Kettle plug' },
    });
    await publish('bridge/event', { type: 'something_else', data: {} });
    const events = (await zigbee2mqtt((b) => (b.events as unknown[]).length === 3)).events;
    expect(events).toEqual([
      {
        type: 'device_leave',
        ieeeAddress: '0xa4c138f2e1d0c0b0',
        friendlyName: 'Kettle plug',
        status: null,
        at: expect.any(String),
      },
      {
        type: 'device_interview',
        ieeeAddress: '0x00158d0009abcdef',
        friendlyName: '0x00158d0009abcdef',
        status: 'successful',
        at: expect.any(String),
      },
      {
        type: 'device_joined',
        ieeeAddress: '0x00158d0009abcdef',
        friendlyName: '0x00158d0009abcdef',
        status: null,
        at: expect.any(String),
      },
    ]);
    expect(await availability('Kettle plug', false)).toMatchObject({
      unavailableMessage: expect.stringContaining('Removed from zigbee2mqtt'),
    });
    const journal = await until(
      () => t.hub.context.journal.tail(20).join('\n'),
      (j) => j.includes('not a device event'),
    );
    expect(journal).toContain('mqtt: zigbee2mqtt: 0x00158d0009abcdef joined');
    expect(journal).toContain('mqtt: zigbee2mqtt: 0x00158d0009abcdef interview successful');
    expect(journal).toContain('mqtt: zigbee2mqtt: Kettle plug left the network');
    expect(journal).toContain(`mqtt: ignored ${base}/bridge/event: not a device event`);
  });

  it("answers zigbee2mqtt's refusal with 502, its silence with 504 on the clock, and checks the body and scope", async () => {
    respond = () => ({ data: {}, status: 'error', error: 'Failed to connect to the adapter' });
    const refused = await permitJoin({ time: 60 });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({
      error: 'app_error',
      error_description: 'zigbee2mqtt refused: Failed to connect to the adapter',
    });
    respond = null;
    requests.length = 0;
    let answered = false;
    const silent = permitJoin({ time: 60 }).finally(() => (answered = true));
    await until(
      () => requests.length,
      (n) => n === 1,
    );
    await clock.advance(REQUEST_TIMEOUT_MS - 1);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await silent).status).toBe(504);
    expect((await silent).body).toMatchObject({
      error: 'timeout',
      error_description: 'zigbee2mqtt did not answer permit_join within 10 s',
    });
    expect((await permitJoin({ time: 255 })).status).toBe(400);
    expect((await permitJoin({ time: 'forever' })).status).toBe(400);
    expect((await permitJoin({ time: 10, device: 'x' })).status).toBe(400);
    expect((await permitJoin({ time: 10 }, t.sessionFor('owner', ['homey.system.readonly']))).status).toBe(403);
  });

  it('answers 503 while the broker is not connected', async () => {
    await t.call('PUT', '/mqtt/broker', { url: 'mqtt://127.0.0.1:1', baseTopic: base });
    await bridgeState((s) => s.state === 'disconnected');
    const answer = await permitJoin({ time: 60 });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'unavailable' });
  });
});
