import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { connectClient, MOSQUITTO_URL, testPrefix } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { until } from '../../testing/until';
import { HOMIE_DRIVER_ID } from './homie';

/**
 * What a Homie 4.0 dimmer with a climate sensor publishes (retained), in the order the convention gives: `$state`
 * init, the device's and its nodes' attributes and the values, then `$state` ready.
 */
const DIMMER: [string, string][] = [
  ['$homie', '4.0.0'],
  ['$state', 'init'],
  ['$name', 'Hall dimmer'],
  ['$nodes', 'light,climate'],
  ['light/$name', 'Light'],
  ['light/$properties', 'power,brightness'],
  ['light/power/$name', 'Power'],
  ['light/power/$datatype', 'boolean'],
  ['light/power/$settable', 'true'],
  ['light/brightness/$name', 'Brightness'],
  ['light/brightness/$datatype', 'integer'],
  ['light/brightness/$settable', 'true'],
  ['light/brightness/$unit', '%'],
  ['light/brightness/$format', '0:100'],
  ['climate/$name', 'Climate'],
  ['climate/$properties', 'temperature,humidity,mode'],
  ['climate/temperature/$datatype', 'float'],
  ['climate/temperature/$unit', '°F'],
  ['climate/humidity/$datatype', 'float'],
  ['climate/humidity/$unit', '%'],
  ['climate/mode/$datatype', 'enum'],
  ['climate/mode/$format', 'eco,comfort'],
  ['light/power', 'true'],
  ['light/brightness', '40'],
  ['climate/temperature', '68'],
  ['climate/humidity', '51.5'],
  ['$state', 'ready'],
];

/**
 * Homie devices through the HTTP API against Mosquitto, under a Homie root topic of this file's own: a device that
 * says it is ready becomes a hub device from its properties, writes go to `<property>/set` and are confirmed by the
 * value the device publishes back, `$state` says whether it is available, and wrong values change nothing.
 */
describe('Homie devices', () => {
  const root = testPrefix('homie');
  let t: TestHub;
  /** Plays the Homie device: publishes its topics, takes the commands on `/set` and publishes the value it took. */
  let device: MqttClient;
  const commands: [string, string][] = [];
  const { device: hubDevice, value, settles, availability } = bridgedDevices(() => t, HOMIE_DRIVER_ID);
  const publish = (path: string, payload: string) =>
    device.publishAsync(`${root}/hall-dimmer/${path}`, payload, { qos: 1, retain: true });

  beforeAll(async () => {
    device = await connectClient(MOSQUITTO_URL);
    await device.subscribeAsync(`${root}/hall-dimmer/+/+/set`);
    device.on('message', (topic, payload) => {
      const path = topic.slice(`${root}/hall-dimmer/`.length, -'/set'.length);
      commands.push([path, payload.toString()]);
      // The dimmer takes whole percent only, and says what it took.
      const taken = path === 'light/brightness' ? String(Math.round(Number(payload.toString()))) : payload.toString();
      void publish(path, taken);
    });
    for (const [path, payload] of DIMMER) await publish(path, payload);
    t = await startTestHub({
      mqtt: { url: MOSQUITTO_URL, homiePrefix: root, baseTopic: `${root}-z2m`, discoveryPrefix: `${root}-ha` },
    });
  });
  afterAll(async () => {
    await t?.stop();
    for (const [path] of DIMMER) await publish(path, '');
    await device?.endAsync();
  });

  it('makes one hub device of a ready Homie device, its properties as capabilities, with their values', async () => {
    const dimmer = await until(
      () => hubDevice('Hall dimmer'),
      (d) => d?.capabilitiesObj.measure_humidity?.value === 51.5,
    );
    expect(dimmer).toMatchObject({ class: 'light', available: true });
    // The enum (mode) maps to no capability and is left out.
    expect(dimmer?.capabilities).toEqual(['onoff', 'dim', 'measure_temperature', 'measure_humidity']);
    expect(dimmer?.capabilitiesObj).toMatchObject({
      onoff: { value: true, setable: true },
      dim: { value: 0.4, setable: true },
      // 68 °F is 20 °C.
      measure_temperature: { value: 20 },
    });
  });

  it('writes go to <property>/set and are confirmed by the value the device publishes back', async () => {
    const id = (await hubDevice('Hall dimmer'))?.id;
    expect((await t.call('PUT', `/devices/device/${id}/capability/dim`, { value: 0.33 })).status).toBe(204);
    expect(commands.at(-1)).toEqual(['light/brightness', '33']);
    expect(await value('Hall dimmer', 'dim')).toBe(0.33);
    expect((await t.call('PUT', `/devices/device/${id}/capability/onoff`, { value: false })).status).toBe(204);
    expect(commands.at(-1)).toEqual(['light/power', 'false']);
    expect(await value('Hall dimmer', 'onoff')).toBe(false);
    // A read-only property takes no writes.
    expect((await t.call('PUT', `/devices/device/${id}/capability/measure_temperature`, { value: 30 })).status).toBe(400);
  });

  it('follows the device: new values, $state lost and ready again; a value of the wrong type changes nothing', async () => {
    await publish('climate/temperature', '77');
    expect(await settles('Hall dimmer', 'measure_temperature', 25)).toBe(25);
    await publish('climate/temperature', 'hot');
    await until(
      () => t.hub.context.journal.tail(20).join('\n'),
      (journal) => journal.includes('climate/temperature: "hot" is not a number'),
    );
    expect(await value('Hall dimmer', 'measure_temperature')).toBe(25);
    await publish('$state', 'lost');
    expect((await availability('Hall dimmer', false))?.unavailableMessage).toContain('lost');
    await publish('$state', 'ready');
    expect((await availability('Hall dimmer', true))?.unavailableMessage).toBeNull();
  });
});
