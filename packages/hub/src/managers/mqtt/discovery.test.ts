import { describe, expect, it } from 'vitest';
import { discover, expandConfig, type HaEntity } from './discovery';
import { renderTemplate } from './ha-template';
import { commandsFor, readValue } from './ha-values';

const entity = (key: string, config: unknown, idFor?: (base: string) => string): HaEntity => {
  const found = discover(key, config, idFor);
  if (!found.ok) throw new Error(found.problem);
  return found.entity;
};
const readsOf = (e: HaEntity, payloads: Record<string, string>) =>
  Object.fromEntries(
    e.reads.flatMap((read) => {
      const payload = payloads[read.topic];
      if (payload === undefined) return [];
      const result = readValue(read, payload);
      return [[read.capabilityId, 'value' in result ? result.value : result]];
    }),
  );

describe('HA discovery configs', () => {
  it('expands abbreviations and ~ at either end of a topic, in the device block and availability list', () => {
    expect(
      expandConfig({
        '~': 'base/x',
        stat_t: '~/state',
        cmd_t: 'cmd/~',
        avty: [{ t: '~/lwt', pl_avail: 'up' }],
        dev: { ids: ['a'], mf: 'Maker', mdl: 'M1' },
        name: '~ not a topic',
      }),
    ).toEqual({
      '~': 'base/x',
      state_topic: 'base/x/state',
      command_topic: 'cmd/base/x',
      availability: [{ topic: 'base/x/lwt', payload_available: 'up' }],
      device: { identifiers: ['a'], manufacturer: 'Maker', model: 'M1' },
      name: '~ not a topic',
    });
  });

  it('reads and writes a default-schema light with brightness scale, mireds and hs', () => {
    const light = entity('light/node/bulb', {
      '~': 'bulb/',
      stat_t: '~power',
      cmd_t: '~power/set',
      pl_on: 'on',
      pl_off: 'off',
      bri_stat_t: '~bri',
      bri_cmd_t: '~bri/set',
      bri_scl: 100,
      clr_temp_stat_t: '~ct',
      clr_temp_cmd_t: '~ct/set',
      min_mirs: 153,
      max_mirs: 370,
      hs_stat_t: '~hs',
      hs_cmd_t: '~hs/set',
    });
    expect(readsOf(light, { 'bulb/power': 'on', 'bulb/bri': '25', 'bulb/ct': '370', 'bulb/hs': '180,50' })).toEqual({
      onoff: true,
      dim: 0.25,
      light_temperature: 1,
      light_hue: 0.5,
      light_saturation: 0.5,
    });
    const current = (id: string) => ({ light_saturation: 0.5 })[id];
    expect(commandsFor(light.writes, { onoff: false, dim: 0.5, light_hue: 0.25 }, current)).toEqual([
      { topic: 'bulb/power/set', payload: 'off' },
      { topic: 'bulb/bri/set', payload: '50' },
      { topic: 'bulb/hs/set', payload: '90,50' },
    ]);
  });

  it('names a second entity of one kind as a sub-capability, and reads sensors in their capability units', () => {
    const second = entity('switch/n/relay2', { stat_t: 's2', cmd_t: 'c2' }, (base) => `${base}.relay2`);
    expect(second.writes.map((w) => w.capabilityId)).toEqual(['onoff.relay2']);
    const energy = entity('sensor/n/e', { stat_t: 'e', dev_cla: 'energy', unit_of_meas: 'Wh' });
    expect(readsOf(energy, { e: '1500' })).toEqual({ meter_power: 1.5 });
    const door = entity('binary_sensor/n/d', { stat_t: 'd', dev_cla: 'door', pl_on: 'open', pl_off: 'closed' });
    expect(readsOf(door, { d: 'open' })).toEqual({ alarm_contact: true });
    expect(discover('sensor/n/x', { stat_t: 'x' })).toEqual({
      ok: false,
      problem: 'a sensor of device class (none) is not bridged',
    });
    expect(discover('light/n/x', { stat_t: 'x', schema: 'template' })).toMatchObject({ ok: false });
  });

  it('takes availability lists and modes, and a device block with one identifier or none', () => {
    const found = discover('switch/n/s', {
      stat_t: 's',
      avty: [{ topic: 'a1' }, { topic: 'a2', payload_available: 'yes', payload_not_available: 'no' }],
      avty_mode: 'all',
      uniq_id: 'unique-s',
    });
    expect(found).toMatchObject({
      ok: true,
      device: { id: 'unique-s' },
      entity: {
        availabilityMode: 'all',
        availability: [
          { topic: 'a1', online: 'online', offline: 'offline' },
          { topic: 'a2', online: 'yes', offline: 'no' },
        ],
      },
    });
    expect(discover('switch/n/s', { stat_t: 's', dev: { ids: 'only-one', name: 'Box' } })).toMatchObject({
      device: { id: 'only-one', name: 'Box' },
    });
  });
});

