import { describe, expect, it } from 'vitest';
import { setPayload, shapeOf, valuesFromState } from './exposes';

const binary = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'binary',
  name,
  property: name,
  access: 7,
  value_on: 'ON',
  value_off: 'OFF',
  ...extra,
});

describe("zigbee2mqtt's exposes as capabilities", () => {
  it('gives each endpoint of a two-gang switch its own sub-capability, written by its own property', () => {
    const shape = shapeOf([
      { type: 'switch', endpoint: 'l1', features: [binary('state', { property: 'state_l1', endpoint: 'l1' })] },
      { type: 'switch', endpoint: 'l2', features: [binary('state', { property: 'state_l2', endpoint: 'l2' })] },
    ]);
    expect(shape.class).toBe('socket');
    expect(shape.mappings.map((m) => m.capabilityId)).toEqual(['onoff.l1', 'onoff.l2']);
    expect(shape.setable).toEqual(['onoff.l1', 'onoff.l2']);
    expect(setPayload(shape.mappings, { 'onoff.l2': true })).toEqual({ state_l2: 'ON' });
    expect(valuesFromState(shape.mappings, { state_l1: 'OFF', state_l2: 'ON' }).values).toEqual({
      'onoff.l1': false,
      'onoff.l2': true,
    });
  });

  it('keeps a light without the set access bit read-only, and scales to its own brightness range', () => {
    const shape = shapeOf([
      {
        type: 'light',
        features: [
          binary('state', { access: 5 }),
          { type: 'numeric', name: 'brightness', property: 'brightness', access: 7, value_min: 1, value_max: 100 },
        ],
      },
    ]);
    expect(shape.setable).toEqual(['dim']);
    expect(setPayload(shape.mappings, { dim: 0 })).toEqual({ brightness: 1 });
    expect(setPayload(shape.mappings, { dim: 1 })).toEqual({ brightness: 100 });
    expect(valuesFromState(shape.mappings, { brightness: 300 }).values).toEqual({ dim: 1 });
  });

  it('converts Wh and mV into kWh and V, skips what Hearth has no capability for, and reports wrong types', () => {
    const shape = shapeOf([
      { type: 'numeric', name: 'energy', property: 'energy', access: 1, unit: 'Wh' },
      { type: 'numeric', name: 'voltage', property: 'voltage', access: 1, unit: 'mV' },
      { type: 'numeric', name: 'linkquality', property: 'linkquality', access: 1 },
      { type: 'binary', name: 'occupancy', property: 'occupancy', access: 1, value_on: true, value_off: false },
      'not an expose',
      null,
    ]);
    expect(shape.class).toBe('sensor');
    expect(shape.mappings.map((m) => m.capabilityId)).toEqual(['meter_power', 'measure_voltage', 'alarm_motion']);
    const read = valuesFromState(shape.mappings, { energy: 1234, voltage: 2950, occupancy: 'yes', linkquality: 3 });
    expect(read.values).toEqual({ meter_power: 1.234, measure_voltage: 2.95 });
    expect(read.problems).toEqual(['occupancy: "yes" is neither on nor off']);
    expect(shapeOf('nonsense')).toEqual({ class: 'other', mappings: [], setable: [], action: null });
  });

  it('maps a colour light, a cover, a thermostat and a lock, and writes them as zigbee2mqtt takes them', () => {
    const numeric = (name: string, extra: Record<string, unknown> = {}) => ({
      type: 'numeric',
      name,
      property: name,
      access: 7,
      ...extra,
    });
    const colour = shapeOf([
      {
        type: 'light',
        features: [
          binary('state'),
          { type: 'composite', name: 'color_xy', property: 'color', access: 7, features: [numeric('x'), numeric('y')] },
        ],
      },
    ]);
    expect(colour.mappings.map((m) => m.capabilityId)).toEqual(['onoff', 'light_hue', 'light_saturation']);
    expect(valuesFromState(colour.mappings, { color: { hue: 120, saturation: 50, x: 0.2, y: 0.6 } }).values).toEqual({
      light_hue: 0.33,
      light_saturation: 0.5,
    });
    // Only xy (a colour-xy bulb in xy mode): a saturated red stays red.
    expect(valuesFromState(colour.mappings, { color: { x: 0.64, y: 0.33 } }).values.light_hue).toBe(0);
    expect(setPayload(colour.mappings, { light_hue: 0.5, light_saturation: 1 })).toEqual({
      color: { hue: 180, saturation: 100 },
    });

    const cover = shapeOf([
      {
        type: 'cover',
        features: [
          { type: 'enum', name: 'state', property: 'state', access: 3, values: ['OPEN', 'CLOSE', 'STOP'] },
          numeric('position', { value_min: 0, value_max: 100 }),
        ],
      },
    ]);
    expect(cover.class).toBe('windowcoverings');
    expect(setPayload(cover.mappings, { windowcoverings_state: 'down', windowcoverings_set: 0.3 })).toEqual({
      state: 'CLOSE',
      position: 30,
    });
    expect(valuesFromState(cover.mappings, { state: 'OPEN', position: 70 }).values).toEqual({ windowcoverings_set: 0.7 });

    const thermostat = shapeOf([
      {
        type: 'climate',
        features: [
          numeric('occupied_heating_setpoint', { value_min: 5, value_max: 30 }),
          numeric('local_temperature', { access: 5 }),
        ],
      },
    ]);
    expect(thermostat.class).toBe('thermostat');
    expect(thermostat.setable).toEqual(['target_temperature']);
    expect(valuesFromState(thermostat.mappings, { occupied_heating_setpoint: 20.5, local_temperature: 19.25 }).values).toEqual({
      target_temperature: 20.5,
      measure_temperature: 19.25,
    });
    expect(setPayload(thermostat.mappings, { target_temperature: 21 })).toEqual({ occupied_heating_setpoint: 21 });

    const lock = shapeOf([{ type: 'lock', features: [binary('state', { value_on: 'LOCK', value_off: 'UNLOCK' })] }]);
    expect(lock.class).toBe('lock');
    expect(valuesFromState(lock.mappings, { state: 'LOCK' }).values).toEqual({ locked: true });
    expect(setPayload(lock.mappings, { locked: false })).toEqual({ state: 'UNLOCK' });
  });
});
