import type { SimulationKind } from './manifest';

export type CapabilityValue = string | number | boolean | null;

/** The value a capability starts with on a freshly paired device. */
export function initialValue(capabilityId: string): CapabilityValue {
  const base = capabilityId.split('.')[0] ?? capabilityId;
  const initial: Record<string, CapabilityValue> = {
    onoff: false,
    dim: 1,
    light_hue: 0.1,
    light_saturation: 0.8,
    light_temperature: 0.5,
    light_mode: 'temperature',
    measure_power: 0,
    meter_power: 0,
    measure_voltage: 230,
    measure_current: 0,
    measure_temperature: 20.5,
    target_temperature: 21,
    thermostat_mode: 'heat',
    measure_humidity: 45,
    measure_luminance: 250,
    measure_co2: 480,
    measure_battery: 100,
    locked: true,
    volume_set: 0.3,
    volume_mute: false,
    speaker_playing: false,
    speaker_track: '',
    windowcoverings_set: 1,
    windowcoverings_state: 'idle',
    homealarm_state: 'disarmed',
  };
  if (base in initial) return initial[base] as CapabilityValue;
  if (base.startsWith('alarm_')) return false;
  return null;
}

/** What a simulated device knows when it reacts: its capabilities' current values and its settings. */
export interface SimulatedDevice {
  readonly kind: SimulationKind;
  readonly values: Readonly<Record<string, CapabilityValue>>;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly capabilities: readonly string[];
}

type Changes = Record<string, CapabilityValue>;

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

/** Power a device draws in its current state, when the simulation models it. */
function powerOf(device: SimulatedDevice, values: Readonly<Record<string, CapabilityValue>>): number | undefined {
  const on = values.onoff === true;
  switch (device.kind) {
    case 'socket':
    case 'switch': {
      const load = typeof device.settings.load === 'number' ? device.settings.load : 60;
      return on ? round(load * (0.98 + Math.random() * 0.04), 2) : 0.4;
    }
    case 'light': {
      const dim = typeof values.dim === 'number' ? values.dim : 1;
      return on ? round(0.5 + 9 * dim, 2) : 0.3;
    }
    case 'thermostat': {
      if (values.thermostat_mode === 'off') return 0;
      const target = Number(values.target_temperature ?? 21);
      const current = Number(values.measure_temperature ?? 20);
      return current < target - 0.05 ? 1450 : 3;
    }
    default:
      return undefined;
  }
}

/**
 * How a device reacts to a value a user set: the other capabilities that change with it (a light that is
 * dimmed turns on; a socket that turns on draws its load).
 */
export function react(device: SimulatedDevice, capabilityId: string, value: CapabilityValue): Changes {
  const changes: Changes = {};
  const has = (id: string) => device.capabilities.includes(id);
  const next = { ...device.values, [capabilityId]: value };
  if (device.kind === 'light' && capabilityId === 'dim' && typeof value === 'number' && has('onoff')) {
    const on = value > 0;
    if (next.onoff !== on) changes.onoff = on;
    next.onoff = on;
  }
  if (device.kind === 'blinds') {
    if (capabilityId === 'windowcoverings_state' && has('windowcoverings_set')) {
      if (value === 'up') changes.windowcoverings_set = 1;
      if (value === 'down') changes.windowcoverings_set = 0;
    }
    if (capabilityId === 'windowcoverings_set' && has('windowcoverings_state')) changes.windowcoverings_state = 'idle';
  }
  if (has('measure_power')) {
    const power = powerOf(device, next);
    if (power !== undefined && power !== next.measure_power) {
      changes.measure_power = power;
      if (has('measure_current')) changes.measure_current = round(power / 230, 2);
    }
  }
  return changes;
}

/** One step of the world moving on its own: meters count, rooms warm up, sensors drift, motion comes and goes. */
export function tick(device: SimulatedDevice, elapsedMs: number, random: () => number = Math.random): Changes {
  const changes: Changes = {};
  const has = (id: string) => device.capabilities.includes(id);
  const values = device.values;
  if (device.kind === 'thermostat' && has('measure_temperature')) {
    const target = Number(values.target_temperature ?? 21);
    const current = Number(values.measure_temperature ?? 20);
    const heating = values.thermostat_mode !== 'off' && current < target - 0.05;
    const drift = heating ? 0.1 : current > 18 ? -0.05 : 0;
    if (drift !== 0) changes.measure_temperature = round(current + drift, 1);
    if (has('measure_power')) {
      const power = powerOf(device, { ...values, ...changes });
      if (power !== undefined && power !== values.measure_power) changes.measure_power = power;
    }
  }
  if (device.kind === 'sensor' || device.kind === 'motion') {
    const walk = (id: string, step: number, min: number, max: number, digits: number) => {
      if (!has(id) || random() > 0.4) return;
      const current = Number(values[id] ?? initialValue(id));
      changes[id] = round(Math.min(max, Math.max(min, current + (random() - 0.5) * 2 * step)), digits);
    };
    walk('measure_temperature', 0.2, 10, 30, 1);
    walk('measure_humidity', 1, 20, 90, 0);
    walk('measure_luminance', 20, 0, 2000, 0);
    walk('measure_co2', 15, 380, 2000, 0);
    if (has('measure_power') && !has('onoff')) walk('measure_power', 40, 80, 4000, 1);
  }
  if (device.kind === 'motion' && has('alarm_motion')) {
    if (values.alarm_motion === true) changes.alarm_motion = false;
    else if (random() < 0.08) changes.alarm_motion = true;
  }
  if (has('meter_power') && typeof values.measure_power === 'number') {
    const power = Number(changes.measure_power ?? values.measure_power);
    const kWh = (power * elapsedMs) / 3_600_000 / 1000;
    if (kWh >= 0.00005) changes.meter_power = round(Number(values.meter_power ?? 0) + kWh, 4);
  }
  return changes;
}