describe('HA discovery components beyond switches, lights, sensors and covers', () => {
  it('reads and writes a Fahrenheit thermostat in °C, rounded to its precision, with its range in °C', () => {
    const found = discover('climate/n/t', {
      temp_unit: 'F',
      temp_cmd_t: 't/set',
      temp_stat_t: 't/target',
      temp_stat_tpl: '{{ value_json.target }}',
      curr_temp_t: 't/current',
      min_temp: 50,
      max_temp: 86,
    });
    if (!found.ok) throw new Error(found.problem);
    expect(found.class).toBe('thermostat');
    expect(found.entity.options?.target_temperature).toMatchObject({ min: 10, max: 30 });
    expect(readsOf(found.entity, { 't/target': '{"target":70}', 't/current': '68' })).toEqual({
      target_temperature: 21.111111,
      measure_temperature: 20,
    });
    expect(commandsFor(found.entity.writes, { target_temperature: 21.5 }, () => undefined)).toEqual([
      { topic: 't/set', payload: '71' },
    ]);
  });

  it('expands the components’ abbreviations, and says what is wrong with a config it cannot bridge', () => {
    const locked = entity('lock/n/l', {
      cmd_t: 'l/set',
      stat_t: 'l/state',
      pl_lock: 'close',
      pl_unlk: 'open',
      stat_locked: 'shut',
    });
    expect(readsOf(locked, { 'l/state': 'shut' })).toEqual({ locked: true });
    expect(commandsFor(locked.writes, { locked: false }, () => undefined)).toEqual([{ topic: 'l/set', payload: 'open' }]);
    const speed = entity('fan/n/f', { pct_cmd_t: 'f/pct', spd_rng_min: 1, spd_rng_max: 3 });
    expect(commandsFor(speed.writes, { fan_speed: 1 }, () => undefined)).toEqual([{ topic: 'f/pct', payload: '3' }]);
    expect(entity('button/n/b', { cmd_t: 'b' }).optimistic).toBe(true);
    expect(entity('switch/n/s', { cmd_t: 's/set', stat_t: 's' }).optimistic).toBe(false);
    expect(discover('device_trigger/n/d', { atype: 'trigger', t: 'x', type: 'button_short_press' })).toEqual({
      ok: false,
      problem: 'a device trigger needs a topic, a type and a subtype',
    });
    expect(discover('fan/n/f', { cmd_t: 'f', spd_rng_min: 5, spd_rng_max: 4 })).toEqual({
      ok: false,
      problem: 'speed_range_max is not above speed_range_min',
    });
  });
});

describe('value templates', () => {
  it('reads paths, scales, filters and conditionals, and says what it cannot run', () => {
    const json = JSON.stringify({ a: { b: [10, 20] }, 'with space': 3, on: false, word: 'Mixed' });
    expect(renderTemplate('{{ value_json.a.b[1] }}', json)).toEqual({ ok: true, value: 20 });
    expect(renderTemplate("{{ value_json['with space'] * 2 }}", json)).toEqual({ ok: true, value: 6 });
    expect(renderTemplate('{{ value_json.a.b[0] / 3 | round(2) }}', json)).toEqual({ ok: true, value: 3.33 });
    expect(renderTemplate('{{ value_json.word | lower }}', json)).toEqual({ ok: true, value: 'mixed' });
    expect(renderTemplate('{{ "yes" if value_json.on else "no" }}', json)).toEqual({ ok: true, value: 'no' });
    expect(renderTemplate("{{ 'hot' if value_json.word == 'Mixed' else 'cold' }}", json)).toEqual({ ok: true, value: 'hot' });
    expect(renderTemplate('{{ value | float }}', '21.5')).toEqual({ ok: true, value: 21.5 });
    expect(renderTemplate('{{ value_json.missing }}', json)).toMatchObject({ ok: false, missing: true });
    expect(renderTemplate("{{ value_json.Color.split(',')[0:3] | join(',') }}", json)).toMatchObject({
      ok: false,
      missing: false,
    });
    expect(renderTemplate('{{ value_json.a }}', 'not json')).toMatchObject({ ok: false, problem: 'the payload is not JSON' });
    expect(renderTemplate('{% if value %}x{% endif %}', '1')).toMatchObject({ ok: false, missing: false });
  });
});
