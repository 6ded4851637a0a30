import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub, type TestHub } from '../../testing/hub';
import { connectClient, MOSQUITTO_URL, testPrefix } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { pending, until } from '../../testing/until';
import { CONFIRM_TIMEOUT_MS } from './confirm';

type Json = Record<string, unknown>;

/**
 * Home Assistant discovery's climate, lock, fan, button and device_trigger components, and how writes are confirmed
 * (HA's `optimistic`: by the state topic when there is one), through the HTTP API against Mosquitto, on a discovery
 * prefix and device topics of this file's own, with the hub on a fake clock so a timeout is moved to, not waited for.
 */
describe('HA discovery components and write confirmation', () => {
  const root = testPrefix('ha-components');
  const prefix = `${root}/homeassistant`;
  const clock = new FakeClock();
  let t: TestHub;
  /** Plays the devices: announces them, records the commands the hub sends, answers those it is told to. */
  let firmware: MqttClient;
  const commands: { topic: string; payload: string }[] = [];
  /** Command topic → the state topic a device answers on (with the command's payload, or what `answers` says). */
  const echoes = new Map<string, string>();
  const retained: string[] = [];
  const { device, value, settles } = bridgedDevices(() => t, 'homey:app:com.hearth.mqtt:homeassistant');
  const publish = (topic: string, payload: unknown, retain = false) => {
    if (retain) retained.push(topic);
    return firmware.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1, retain });
  };
  const put = async (name: string, capabilityId: string, body: unknown) =>
    t.call<Json>('PUT', `/devices/device/${(await device(name))?.id}/capability/${capabilityId}`, body);
  const sent = async (count: number) => {
    await until(
      () => commands.length,
      (n) => n >= count,
    );
    return commands.splice(0);
  };
  const dev = (id: string, name: string) => ({ ids: [`${root}-${id}`], name, mf: 'Test', mdl: id });
  const at = (path: string) => `${root}/${path}`;

  const configs: Record<string, Json> = {
    'climate/hall/thermostat': {
      name: 'Thermostat',
      temp_cmd_t: at('thermostat/target/set'),
      temp_stat_t: at('thermostat/target'),
      curr_temp_t: at('thermostat/current'),
      mode_cmd_t: at('thermostat/mode/set'),
      mode_stat_t: at('thermostat/mode'),
      modes: ['off', 'heat', 'auto', 'fan_only'],
      min_temp: 10,
      max_temp: 28,
      temp_step: 0.5,
      precision: 0.5,
      dev: dev('thermostat', 'Hall thermostat'),
    },
    'lock/door/lock': {
      name: 'Front door lock',
      cmd_t: at('lock/set'),
      stat_t: at('lock/state'),
      dev: dev('lock', 'Front door lock'),
    },
    'fan/bath/fan': {
      name: 'Bathroom fan',
      cmd_t: at('fan/set'),
      stat_t: at('fan/state'),
      pct_cmd_t: at('fan/speed/set'),
      pct_stat_t: at('fan/speed'),
      spd_rng_min: 1,
      spd_rng_max: 4,
      dev: dev('fan', 'Bathroom fan'),
    },
    'button/remote/restart': {
      name: 'Restart',
      cmd_t: at('remote/restart'),
      pl_prs: 'RESTART',
      dev: dev('remote', 'Hall remote'),
    },
    'device_trigger/remote/button_1_short': {
      atype: 'trigger',
      t: at('remote/action'),
      type: 'button_short_press',
      stype: 'button_1',
      pl: 'single',
      dev: dev('remote', 'Hall remote'),
    },
    'switch/quiet/relay': {
      name: 'Quiet relay',
      cmd_t: at('quiet/set'),
      stat_t: at('quiet/state'),
      dev: dev('quiet', 'Quiet relay'),
    },
    'switch/hopeful/relay': {
      name: 'Optimistic relay',
      cmd_t: at('hopeful/set'),
      stat_t: at('hopeful/state'),
      optimistic: true,
      dev: dev('hopeful', 'Optimistic relay'),
    },
  };

  beforeAll(async () => {
    firmware = await connectClient(MOSQUITTO_URL);
    // Only commands are recorded: the firmware hears its own state topics too, which are no commands.
    firmware.on('message', (topic, payload) => {
      if (!topic.endsWith('/set') && !topic.endsWith('/restart')) return;
      commands.push({ topic, payload: payload.toString() });
      const state = echoes.get(topic);
      if (state) void publish(state, payload.toString());
    });
    for (const [command, state] of [
      ['thermostat/target/set', 'thermostat/target'],
      ['thermostat/mode/set', 'thermostat/mode'],
      ['fan/set', 'fan/state'],
      ['fan/speed/set', 'fan/speed'],
    ])
      echoes.set(at(command), at(state));
    await firmware.subscribeAsync(`${root}/#`);
    for (const [key, config] of Object.entries(configs)) await publish(`${prefix}/${key}/config`, config, true);
    t = await startTestHub({ mqtt: { url: MOSQUITTO_URL, discoveryPrefix: prefix } }, { clock });
    await until(
      async () => (await t.call<Record<string, unknown>>('GET', '/devices/device')).body,
      (all) => Object.keys(all).length >= 6,
    );
  });
  afterAll(async () => {
    await t?.stop();
    // Retained messages outlive the test on a shared broker: an empty retained message deletes each.
    for (const topic of retained) await firmware?.publishAsync(topic, '', { qos: 1, retain: true });
    await firmware?.endAsync(true);
  });

  it('a thermostat: target temperature in its range and steps, current temperature, the modes Hearth has', async () => {
    const thermostat = await until(
      () => device('Hall thermostat'),
      (d) => d !== undefined,
    );
    expect(thermostat).toMatchObject({
      class: 'thermostat',
      capabilities: ['target_temperature', 'measure_temperature', 'thermostat_mode'],
    });
    const target = thermostat?.capabilitiesObj.target_temperature as unknown as Json;
    expect(target).toMatchObject({ min: 10, max: 28, step: 0.5, setable: true, units: '°C' });
    const modes = thermostat?.capabilitiesObj.thermostat_mode as unknown as { values?: { id: string }[] } | undefined;
    expect(modes?.values?.map((m) => m.id)).toEqual(['off', 'heat', 'auto']);
    await publish(at('thermostat/current'), '19.25');
    await publish(at('thermostat/mode'), 'heat');
    expect(await settles('Hall thermostat', 'measure_temperature', 19.25)).toBe(19.25);
    expect(await settles('Hall thermostat', 'thermostat_mode', 'heat')).toBe('heat');
    // A mode Hearth has no value for is no fault, and changes nothing.
    await publish(at('thermostat/mode'), 'fan_only');
    await publish(at('thermostat/current'), '19.5');
    await settles('Hall thermostat', 'measure_temperature', 19.5);
    expect(await value('Hall thermostat', 'thermostat_mode')).toBe('heat');
    expect((await put('Hall thermostat', 'target_temperature', { value: 21.5 })).status).toBe(204);
    expect((await put('Hall thermostat', 'thermostat_mode', { value: 'auto' })).status).toBe(204);
    expect(await sent(2)).toEqual([
      { topic: at('thermostat/target/set'), payload: '21.5' },
      { topic: at('thermostat/mode/set'), payload: 'auto' },
    ]);
    expect(await value('Hall thermostat', 'target_temperature')).toBe(21.5);
    // Outside the device's range or modes: refused before anything is sent.
    expect((await put('Hall thermostat', 'target_temperature', { value: 30 })).status).toBe(400);
    expect((await put('Hall thermostat', 'thermostat_mode', { value: 'cool' })).status).toBe(400);
    expect(commands).toEqual([]);
  });

  it('a lock: locked from LOCKED/UNLOCKED, confirmed when the lock reports it, passing states are no fault', async () => {
    const lock = await device('Front door lock');
    expect(lock).toMatchObject({ class: 'lock', capabilities: ['locked'] });
    const write = pending(put('Front door lock', 'locked', { value: true }));
    expect(await sent(1)).toEqual([{ topic: at('lock/set'), payload: 'LOCK' }]);
    await publish(at('lock/state'), 'LOCKING');
    await publish(at('lock/state'), 'JAMMED');
    await clock.advance(CONFIRM_TIMEOUT_MS / 2);
    expect(write.done).toBe(false);
    await publish(at('lock/state'), 'LOCKED');
    expect((await write.answer).status).toBe(204);
    expect(await value('Front door lock', 'locked')).toBe(true);
    expect(t.hub.context.journal.tail(20).join('\n')).not.toContain('lock/state');
  });

  it("a fan: onoff and fan_speed over the device's speed range", async () => {
    expect(await device('Bathroom fan')).toMatchObject({ class: 'fan', capabilities: ['onoff', 'fan_speed'] });
    await publish(at('fan/speed'), '3');
    expect(await settles('Bathroom fan', 'fan_speed', 0.75)).toBe(0.75);
    expect((await put('Bathroom fan', 'fan_speed', { value: 0.5 })).status).toBe(204);
    expect((await put('Bathroom fan', 'onoff', { value: true })).status).toBe(204);
    expect(await sent(2)).toEqual([
      { topic: at('fan/speed/set'), payload: '2' },
      { topic: at('fan/set'), payload: 'ON' },
    ]);
    expect(await value('Bathroom fan', 'fan_speed')).toBe(0.5);
  });

  it('a button is pressed with its payload and is done once sent (no state topic: optimistic)', async () => {
    const remote = await device('Hall remote');
    expect(remote).toMatchObject({ class: 'button', capabilities: ['button'] });
    expect((await put('Hall remote', 'button', { value: true })).status).toBe(204);
    expect(await sent(1)).toEqual([{ topic: at('remote/restart'), payload: 'RESTART' }]);
  });

  it('a write the state topic does not confirm fails with 504 when the clock passes the timeout; an optimistic one does not wait', async () => {
    await publish(at('quiet/state'), 'OFF');
    await settles('Quiet relay', 'onoff', false);
    const write = pending(put('Quiet relay', 'onoff', { value: true }));
    expect(await sent(1)).toEqual([{ topic: at('quiet/set'), payload: 'ON' }]);
    await clock.advance(CONFIRM_TIMEOUT_MS - 1);
    expect(write.done).toBe(false);
    await clock.advance(1);
    const answer = await write.answer;
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ error: 'timeout', error_description: 'Quiet relay did not confirm onoff within 10 s' });
    expect(await value('Quiet relay', 'onoff')).toBe(false);
    // `optimistic: true`: done once published though the device has a state topic, and it never answers here.
    expect((await put('Optimistic relay', 'onoff', { value: true })).status).toBe(204);
    expect(await sent(1)).toEqual([{ topic: at('hopeful/set'), payload: 'ON' }]);
    expect(await value('Optimistic relay', 'onoff')).toBe(true);
  });

  it("a device trigger fires the bridge's flow trigger for its device and type, never from a retained message", async () => {
    const remote = await device('Hall remote');
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Presses', type: 'number', value: 0 });
    const flow = await t.call<{ broken: boolean }>('POST', '/flow/flow', {
      name: 'Count the hall remote',
      trigger: {
        uri: 'homey:app:com.hearth.mqtt',
        id: 'device_trigger',
        args: { device: { id: remote?.id, name: remote?.name }, trigger: 'button_short_press button_1' },
      },
      conditions: [],
      actions: [
        {
          uri: 'homey:manager:logic',
          id: 'variable_increment',
          args: { variable: { id: variable.body.id, name: 'Presses' }, amount: 1 },
        },
      ],
    });
    expect(flow.status).toBeLessThan(300);
    expect(flow.body.broken).toBe(false);
    const presses = async () => (await t.call<{ value: number }>('GET', `/logic/variable/${variable.body.id}`)).body.value;
    await publish(at('remote/action'), 'single');
    expect(await until(presses, (n) => n === 1)).toBe(1);
    // Another payload is another trigger. A press the device retains fires as it happens …
    await publish(at('remote/action'), 'double');
    await publish(at('remote/action'), 'single', true);
    expect(await until(presses, (n) => n === 2)).toBe(2);
    // … but not again when the broker delivers it as retained, after the bridge reconnected.
    const again = await t.call('PUT', '/mqtt/broker', { url: MOSQUITTO_URL, discoveryPrefix: prefix, clientId: `${root}-again` });
    expect(again.status).toBe(200);
    await until(
      async () => (await t.call<Json>('GET', '/mqtt/state')).body,
      (s) => s.state === 'connected' && s.clientId === `${root}-again`,
    );
    await publish(at('lock/state'), 'UNLOCKED');
    await settles('Front door lock', 'locked', false);
    expect(await presses()).toBe(2);
  });
});
