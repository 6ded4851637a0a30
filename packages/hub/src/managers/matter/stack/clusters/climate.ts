import { ThermostatClient } from '@matter/main/behaviors/thermostat';
import { type ClusterCapability, type ClusterState, featuresOf, numberOrNull } from './cluster-capability';

/** Thermostat SystemMode values the ecosystem's thermostat_mode has a value for (others read as unknown). */
const SYSTEM_MODES: Readonly<Record<number, string>> = { 0: 'off', 1: 'auto', 3: 'cool', 4: 'heat', 5: 'heat' };
const SYSTEM_MODE_OF: Readonly<Record<string, number>> = { off: 0, auto: 1, cool: 3, heat: 4 };
const SYSTEM_MODE_COOL = 3;

/**
 * The setpoint the ecosystem's single target_temperature stands for: the cooling one while a thermostat that can
 * cool is cooling (or can only cool), else the heating one.
 */
function setpointOf(state: ClusterState): 'occupiedHeatingSetpoint' | 'occupiedCoolingSetpoint' {
  const { heating, cooling } = featuresOf(state);
  if (cooling && (!heating || state.systemMode === SYSTEM_MODE_COOL)) return 'occupiedCoolingSetpoint';
  return 'occupiedHeatingSetpoint';
}

/** Matter's temperatures are in 0.01 °C; null is "unknown". */
const celsius = (value: unknown) => {
  const n = numberOrNull(value);
  return n === null ? null : n / 100;
};

export const CLIMATE: readonly ClusterCapability[] = [
  {
    capability: 'measure_temperature',
    client: ThermostatClient,
    attributes: ['localTemperature'],
    toCapability: (state) => celsius(state.localTemperature),
  },
  {
    capability: 'target_temperature',
    client: ThermostatClient,
    attributes: ['occupiedHeatingSetpoint', 'occupiedCoolingSetpoint', 'systemMode'],
    toCapability: (state) => celsius(state[setpointOf(state)]),
    // An attribute write: the node refuses a setpoint outside its limits, and the stored value stays.
    write: async (endpoint, value, state) => {
      await endpoint.setStateOf(ThermostatClient, { [setpointOf(state)]: Math.round(Number(value) * 100) });
    },
  },
  {
    capability: 'thermostat_mode',
    client: ThermostatClient,
    attributes: ['systemMode'],
    toCapability: (state) => {
      const mode = numberOrNull(state.systemMode);
      return mode === null ? null : (SYSTEM_MODES[mode] ?? null);
    },
    write: async (endpoint, value) => {
      const mode = SYSTEM_MODE_OF[String(value)];
      if (mode === undefined) throw new Error(`A thermostat has no mode ${String(value)}`);
      await endpoint.setStateOf(ThermostatClient, { systemMode: mode });
    },
  },
];
