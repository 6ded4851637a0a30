import { invalidParameter } from '@hearth/contract';
import { ecosystemCapabilities } from './ecosystem';

export type CapabilityType = 'boolean' | 'number' | 'string' | 'enum';
export type ChartType = 'line' | 'area' | 'stepLine' | 'column' | 'spline' | 'splineArea' | 'scatter';

/** One capability of the catalogue: what its values are and how they may be read and written. */
export interface CapabilityDefinition {
  readonly id: string;
  readonly type: CapabilityType;
  readonly title: string;
  readonly desc?: string;
  readonly getable: boolean;
  readonly setable: boolean;
  readonly units?: string;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly decimals?: number;
  readonly chartType?: ChartType;
  readonly values?: readonly { id: string; title: string }[];
  readonly titleTrue?: string;
  readonly titleFalse?: string;
  /** The quick-action and UI component the capability is shown with. */
  readonly uiComponent?: 'toggle' | 'slider' | 'sensor' | 'thermostat' | 'button' | 'picker' | 'media' | 'color';
}

/** Options a driver or device may override per capability (`capabilitiesOptions`). */
export interface CapabilityOptions {
  title?: string;
  units?: string;
  min?: number;
  max?: number;
  step?: number;
  decimals?: number;
  titleTrue?: string;
  titleFalse?: string;
  values?: { id: string; title: string }[];
  getable?: boolean;
  setable?: boolean;
}

/**
 * Hearth's own entries for the capabilities it knew before it read the ecosystem's catalogue: they keep the
 * titles, value labels, steps and ui components Hearth's clients, flows and tests already use, and take the
 * place of the ecosystem's entry of the same id. Every other system capability comes from the ecosystem.
 */
