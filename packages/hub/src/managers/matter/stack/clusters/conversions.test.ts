import { describe, expect, it } from 'vitest';
import { CLIMATE } from './climate';
import { CLOSURES } from './closures';
import type { ClusterCapability, ClusterState } from './cluster-capability';
import { LIGHTING } from './lighting';
import { SENSORS } from './sensors';

const all = [...LIGHTING, ...SENSORS, ...CLIMATE, ...CLOSURES];
/** The capability's value the hub makes of a cluster state (the first mapping of that capability and cluster). */
function capabilityValue(capability: string, state: ClusterState, cluster?: string): unknown {
  const mapping = all.find(
    (m: ClusterCapability) => m.capability === capability && (cluster === undefined || m.client.id === cluster),
  );
  if (!mapping) throw new Error(`no mapping of ${capability}`);
  return mapping.toCapability(state);
}

/**
 * How the attributes a node reports become the ecosystem's capability values: units, ranges and the directions in
 * which Matter and the ecosystem count differently (the suites with virtual devices check the same both ways).
 */
describe('Matter attributes as capability values', () => {
  it('spans light_temperature over the light’s physical mired range, coldest 0, warmest 1', () => {
    const range = { colorTempPhysicalMinMireds: 153, colorTempPhysicalMaxMireds: 500 };
    expect(capabilityValue('light_temperature', { ...range, colorTemperatureMireds: 153 })).toBe(0);
    expect(capabilityValue('light_temperature', { ...range, colorTemperatureMireds: 500 })).toBe(1);
    expect(capabilityValue('light_temperature', { ...range, colorTemperatureMireds: 326 })).toBe(0.499);
    expect(capabilityValue('light_temperature', { ...range, colorTemperatureMireds: null })).toBeNull();
  });

  it('reads light_mode from ColorMode: 2 is temperature, hue/saturation and x/y are colour', () => {
    expect(capabilityValue('light_mode', { colorMode: 2 })).toBe('temperature');
    expect(capabilityValue('light_mode', { colorMode: 0 })).toBe('color');
    expect(capabilityValue('light_mode', { colorMode: 1 })).toBe('color');
  });

  it('reads lux from Matter’s logarithmic illuminance, 0 as too dark to measure', () => {
    expect(capabilityValue('measure_luminance', { measuredValue: 30_001 })).toBe(1000);
    expect(capabilityValue('measure_luminance', { measuredValue: 1 })).toBe(1);
    expect(capabilityValue('measure_luminance', { measuredValue: 0 })).toBe(0);
    expect(capabilityValue('measure_luminance', { measuredValue: null })).toBeNull();
  });

  it('turns Matter’s closed lift percentage into the ecosystem’s open fraction', () => {
    expect(capabilityValue('windowcoverings_set', { currentPositionLiftPercent100ths: 0 })).toBe(1);
    expect(capabilityValue('windowcoverings_set', { currentPositionLiftPercent100ths: 7_500 })).toBe(0.25);
    expect(capabilityValue('windowcoverings_state', { operationalStatus: { global: 2 } })).toBe('down');
    expect(capabilityValue('windowcoverings_state', { operationalStatus: { global: 1 } })).toBe('up');
    expect(capabilityValue('windowcoverings_state', { operationalStatus: { global: 0 } })).toBe('idle');
  });

  it('takes the cooling setpoint as target while a heating-and-cooling thermostat cools, else the heating one', () => {
    const both = { featureMap: { heating: true, cooling: true }, occupiedHeatingSetpoint: 2000, occupiedCoolingSetpoint: 2600 };
    expect(capabilityValue('target_temperature', { ...both, systemMode: 4 })).toBe(20);
    expect(capabilityValue('target_temperature', { ...both, systemMode: 3 })).toBe(26);
    expect(capabilityValue('target_temperature', { featureMap: { cooling: true }, occupiedCoolingSetpoint: 2400 })).toBe(24);
    expect(capabilityValue('thermostat_mode', { systemMode: 7 })).toBeNull();
    expect(capabilityValue('measure_temperature', { localTemperature: 1950 }, 'thermostat')).toBe(19.5);
  });

  it('reads lock state 1 as locked, the others as not, and an unknown state as no value', () => {
    expect(capabilityValue('locked', { lockState: 1 })).toBe(true);
    expect(capabilityValue('locked', { lockState: 2 })).toBe(false);
    expect(capabilityValue('locked', { lockState: 0 })).toBe(false);
    expect(capabilityValue('locked', { lockState: null })).toBeNull();
  });

  it('reads power from mW and energy from mWh (64-bit values included)', () => {
    expect(capabilityValue('measure_power', { activePower: 60_000 })).toBe(60);
    expect(capabilityValue('meter_power', { cumulativeEnergyImported: { energy: 1_500_000 } })).toBe(1.5);
    expect(capabilityValue('meter_power', { cumulativeEnergyImported: { energy: 12_345_678_901n } })).toBe(12345.679);
    expect(capabilityValue('meter_power', { cumulativeEnergyImported: null })).toBeNull();
  });
});
