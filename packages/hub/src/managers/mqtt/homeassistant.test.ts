import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESPHOME, SHELLY, SHELLY_STATUS, TASMOTA, TASMOTA_SENSOR } from '../../testing/ha-discovery';
import { startTestHub, type TestHub } from '../../testing/hub';
import { connectClient, startBroker, type TestBroker } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { until } from '../../testing/until';

const HA_DRIVER = 'homey:app:com.hearth.mqtt:homeassistant';

describe('Home Assistant MQTT discovery, against a real broker', () => {
  let broker: TestBroker;
  let t: TestHub;
  /** Plays the devices: publishes their discovery configs and states, records the commands the hub sends. */
  let firmware: MqttClient;
  const commands: { topic: string; payload: string }[] = [];

  const { list: bridged, device, value, settles, availability, bridgeState } = bridgedDevices(() => t, HA_DRIVER);
  const publish = (topic: string, payload: unknown, retain = false) =>
    firmware.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1, retain });
  const announce = async (configs: Record<string, unknown>) => {
    for (const [key, config] of Object.entries(configs)) await publish(`homeassistant/${key}/config`, config, true);
  };
  const put = async (name: string, capabilityId: string, body: unknown) =>
    t.call('PUT', `/devices/device/${(await device(name))?.id}/capability/${capabilityId}`, body);
  const sent = async (count: number) => {
    await until(
      () => commands.length,
      (n) => n >= count,
    );
    return commands.splice(0);
  };

  /** The ESPHome lamp's state, as the firmware keeps it. */
  let lamp: Record<string, unknown> = {};
  /** As the firmwares do: a command is answered with the new state on the entity's state topic, which confirms it. */
  const answer = (topic: string, payload: string) => {
    if (topic === 'kitchen_plug/cmnd/POWER') void publish('kitchen_plug/stat/RESULT', { POWER: payload });
    if (topic === 'shellyplus1pm-a8032ab12345/command/switch:0')
      void publish('shellyplus1pm-a8032ab12345/status/switch:0', { ...SHELLY_STATUS, output: payload === 'on' });
    if (topic === 'esp-desk/light/desk_lamp/command') {
      lamp = { ...lamp, ...JSON.parse(payload) };
      void publish('esp-desk/light/desk_lamp/state', lamp);
    }
    if (topic === 'esp-desk/cover/desk_blind/position/command') void publish('esp-desk/cover/desk_blind/position/state', payload);
  };

  beforeAll(async () => {
    broker = await startBroker();
    firmware = await connectClient(broker.url);
    firmware.on('message', (topic, payload) => {
      commands.push({ topic, payload: payload.toString() });
      answer(topic, payload.toString());
    });
    await firmware.subscribeAsync([
      'kitchen_plug/cmnd/#',
      'shellyplus1pm-a8032ab12345/command/#',
      'esp-desk/+/+/command',
      'esp-desk/+/+/+/command',
    ]);
    // Tasmota announced itself before the hub started: its configs and LWT are retained.
    await announce(TASMOTA);
    await publish('kitchen_plug/tele/LWT', 'Online', true);
    t = await startTestHub({ mqtt: { url: broker.url } });
  });
  afterAll(async () => {
    await t?.stop();
    await firmware?.endAsync(true);
    await broker?.close();
  });

  it("groups Tasmota's entities into one hub device by device.identifiers, with its abbreviations and ~ expanded", async () => {
    const plug = await until(
      () => device('Kitchen plug'),
      (d) => d?.capabilities.length === 4,
    );
    expect(plug).toMatchObject({
      class: 'socket',
      available: true,
      capabilities: ['measure_temperature', 'measure_power', 'meter_power', 'onoff'],
    });
    expect(plug?.capabilitiesObj.onoff?.setable).toBe(true);
    expect(plug?.capabilitiesObj.measure_power?.setable).toBe(false);
    expect(await bridged()).toHaveLength(1);
    await publish('kitchen_plug/tele/SENSOR', TASMOTA_SENSOR);
    // °F converted to °C; the ENERGY block read through the bracketed template.
    expect(await settles('Kitchen plug', 'measure_temperature', 21.5)).toBe(21.5);
    expect(await value('Kitchen plug', 'measure_power')).toBe(45);
    expect(await value('Kitchen plug', 'meter_power')).toBe(12.345);
    await publish('kitchen_plug/stat/RESULT', { POWER: 'ON' });
    expect(await settles('Kitchen plug', 'onoff', true)).toBe(true);
  });

  it('writes a switch to its command topic with its payloads', async () => {
    expect((await put('Kitchen plug', 'onoff', { value: false })).status).toBe(204);
    expect(await sent(1)).toEqual([{ topic: 'kitchen_plug/cmnd/POWER', payload: 'OFF' }]);
    expect((await put('Kitchen plug', 'measure_power', { value: 3 })).status).toBe(400);
  });

  it("follows the availability topic with the config's own payloads", async () => {
    await publish('kitchen_plug/tele/LWT', 'Offline', true);
    const offline = await availability('Kitchen plug', false);
    expect(offline?.unavailableMessage).toContain('availability topic');
    expect((await put('Kitchen plug', 'onoff', { value: true })).status).toBe(503);
    await publish('kitchen_plug/tele/LWT', 'Online', true);
    expect(await availability('Kitchen plug', true)).toMatchObject({ available: true });
  });

  it("reads a Shelly Gen2 plug's status JSON through its conditional and scaled templates", async () => {
    await announce(SHELLY);
    await publish('shellyplus1pm-a8032ab12345/online', 'true', true);
    const shelly = await until(
      () => device('Hallway switch'),
      (d) => d?.capabilities.length === 3,
    );
    expect(shelly).toMatchObject({ class: 'socket', capabilities: ['meter_power', 'measure_power', 'onoff'] });
    await publish('shellyplus1pm-a8032ab12345/status/switch:0', SHELLY_STATUS);
    expect(await settles('Hallway switch', 'onoff', true)).toBe(true);
    expect(await value('Hallway switch', 'measure_power')).toBe(8.9);
    expect(await value('Hallway switch', 'meter_power')).toBe(6.532);
    expect((await put('Hallway switch', 'onoff', { value: false })).status).toBe(204);
    expect(await sent(1)).toEqual([{ topic: 'shellyplus1pm-a8032ab12345/command/switch:0', payload: 'off' }]);
    await publish('shellyplus1pm-a8032ab12345/online', 'false', true);
    expect(await availability('Hallway switch', false)).toMatchObject({ available: false });
    // The other device's availability is its own.
    expect((await device('Kitchen plug'))?.available).toBe(true);
  });

  it("makes ESPHome's JSON light, motion sensor, illuminance and cover one device, and writes them", async () => {
    await announce(ESPHOME);
    await publish('esp-desk/status', 'online', true);
    const esp = await until(
      () => device('esp-desk'),
      (d) => d?.capabilities.length === 8,
    );
    expect(esp?.class).toBe('light');
    expect([...(esp?.capabilities ?? [])].sort()).toEqual(
      [
        'alarm_motion',
        'dim',
        'light_hue',
        'light_saturation',
        'measure_luminance',
        'onoff',
        'windowcoverings_set',
        'windowcoverings_state',
      ].sort(),
    );
    lamp = { state: 'ON', brightness: 51, color_mode: 'rgb', color: { r: 0, g: 0, b: 255 } };
    await publish('esp-desk/light/desk_lamp/state', lamp);
    expect(await settles('esp-desk', 'dim', 0.2)).toBe(0.2);
    expect(await value('esp-desk', 'light_hue')).toBe(0.67);
    expect(await value('esp-desk', 'light_saturation')).toBe(1);
    await publish('esp-desk/binary_sensor/hall_motion/state', 'ON');
    expect(await settles('esp-desk', 'alarm_motion', true)).toBe(true);
    await publish('esp-desk/sensor/desk_illuminance/state', '312.5');
    expect(await settles('esp-desk', 'measure_luminance', 312.5)).toBe(312.5);
    await publish('esp-desk/cover/desk_blind/position/state', '40');
    await publish('esp-desk/cover/desk_blind/state', 'closing');
    expect(await settles('esp-desk', 'windowcoverings_state', 'down')).toBe('down');
    expect(await value('esp-desk', 'windowcoverings_set')).toBe(0.4);

    expect((await put('esp-desk', 'dim', { value: 1 })).status).toBe(204);
    expect((await put('esp-desk', 'light_hue', { value: 0 })).status).toBe(204);
    expect((await put('esp-desk', 'windowcoverings_set', { value: 0.75 })).status).toBe(204);
    expect((await put('esp-desk', 'windowcoverings_state', { value: 'idle' })).status).toBe(204);
    expect(
      (await sent(4)).map((c) => ({ ...c, payload: c.payload.startsWith('{') ? JSON.parse(c.payload) : c.payload })),
    ).toEqual([
      { topic: 'esp-desk/light/desk_lamp/command', payload: { state: 'ON', brightness: 255 } },
      // Hue 0 at the saturation the lamp has (1): red.
      { topic: 'esp-desk/light/desk_lamp/command', payload: { color: { r: 255, g: 0, b: 0 } } },
      { topic: 'esp-desk/cover/desk_blind/position/command', payload: '75' },
      { topic: 'esp-desk/cover/desk_blind/command', payload: 'STOP' },
    ]);
    // White has no hue: a hue written to a white lamp is confirmed by the white the lamp reports, not waited for.
    expect((await put('esp-desk', 'light_saturation', { value: 0 })).status).toBe(204);
    expect((await put('esp-desk', 'light_hue', { value: 0.5 })).status).toBe(204);
    expect((await sent(2)).map((c) => JSON.parse(c.payload))).toEqual([
      { color: { r: 255, g: 255, b: 255 } },
      { color: { r: 255, g: 255, b: 255 } },
    ]);
  });

  it('an empty config removes the entity; a device left with none stays, unavailable, until announced again', async () => {
    await publish('homeassistant/sensor/shellyplus1pm-a8032ab12345/switch_0_energy/config', '', true);
    expect(
      await until(
        () => device('Hallway switch'),
        (d) => d?.capabilities.length === 2,
      ),
    ).toMatchObject({ capabilities: ['measure_power', 'onoff'] });
    for (const key of Object.keys(SHELLY)) await publish(`homeassistant/${key}/config`, '', true);
    const gone = await until(
      () => device('Hallway switch'),
      (d) => d?.unavailableMessage?.startsWith('Removed') === true,
    );
    expect(gone?.available).toBe(false);
    await announce(SHELLY);
    expect(
      await until(
        () => device('Hallway switch'),
        (d) => d?.capabilities.length === 3 && !d.unavailableMessage?.startsWith('Removed'),
      ),
    ).toMatchObject({ capabilities: ['meter_power', 'measure_power', 'onoff'] });
    expect(await bridged()).toHaveLength(3);
  });

  it('ignores malformed configs and states, logging them with their topic', async () => {
    await publish('homeassistant/switch/bad/one/config', 'not json {');
    await publish('homeassistant/sensor/bad/two/config', { stat_t: 'bad/two', dev_cla: 'radioactivity' });
    await publish('homeassistant/alarm_control_panel/bad/three/config', { stat_t: 'bad/three' });
    await publish('kitchen_plug/tele/SENSOR', { ENERGY: { Power: 'lots' }, AM2301: { Temperature: 70.7 } });
    await publish('kitchen_plug/stat/RESULT', { POWER: 'MAYBE' });
    await publish('esp-desk/sensor/desk_illuminance/state', 'x'.repeat(100 * 1024));
    await publish('esp-desk/sensor/desk_illuminance/state', '7');
    expect(await settles('esp-desk', 'measure_luminance', 7)).toBe(7);
    expect(await bridged()).toHaveLength(3);
    expect(await value('Kitchen plug', 'measure_power')).toBe(45);
    const journal = t.hub.context.journal.tail(50).join('\n');
    expect(journal).toContain('mqtt: ignored homeassistant/switch/bad/one/config: not JSON');
    expect(journal).toContain(
      'mqtt: ignored homeassistant/sensor/bad/two/config: a sensor of device class radioactivity is not bridged',
    );
    expect(journal).toContain(
      'mqtt: ignored homeassistant/alarm_control_panel/bad/three/config: the alarm_control_panel component is not bridged',
    );
    expect(journal).toContain('mqtt: ignored kitchen_plug/tele/SENSOR measure_power: "lots" is not a number');
    expect(journal).toContain('mqtt: ignored kitchen_plug/stat/RESULT onoff: "MAYBE" is neither on (ON) nor off (OFF)');
    expect(journal).toMatch(/mqtt: ignored esp-desk\/sensor\/desk_illuminance\/state: \d+ bytes is more than 65536/);
  });

  it('after a restart of the hub, retained configs and states change nothing', async () => {
    const before = await bridged();
    const announced: string[] = [];
    await t.call('PUT', '/mqtt/broker', { url: broker.url, clientId: 'hearth-ha-again' });
    const off = t.hub.context.bus.on('device.capability', 'test', (change) => announced.push(change.capabilityId));
    await bridgeState((s) => s.state === 'connected' && s.clientId === 'hearth-ha-again');
    await publish('esp-desk/sensor/desk_illuminance/state', '8');
    await settles('esp-desk', 'measure_luminance', 8);
    off();
    expect(announced).toEqual(['measure_luminance']);
    const after = await bridged();
    expect(after.map((d) => d.capabilities)).toEqual(before.map((d) => d.capabilities));
  });
});
