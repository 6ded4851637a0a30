import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { connectClient, startBroker, type TestBroker, Z2M_DEVICES } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

const BASE = 'zigbee2mqtt';

describe('the MQTT bridge with zigbee2mqtt, against a real broker', () => {
  let broker: TestBroker;
  let t: TestHub;
  /** Plays zigbee2mqtt: publishes its topics and records what the hub sends to `<name>/set`. */
  let z2m: MqttClient;
  const sets: { topic: string; payload: Json }[] = [];

  const {
    list: devices,
    device,
    value,
    settles,
    availability,
    bridgeState,
  } = bridgedDevices(() => t, 'homey:app:com.hearth.mqtt:');
  const publish = (topic: string, payload: unknown, retain = false) =>
    z2m.publishAsync(`${BASE}/${topic}`, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1, retain });

  beforeAll(async () => {
    broker = await startBroker();
    z2m = await connectClient(broker.url);
    z2m.on('message', (topic, payload) => {
      if (!topic.endsWith('/set')) return;
      sets.push({ topic, payload: JSON.parse(payload.toString()) });
      // As zigbee2mqtt does: the device's new state, which confirms the write.
      void z2m.publishAsync(topic.slice(0, -'/set'.length), payload, { qos: 1 });
    });
    await z2m.subscribeAsync(`${BASE}/+/set`);
    await z2m.subscribeAsync(`${BASE}/+/+/set`);
    await publish('bridge/devices', Z2M_DEVICES, true);
    await publish('Kettle plug', { state: 'OFF', power: 0, current: 0, voltage: 231, energy: 12.4, linkquality: 120 }, true);
    t = await startTestHub({ mqtt: { url: broker.url } });
  });
  afterAll(async () => {
    await t?.stop();
    await z2m?.endAsync(true);
    await broker?.close();
  });

  it('connects to the broker from the configuration and says so', async () => {
    const state = await bridgeState((s) => s.state === 'connected');
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      state: 'connected',
      url: broker.url,
      source: 'environment',
      baseTopic: 'zigbee2mqtt',
      lastError: null,
      nextAttemptAt: null,
    });
    expect(String(state.body.clientId)).toMatch(/^hearth-[0-9a-f]{24}$/);
    expect((await t.call('GET', '/mqtt/state', undefined, null)).status).toBe(401);
  });

  it('makes one hub device per Zigbee device from its exposes, and reads retained state', async () => {
    const all = await until(devices, (list) => list.filter((d) => d.driverId.includes('com.hearth.mqtt')).length === 4);
    const made = all.filter((d) => d.driverId === 'homey:app:com.hearth.mqtt:zigbee2mqtt');
    expect(made.map((d) => d.name).sort()).toEqual(['Bedside remote', 'Front door', 'Kettle plug', 'Living room/Lamp']);
    const lamp = made.find((d) => d.name === 'Living room/Lamp');
    expect(lamp).toMatchObject({
      class: 'light',
      capabilities: ['onoff', 'dim', 'light_temperature', 'light_hue', 'light_saturation'],
      available: true,
    });
    const plug = made.find((d) => d.name === 'Kettle plug');
    expect(plug?.class).toBe('socket');
    expect(plug?.capabilities).toEqual(['onoff', 'measure_power', 'measure_current', 'measure_voltage', 'meter_power']);
    const door = made.find((d) => d.name === 'Front door');
    expect(door?.class).toBe('sensor');
    expect(door?.capabilities).toEqual(['alarm_contact', 'measure_battery', 'measure_voltage']);
    const remote = made.find((d) => d.name === 'Bedside remote');
    expect(remote).toMatchObject({ class: 'remote', capabilities: ['measure_battery'] });
    // Nothing reported yet: no simulated placeholder values on a real device.
    expect(lamp?.capabilitiesObj.onoff?.value).toBeNull();
    expect(door?.capabilitiesObj.measure_battery?.value).toBeNull();
    // The plug's retained state was there before the hub connected.
    expect(await settles('Kettle plug', 'meter_power', 12.4)).toBe(12.4);
    expect(await value('Kettle plug', 'measure_voltage')).toBe(231);
    expect((await t.call<Json>('GET', '/mqtt/state')).body.devices).toBe(4);
  });

  it('follows state messages: on/off, brightness and colour temperature scaled, contact inverted, mV to V', async () => {
    await publish('Living room/Lamp', { state: 'ON', brightness: 127, color_temp: 303, linkquality: 90 });
    expect(await settles('Living room/Lamp', 'dim', 0.5)).toBe(0.5);
    expect(await value('Living room/Lamp', 'onoff')).toBe(true);
    expect(await value('Living room/Lamp', 'light_temperature')).toBe(0.5);
    await publish('Front door', { contact: false, battery: 91, voltage: 3005 });
    expect(await settles('Front door', 'alarm_contact', true)).toBe(true);
    expect(await value('Front door', 'measure_battery')).toBe(91);
    expect(await value('Front door', 'measure_voltage')).toBe(3.005);
    await publish('Front door', { contact: true });
    expect(await settles('Front door', 'alarm_contact', false)).toBe(false);
    await publish('Kettle plug', { state: 'ON', power: 1840.5 });
    expect(await settles('Kettle plug', 'measure_power', 1840.5)).toBe(1840.5);
  });

  it('writes through the device-control path to <friendly_name>/set with zigbee2mqtt JSON', async () => {
    const lamp = await device('Living room/Lamp');
    const put = (capabilityId: string, body: unknown) =>
      t.call('PUT', `/devices/device/${lamp?.id}/capability/${capabilityId}`, body);
    sets.length = 0;
    expect((await put('dim', { value: 1 })).status).toBe(204);
    expect((await put('onoff', { value: false })).status).toBe(204);
    expect((await put('light_temperature', { value: 0 })).status).toBe(204);
    await until(
      () => sets.length,
      (n) => n >= 3,
    );
    expect(sets).toEqual([
      { topic: `${BASE}/Living room/Lamp/set`, payload: { brightness: 254 } },
      { topic: `${BASE}/Living room/Lamp/set`, payload: { state: 'OFF' } },
      { topic: `${BASE}/Living room/Lamp/set`, payload: { color_temp: 153 } },
    ]);
    // Sensors are not written; a value outside the capability never reaches the broker.
    const door = await device('Front door');
    expect((await t.call('PUT', `/devices/device/${door?.id}/capability/alarm_contact`, { value: true })).status).toBe(400);
    expect((await put('dim', { value: 7 })).status).toBe(400);
    expect(sets).toHaveLength(3);
  });

  it('ignores malformed payloads, changing nothing, and logs them with their topic', async () => {
    const before = await device('Living room/Lamp');
    await publish('Living room/Lamp', 'not json {');
    await publish('Living room/Lamp', [1, 2, 3]);
    await publish('Living room/Lamp', { state: 'MAYBE', brightness: 'bright', color_temp: null });
    await publish('Living room/Lamp', { state: 'x'.repeat(1024 * 1024) });
    await publish('bridge/devices', { not: 'a list' });
    // A message published after them is handled, so they were all read before it.
    await publish('Kettle plug', { power: 3 });
    await settles('Kettle plug', 'measure_power', 3);
    const after = await device('Living room/Lamp');
    expect(after?.capabilitiesObj).toEqual(before?.capabilitiesObj);
    expect((await devices()).filter((d) => d.driverId.includes('com.hearth.mqtt'))).toHaveLength(4);
    const journal = t.hub.context.journal.tail(50).join('\n');
    expect(journal).toContain('mqtt: ignored zigbee2mqtt/Living room/Lamp: not JSON');
    expect(journal).toContain('mqtt: ignored zigbee2mqtt/Living room/Lamp: not a JSON object');
    expect(journal).toContain('mqtt: ignored zigbee2mqtt/Living room/Lamp state: "MAYBE" is neither on nor off');
    expect(journal).toContain('mqtt: ignored zigbee2mqtt/Living room/Lamp brightness: expected a number, got string');
    expect(journal).toMatch(/mqtt: ignored zigbee2mqtt\/Living room\/Lamp: \d+ bytes is more than 65536/);
    expect(journal).toContain('mqtt: ignored zigbee2mqtt/bridge/devices: not a list of devices');
  });

  it('follows availability, and refuses writes to an offline device', async () => {
    const plug = await device('Kettle plug');
    await publish('Kettle plug/availability', { state: 'offline' });
    expect(await availability('Kettle plug', false)).toMatchObject({ available: false });
    const refused = await t.call<Json>('PUT', `/devices/device/${plug?.id}/capability/onoff`, { value: false });
    expect(refused.status).toBe(503);
    await publish('Kettle plug/availability', 'online');
    expect(await availability('Kettle plug', true)).toMatchObject({ available: true });
    await publish('Kettle plug/availability', 'perhaps');
    const logged = await until(
      () => t.hub.context.journal.tail(5).join('\n'),
      (journal) => journal.includes('Kettle plug/availability: availability'),
    );
    expect(logged).toContain('mqtt: ignored zigbee2mqtt/Kettle plug/availability: availability is neither online nor offline');
    expect((await device('Kettle plug'))?.available).toBe(true);
  });

  it('a retained state delivered again (reconnecting) stores and announces nothing', async () => {
    // zigbee2mqtt retains a device's state when configured to: these equal what the hub holds.
    await publish('Front door', { contact: true, battery: 91, voltage: 3005 }, true);
    await publish('Kettle plug', { state: 'ON', power: 3, current: 0, voltage: 231, energy: 12.4 }, true);
    await settles('Front door', 'alarm_contact', false);
    const announced: string[] = [];
    const off = t.hub.context.bus.on('device.capability', 'test', (change) => announced.push(change.capabilityId));
    // Storing the broker again reconnects: the broker sends bridge/devices and the retained states once more.
    const state = await t.call<Json>('PUT', '/mqtt/broker', { url: broker.url });
    expect(state.status).toBe(200);
    await bridgeState((s) => s.state === 'connected' && s.source === 'setting');
    await publish('Kettle plug', { power: 4 });
    await settles('Kettle plug', 'measure_power', 4);
    off();
    expect(announced).toEqual(['measure_power']);
    expect((await devices()).filter((d) => d.driverId.includes('com.hearth.mqtt'))).toHaveLength(4);
  });

  it("a remote's action fires the bridge's flow trigger, for its device and action, never from a retained message", async () => {
    const remote = await device('Bedside remote');
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Presses', type: 'number', value: 0 });
    const counter = { id: variable.body.id, name: 'Presses' };
    const flow = await t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', {
      name: 'Count the remote',
      trigger: {
        uri: 'homey:app:com.hearth.mqtt',
        id: 'action',
        args: { device: { id: remote?.id, name: remote?.name }, action: 'on' },
      },
      conditions: [],
      actions: [{ uri: 'homey:manager:logic', id: 'variable_increment', args: { variable: counter, amount: 1 } }],
    });
    expect(flow.status).toBeLessThan(300);
    expect(flow.body.broken).toBe(false);
    const presses = async () => (await t.call<{ value: number }>('GET', `/logic/variable/${variable.body.id}`)).body.value;
    await publish('Bedside remote', { action: 'on', battery: 80 });
    expect(await until(presses, (n) => n === 1)).toBe(1);
    // Another action, and the same action of another device, start nothing.
    await publish('Bedside remote', { action: 'off' });
    await publish('Kettle plug', { action: 'on' });
    // zigbee2mqtt kept the last press (retain: true); reconnecting delivers it again, as retained.
    await publish('Bedside remote', { action: 'on', battery: 80 }, true);
    expect(await until(presses, (n) => n === 2)).toBe(2);
    await t.call('PUT', '/mqtt/broker', { url: broker.url, clientId: 'hearth-remote-test' });
    await bridgeState((s) => s.state === 'connected' && s.clientId === 'hearth-remote-test');
    await publish('Front door', { battery: 77 });
    await settles('Front door', 'measure_battery', 77);
    expect(await presses()).toBe(2);
    await publish('Bedside remote', '', true);
  });

  it('follows renames and removals in bridge/devices, and a removed device that comes back', async () => {
    const plug = await device('Kettle plug');
    const renamed = Z2M_DEVICES.filter((d) => d.friendly_name !== 'Front door').map((d) =>
      d.friendly_name === 'Kettle plug' ? { ...d, friendly_name: 'Kitchen/Kettle' } : d,
    );
    await publish('bridge/devices', renamed, true);
    const gone = await availability('Front door', false);
    expect(gone).toMatchObject({ available: false, unavailableMessage: expect.stringContaining('Removed from zigbee2mqtt') });
    await publish('Kitchen/Kettle', { power: 55 });
    expect(await settles('Kettle plug', 'measure_power', 55)).toBe(55);
    sets.length = 0;
    expect((await t.call('PUT', `/devices/device/${plug?.id}/capability/onoff`, { value: false })).status).toBe(204);
    await until(
      () => sets.length,
      (n) => n > 0,
    );
    expect(sets).toEqual([{ topic: `${BASE}/Kitchen/Kettle/set`, payload: { state: 'OFF' } }]);
    // The old name is nobody's now; the removed device's state topic is not followed.
    await publish('Kettle plug', { power: 66 });
    await publish('Front door', { contact: false });
    await publish('Kitchen/Kettle', { power: 56 });
    await settles('Kettle plug', 'measure_power', 56);
    expect(await value('Front door', 'alarm_contact')).toBe(false);
    await publish('bridge/devices', Z2M_DEVICES, true);
    expect(await availability('Front door', true)).toMatchObject({ available: true });
    await publish('Kettle plug', { power: 57 });
    expect(await settles('Kettle plug', 'measure_power', 57)).toBe(57);
    expect((await devices()).filter((d) => d.driverId.includes('com.hearth.mqtt'))).toHaveLength(4);
  });

  it('checks the broker setting and who may change it', async () => {
    expect((await t.call<Json>('PUT', '/mqtt/broker', { url: 'http://example.test' })).status).toBe(400);
    expect((await t.call<Json>('PUT', '/mqtt/broker', { url: broker.url, extra: 1 })).status).toBe(400);
    expect((await t.call<Json>('PUT', '/mqtt/broker', { url: broker.url, baseTopic: 'z2m/#' })).status).toBe(400);
    const reader = t.sessionFor('owner', ['homey.system.readonly']);
    expect((await t.call('GET', '/mqtt/state', undefined, reader)).status).toBe(200);
    expect((await t.call('PUT', '/mqtt/broker', { url: broker.url }, reader)).status).toBe(403);
    // The password is stored, never answered.
    const withPassword = await t.call<Json>('PUT', '/mqtt/broker', {
      url: broker.url,
      username: 'hub',
      password: 'secret-word',
    });
    expect(withPassword.status).toBe(200);
    expect(JSON.stringify(withPassword.body)).not.toContain('secret-word');
    expect(withPassword.body).toMatchObject({ username: 'hub', source: 'setting' });
  });

  it('reconnects with back-off when the broker goes away and comes back', async () => {
    await bridgeState((s) => s.state === 'connected');
    await z2m.endAsync(true);
    await broker.close();
    const down = await bridgeState((s) => s.state === 'disconnected' && s.nextAttemptAt !== null);
    expect(down.body).toMatchObject({ state: 'disconnected' });
    expect(typeof down.body.lastError).toBe('string');
    const plug = await device('Kettle plug');
    expect((await t.call('PUT', `/devices/device/${plug?.id}/capability/onoff`, { value: true })).status).toBe(503);
    await broker.restart();
    const back = await bridgeState((s) => s.state === 'connected', 15_000);
    expect(back.body).toMatchObject({ state: 'connected', lastError: null });
    // The bridge subscribed again: a state published now is followed.
    z2m = await connectClient(broker.url);
    await publish('Front door', { contact: false });
    expect(await settles('Front door', 'alarm_contact', true)).toBe(true);
  });
});
