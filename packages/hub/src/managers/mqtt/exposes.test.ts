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
});
