import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { connectClient, MOSQUITTO_URL, testPrefix } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { until } from '../../testing/until';
import { HOMIE_DRIVER_ID } from './homie';

/** A Homie 5.0 plug with a power meter describes itself in one document, as the convention gives it. */
const DESCRIPTION = {
  homie: '5.0',
  version: 7,
  name: 'Desk plug',
  nodes: {
    relay: {
      name: 'Relay',
      properties: {
        state: { name: 'On', datatype: 'boolean', settable: true },
        level: { name: 'Brightness', datatype: 'integer', settable: true, unit: '%', format: '0:100:1' },
      },
    },
    meter: {
      name: 'Meter',
      properties: {
        power: { datatype: 'float', unit: 'W' },
        // Not settable unless it says so: a reading, not a switch.
        overload: { name: 'Overload', datatype: 'boolean' },
        mode: { datatype: 'enum', format: 'eco,boost', settable: true },
      },
    },
  },
};

/**
 * Homie 5.0 devices (`<root>/5/<device>/…`, their attributes in `$description`) through the HTTP API against
 * Mosquitto, under a Homie root topic of this file's own, beside a 4.0 device of the same id.
 */
describe('Homie 5 devices', () => {
  const root = testPrefix('homie5');
  let t: TestHub;
  /** Plays the Homie 5 device: publishes its topics, takes commands on `/set` and publishes the value back. */
  let device: MqttClient;
  const commands: [string, string][] = [];
  const published: string[] = [];
  const { device: hubDevice, value, availability } = bridgedDevices(() => t, HOMIE_DRIVER_ID);
  const base = `${root}/5/desk-plug`;
  const publish = (path: string, payload: string) => {
    published.push(path);
    return device.publishAsync(`${base}/${path}`, payload, { qos: 1, retain: true });
  };

  beforeAll(async () => {
    device = await connectClient(MOSQUITTO_URL);
    await device.subscribeAsync(`${base}/+/+/set`);
    device.on('message', (topic, payload) => {
      const path = topic.slice(`${base}/`.length, -'/set'.length);
      commands.push([path, payload.toString()]);
      void publish(path, payload.toString());
    });
    await publish('$state', 'init');
    await publish('$description', JSON.stringify(DESCRIPTION));
    await publish('relay/state', 'true');
    await publish('relay/level', '60');
    await publish('meter/power', '12.5');
    await publish('meter/overload', 'false');
    await publish('$state', 'ready');
    // A 4.0 device whose id is the same: a device of its own, never mixed with the 5.0 one.
    await device.publishAsync(`${root}/desk-plug/$state`, 'init', { qos: 1, retain: true });
    t = await startTestHub({
      mqtt: { url: MOSQUITTO_URL, homiePrefix: root, baseTopic: `${root}-z2m`, discoveryPrefix: `${root}-ha` },
    });
  });
  afterAll(async () => {
    await t?.stop();
    for (const path of new Set(published)) await publish(path, '');
    await device?.publishAsync(`${root}/desk-plug/$state`, '', { qos: 1, retain: true });
    await device?.endAsync();
  });

  it('makes one hub device from $description once $state is ready, with the values it published', async () => {
    const plug = await until(
      () => hubDevice('Desk plug'),
      (d) => d?.capabilitiesObj.measure_power?.value === 12.5,
    );
    expect(plug).toMatchObject({ class: 'light', available: true, data: { homieId: '5/desk-plug' } });
    // The enum maps to no capability and is left out; `overload` is a boolean reading with no alarm it names.
    expect(plug?.capabilities).toEqual(['onoff', 'dim', 'measure_power']);
    expect(plug?.capabilitiesObj).toMatchObject({
      onoff: { value: true, setable: true },
      dim: { value: 0.6, setable: true },
      measure_power: { value: 12.5, setable: false },
    });
    const all = await t.call<Record<string, { name: string }>>('GET', '/devices/device');
    expect(Object.values(all.body).filter((d) => d.name === 'desk-plug')).toEqual([]);
  });

  it('writes go to <root>/5/<device>/<node>/<property>/set and are confirmed by the value published back', async () => {
    const id = (await hubDevice('Desk plug'))?.id;
    expect((await t.call('PUT', `/devices/device/${id}/capability/dim`, { value: 0.33 })).status).toBe(204);
    expect(commands.at(-1)).toEqual(['relay/level', '33']);
    expect(await value('Desk plug', 'dim')).toBe(0.33);
    expect((await t.call('PUT', `/devices/device/${id}/capability/onoff`, { value: false })).status).toBe(204);
    expect(commands.at(-1)).toEqual(['relay/state', 'false']);
    expect(await value('Desk plug', 'onoff')).toBe(false);
    expect((await t.call('PUT', `/devices/device/${id}/capability/measure_power`, { value: 3 })).status).toBe(400);
  });

  it('follows a new description and $state; a description that is not JSON changes nothing and is logged', async () => {
    await publish('$state', 'sleeping');
    expect((await availability('Desk plug', false))?.unavailableMessage).toContain('sleeping');
    await publish('$state', 'ready');
    await availability('Desk plug', true);
    await publish('$description', '{"homie":"5.0","nodes":');
    await until(
      () => t.hub.context.journal.tail(20).join('\n'),
      (journal) => journal.includes(`${base}/$description failed: $description is not JSON`),
    );
    expect((await hubDevice('Desk plug'))?.capabilities).toEqual(['onoff', 'dim', 'measure_power']);
    // Version 8 drops the dimmer: the device keeps its switch and meter.
    const { level: _dropped, ...relay } = DESCRIPTION.nodes.relay.properties;
    const next = { ...DESCRIPTION, version: 8, nodes: { ...DESCRIPTION.nodes, relay: { name: 'Relay', properties: relay } } };
    await publish('$description', JSON.stringify(next));
    const updated = await until(
      () => hubDevice('Desk plug'),
      (d) => !d?.capabilities.includes('dim'),
    );
    expect(updated?.capabilities).toEqual(['onoff', 'measure_power']);
    expect(updated?.class).toBe('socket');
  });
});