const hearthEntries: CapabilityDefinition[] = [
  {
    id: 'onoff',
    type: 'boolean',
    title: 'Turned on',
    getable: true,
    setable: true,
    titleTrue: 'On',
    titleFalse: 'Off',
    chartType: 'stepLine',
    uiComponent: 'toggle',
  },
  {
    id: 'dim',
    type: 'number',
    title: 'Dim level',
    getable: true,
    setable: true,
    min: 0,
    max: 1,
    step: 0.01,
    decimals: 2,
    units: '%',
    chartType: 'stepLine',
    uiComponent: 'slider',
  },
  {
    id: 'light_hue',
    type: 'number',
    title: 'Hue',
    getable: true,
    setable: true,
    min: 0,
    max: 1,
    step: 0.01,
    decimals: 2,
    uiComponent: 'color',
  },
  {
    id: 'light_saturation',
    type: 'number',
    title: 'Color saturation',
    getable: true,
    setable: true,
    min: 0,
    max: 1,
    step: 0.01,
    decimals: 2,
    uiComponent: 'color',
  },
  {
    id: 'light_temperature',
    type: 'number',
    title: 'Color temperature',
    getable: true,
    setable: true,
    min: 0,
    max: 1,
    step: 0.01,
    decimals: 2,
    uiComponent: 'color',
  },
  {
    id: 'light_mode',
    type: 'enum',
    title: 'Light mode',
    getable: true,
    setable: true,
    uiComponent: 'picker',
    values: [
      { id: 'color', title: 'Color' },
      { id: 'temperature', title: 'Temperature' },
    ],
  },
  {
    id: 'measure_power',
    type: 'number',
    title: 'Power',
    getable: true,
    setable: false,
    units: 'W',
    decimals: 2,
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  {
    id: 'meter_power',
    type: 'number',
    title: 'Energy',
    getable: true,
    setable: false,
    units: 'kWh',
    decimals: 2,
    chartType: 'spline',
    uiComponent: 'sensor',
  },
  {
    id: 'measure_voltage',
    type: 'number',
    title: 'Voltage',
    getable: true,
    setable: false,
    units: 'V',
    decimals: 1,
    uiComponent: 'sensor',
  },
  {
    id: 'measure_current',
    type: 'number',
    title: 'Current',
    getable: true,
    setable: false,
    units: 'A',
    decimals: 2,
    uiComponent: 'sensor',
  },
  {
    id: 'measure_temperature',
    type: 'number',
    title: 'Temperature',
    getable: true,
    setable: false,
    units: '°C',
    decimals: 1,
    chartType: 'spline',
    uiComponent: 'sensor',
  },
  {
    id: 'target_temperature',
    type: 'number',
    title: 'Target temperature',
    getable: true,
    setable: true,
    units: '°C',
    min: 4,
    max: 35,
    step: 0.5,
    decimals: 1,
    chartType: 'stepLine',
    uiComponent: 'thermostat',
  },
  {
    id: 'thermostat_mode',
    type: 'enum',
    title: 'Thermostat mode',
    getable: true,
    setable: true,
    uiComponent: 'picker',
    values: [
      { id: 'auto', title: 'Automatic' },
      { id: 'heat', title: 'Heat' },
      { id: 'cool', title: 'Cool' },
      { id: 'off', title: 'Off' },
    ],
  },
  {
    id: 'measure_humidity',
    type: 'number',
    title: 'Humidity',
    getable: true,
    setable: false,
    units: '%',
    min: 0,
    max: 100,
    decimals: 0,
    chartType: 'spline',
    uiComponent: 'sensor',
  },
  {
    id: 'measure_luminance',
    type: 'number',
    title: 'Luminance',
    getable: true,
    setable: false,
    units: 'lx',
    min: 0,
    decimals: 0,
    uiComponent: 'sensor',
  },
  {
    id: 'measure_co2',
    type: 'number',
    title: 'CO2',
    getable: true,
    setable: false,
    units: 'ppm',
    min: 0,
    decimals: 0,
    uiComponent: 'sensor',
  },
  {
    id: 'measure_battery',
    type: 'number',
    title: 'Battery',
    getable: true,
    setable: false,
    units: '%',
    min: 0,
    max: 100,
    decimals: 0,
    uiComponent: 'sensor',
  },
  {
    id: 'alarm_motion',
    type: 'boolean',
    title: 'Motion alarm',
    getable: true,
    setable: false,
    titleTrue: 'Motion',
    titleFalse: 'No motion',
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  {
    id: 'alarm_contact',
    type: 'boolean',
    title: 'Contact alarm',
    getable: true,
    setable: false,
    titleTrue: 'Open',
    titleFalse: 'Closed',
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  {
    id: 'alarm_smoke',
    type: 'boolean',
    title: 'Smoke alarm',
    getable: true,
    setable: false,
    titleTrue: 'Smoke',
    titleFalse: 'No smoke',
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  {
    id: 'alarm_water',
    type: 'boolean',
    title: 'Water alarm',
    getable: true,
    setable: false,
    titleTrue: 'Water',
    titleFalse: 'Dry',
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  {
    id: 'alarm_battery',
    type: 'boolean',
    title: 'Battery alarm',
    getable: true,
    setable: false,
    titleTrue: 'Low',
    titleFalse: 'OK',
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  {
    id: 'alarm_tamper',
    type: 'boolean',
    title: 'Tamper alarm',
    getable: true,
    setable: false,
    chartType: 'stepLine',
    uiComponent: 'sensor',
  },
  { id: 'button', type: 'boolean', title: 'Button', getable: false, setable: true, uiComponent: 'button' },
  {
    id: 'locked',
    type: 'boolean',
    title: 'Locked',
    getable: true,
    setable: true,
    titleTrue: 'Locked',
    titleFalse: 'Unlocked',
    uiComponent: 'toggle',
  },
  {
    id: 'volume_set',
    type: 'number',
    title: 'Volume',
    getable: true,
    setable: true,
    min: 0,
    max: 1,
    step: 0.01,
    decimals: 2,
    uiComponent: 'slider',
  },
  { id: 'volume_mute', type: 'boolean', title: 'Mute', getable: true, setable: true, uiComponent: 'toggle' },
  { id: 'volume_up', type: 'boolean', title: 'Volume up', getable: false, setable: true, uiComponent: 'button' },
  { id: 'volume_down', type: 'boolean', title: 'Volume down', getable: false, setable: true, uiComponent: 'button' },
  { id: 'channel_up', type: 'boolean', title: 'Next channel', getable: false, setable: true, uiComponent: 'button' },
  { id: 'channel_down', type: 'boolean', title: 'Previous channel', getable: false, setable: true, uiComponent: 'button' },
  { id: 'speaker_playing', type: 'boolean', title: 'Playing', getable: true, setable: true, uiComponent: 'media' },
  { id: 'speaker_track', type: 'string', title: 'Track', getable: true, setable: false, uiComponent: 'media' },
  {
    id: 'windowcoverings_set',
    type: 'number',
    title: 'Position',
    getable: true,
    setable: true,
    min: 0,
    max: 1,
    step: 0.01,
    decimals: 2,
    uiComponent: 'slider',
  },
  {
    id: 'windowcoverings_state',
    type: 'enum',
    title: 'Window coverings state',
    getable: true,
    setable: true,
    uiComponent: 'picker',
    values: [
      { id: 'up', title: 'Up' },
      { id: 'idle', title: 'Idle' },
      { id: 'down', title: 'Down' },
    ],
  },
  {
    id: 'homealarm_state',
    type: 'enum',
    title: 'Home alarm state',
    getable: true,
    setable: true,
    uiComponent: 'picker',
    values: [
      { id: 'armed', title: 'Armed' },
      { id: 'disarmed', title: 'Disarmed' },
      { id: 'partially_armed', title: 'Partially armed' },
    ],
  },
];

/** The capability catalogue, keyed by id: the ecosystem's system capabilities, with Hearth's entries in place. */
export const capabilityCatalogue: ReadonlyMap<string, CapabilityDefinition> = new Map([
  ...ecosystemCapabilities().map((c): [string, CapabilityDefinition] => [c.id, c]),
  ...hearthEntries.map((c): [string, CapabilityDefinition] => [c.id, c]),
]);

/** The catalogue entry of a capability id; sub-capabilities such as `measure_temperature.inside` use their base's. */
export function capabilityDefinition(id: string, own?: AppCapabilities): CapabilityDefinition | undefined {
  const base = id.split('.')[0] ?? id;
  return capabilityCatalogue.get(id) ?? capabilityCatalogue.get(base) ?? own?.get(id) ?? own?.get(base);
}

/** Capabilities an app declares for its own devices (its manifest's `capabilities` block), keyed by id. */
export type AppCapabilities = ReadonlyMap<string, CapabilityDefinition>;

/** The effective definition of a capability on a device: the catalogue's entry with the device's options applied. */
export function effectiveCapability(
  id: string,
  options: CapabilityOptions | undefined,
  own?: AppCapabilities,
): CapabilityDefinition {
  if (own && own.size > 0 && !capabilityDefinition(id)) {
    // An app's own capability: made each time (it goes with its app, so it is not kept with the catalogue's).
    const base = capabilityDefinition(id, own);
    if (!base) throw new Error(`Unknown capability ${id}`);
    return options ? { ...base, ...options, id, values: options.values ?? base.values } : base;
  }
  // Made once per options object (a device record's, kept while the record is) and capability: every write asks.
  const made = options ? (effectiveByOptions.get(options) ?? new Map<string, CapabilityDefinition>()) : effectiveBare;
  if (options && !effectiveByOptions.has(options)) effectiveByOptions.set(options, made);
  const known = made.get(id);
  if (known) return known;
  const base = capabilityDefinition(id);
  if (!base) throw new Error(`Unknown capability ${id}`);
  const effective = Object.freeze({ ...base, ...(options ?? {}), id, values: options?.values ?? base.values });
  made.set(id, effective);
  return effective;
}

const effectiveBare = new Map<string, CapabilityDefinition>();
const effectiveByOptions = new WeakMap<CapabilityOptions, Map<string, CapabilityDefinition>>();

const countDecimals = (n: number): number => {
  const text = String(n);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
};

/**
 * Checks a value against a capability: its type, range, step and enum values. Answers the value to store;
 * throws a 400 that names the `value` field otherwise.
 */
export function validateCapabilityValue(capability: CapabilityDefinition, value: unknown): string | number | boolean | null {
  if (value === null) {
    // null means "unknown" and is how drivers clear a sensor reading; clients may not set it.
    throw invalidParameter('value', `Capability ${capability.id} does not accept null`);
  }
  switch (capability.type) {
    case 'boolean':
      if (typeof value !== 'boolean')
        throw invalidParameter('value', `Capability ${capability.id} expects a boolean, got ${typeof value}`);
      return value;
    case 'string':
      if (typeof value !== 'string')
        throw invalidParameter('value', `Capability ${capability.id} expects a string, got ${typeof value}`);
      if (value.length > 1024) throw invalidParameter('value', `Capability ${capability.id} accepts at most 1024 characters`);
      return value;
    case 'enum': {
      const ids = (capability.values ?? []).map((v) => v.id);
      if (typeof value !== 'string' || !ids.includes(value)) {
        throw invalidParameter(
          'value',
          `Capability ${capability.id} expects one of ${ids.join(', ')}, got ${JSON.stringify(value)}`,
        );
      }
      return value;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw invalidParameter('value', `Capability ${capability.id} expects a number, got ${typeof value}`);
      }
      if (capability.min !== undefined && value < capability.min) {
        throw invalidParameter('value', `Capability ${capability.id} must be at least ${capability.min}, got ${value}`);
      }
      if (capability.max !== undefined && value > capability.max) {
        throw invalidParameter('value', `Capability ${capability.id} must be at most ${capability.max}, got ${value}`);
      }
      if (capability.step !== undefined && capability.step > 0) {
        const from = capability.min ?? 0;
        const steps = (value - from) / capability.step;
        // Tolerate binary floating-point noise (0.1 + 0.2) but not values between steps.
        if (Math.abs(steps - Math.round(steps)) > 1e-6) {
          throw invalidParameter('value', `Capability ${capability.id} moves in steps of ${capability.step}, got ${value}`);
        }
        const digits = Math.max(countDecimals(capability.step), countDecimals(from));
        return Number((from + Math.round(steps) * capability.step).toFixed(digits));
      }
      return value;
    }
  }
}

/** The public view of a catalogue entry (`GET /capability`). */
export function capabilityView(capability: CapabilityDefinition): Record<string, unknown> {
  const { uiComponent: _ui, ...rest } = capability;
  return rest;
}
