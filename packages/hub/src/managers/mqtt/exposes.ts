import type { CapabilityValue } from '../../core/bus';
import { hueSaturation } from './ha-values';

/**
 * zigbee2mqtt's `exposes` (its documentation, "Exposes"): what a device publishes in its state message and accepts
 * on `<friendly_name>/set`, and how Hearth's capabilities map onto it. Pure functions: the bridge stores the
 * mapping made here on the device (`store.mapping`), so a state message or a write needs no second look at the
 * device's definition.
 */

/** One entry of `exposes` (generic types carry `property`; specific ones such as `light` carry `features`). */
export interface Expose {
  readonly type?: unknown;
  readonly name?: unknown;
  readonly property?: unknown;
  readonly endpoint?: unknown;
  readonly access?: unknown;
  readonly value_on?: unknown;
  readonly value_off?: unknown;
  readonly value_min?: unknown;
  readonly value_max?: unknown;
  readonly unit?: unknown;
  readonly values?: unknown;
  readonly features?: unknown;
}

/** How one capability reads and writes one property of the device's state. */
export type CapabilityMapping =
  | {
      readonly capabilityId: string;
      readonly property: string;
      readonly kind: 'binary';
      readonly on: unknown;
      readonly off: unknown;
    }
  /** A number scaled to 0..1 from `min`..`max` (brightness, colour temperature in mired). */
  | {
      readonly capabilityId: string;
      readonly property: string;
      readonly kind: 'scaled';
      readonly min: number;
      readonly max: number;
    }
  /** A number in the capability's unit once multiplied by `factor` (a battery's mV, a meter's Wh). */
  | { readonly capabilityId: string; readonly property: string; readonly kind: 'number'; readonly factor: number }
  /** Written only, as one of `payloads` by the capability's value (a cover's OPEN/CLOSE/STOP); no state echoes it. */
  | {
      readonly capabilityId: string;
      readonly property: string;
      readonly kind: 'command';
      readonly payloads: Record<string, string>;
    }
  /** Hue or saturation of `color` (`{hue, saturation}` in degrees and percent, or only `{x, y}`). */
  | { readonly capabilityId: string; readonly property: string; readonly kind: 'color'; readonly part: 'hue' | 'saturation' };

export interface DeviceShape {
  readonly class: string;
  readonly mappings: CapabilityMapping[];
  /** The capabilities the device may be written through (access bit 2, "set"). */
  readonly setable: string[];
  /** The property a remote or button reports its presses in (`action`), which fires the bridge's flow trigger. */
  readonly action: { readonly property: string; readonly values: string[] } | null;
}

/** The specific expose types whose `features` make one hub device of their class. */
const PARENTS = ['light', 'switch', 'cover', 'climate', 'lock'] as const;
type Parent = (typeof PARENTS)[number];
const PARENT_CLASS: Readonly<Record<Parent, string>> = {
  light: 'light',
  switch: 'socket',
  cover: 'windowcoverings',
  climate: 'thermostat',
  lock: 'lock',
};

/** zigbee2mqtt's access bits: published in the state message, settable, gettable. */
const ACCESS_SET = 2;

const NUMERIC: Readonly<Record<string, string>> = {
  temperature: 'measure_temperature',
  humidity: 'measure_humidity',
  battery: 'measure_battery',
  power: 'measure_power',
  energy: 'meter_power',
  voltage: 'measure_voltage',
  current: 'measure_current',
  illuminance_lux: 'measure_luminance',
  co2: 'measure_co2',
};

/** Binary sensors: the capability is true when the property equals the expose's `value_on` (contact: `false`). */
const BINARY: Readonly<Record<string, string>> = {
  contact: 'alarm_contact',
  occupancy: 'alarm_motion',
  water_leak: 'alarm_water',
  smoke: 'alarm_smoke',
  tamper: 'alarm_tamper',
  battery_low: 'alarm_battery',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A capability of an endpoint is a sub-capability (`onoff.l1`), as a device may have several of one kind. */
const withEndpoint = (capabilityId: string, endpoint: unknown) =>
  text(endpoint) && /^[a-z0-9_]+$/i.test(String(endpoint)) ? `${capabilityId}.${endpoint}` : capabilityId;

/**
 * The hub device of a zigbee2mqtt device: its class and the capabilities its `exposes` map to. Entries Hearth has
 * no capability for (colour, effects, device settings) are left out.
 */
export function shapeOf(exposes: unknown): DeviceShape {
  const mappings: CapabilityMapping[] = [];
  const setable: string[] = [];
  const taken = new Set<string>();
  let kind: Parent | null = null;
  let action: DeviceShape['action'] = null;
  const add = (mapping: CapabilityMapping, access: unknown) => {
    if (taken.has(mapping.capabilityId)) return;
    taken.add(mapping.capabilityId);
    mappings.push(mapping);
    if (typeof access === 'number' && (access & ACCESS_SET) !== 0) setable.push(mapping.capabilityId);
  };
  const feature = (entry: Expose, parent: Parent | null) => {
    const name = text(entry.name);
    const property = text(entry.property);
    if (!name || !property) return;
    if (parent === 'lock' && name === 'state' && entry.type === 'binary') {
      const mapping = { capabilityId: withEndpoint('locked', entry.endpoint), property, kind: 'binary' } as const;
      add({ ...mapping, on: entry.value_on ?? 'LOCK', off: entry.value_off ?? 'UNLOCK' }, entry.access);
      return;
    }
    if (parent === 'cover' && name === 'state') {
      const payloads = { up: 'OPEN', down: 'CLOSE', idle: 'STOP' };
      add(
        { capabilityId: withEndpoint('windowcoverings_state', entry.endpoint), property, kind: 'command', payloads },
        entry.access,
      );
      return;
    }
    if (parent === 'cover' && name === 'position' && entry.type === 'numeric') {
      const capabilityId = withEndpoint('windowcoverings_set', entry.endpoint);
      add(
        { capabilityId, property, kind: 'scaled', min: num(entry.value_min) ?? 0, max: num(entry.value_max) ?? 100 },
        entry.access,
      );
      return;
    }
    if (
      parent === 'climate' &&
      entry.type === 'numeric' &&
      (name === 'occupied_heating_setpoint' || name === 'current_heating_setpoint')
    ) {
      add(
        { capabilityId: withEndpoint('target_temperature', entry.endpoint), property, kind: 'number', factor: 1 },
        entry.access,
      );
      return;
    }
    if (parent === 'climate' && entry.type === 'numeric' && name === 'local_temperature') {
      add({ capabilityId: withEndpoint('measure_temperature', entry.endpoint), property, kind: 'number', factor: 1 }, 0);
      return;
    }
    if (parent === 'light' && entry.type === 'composite' && (name === 'color_hs' || name === 'color_xy')) {
      for (const part of ['hue', 'saturation'] as const)
        add({ capabilityId: withEndpoint(`light_${part}`, entry.endpoint), property, kind: 'color', part }, entry.access);
      return;
    }
    if ((parent === 'light' || parent === 'switch') && name === 'state' && entry.type === 'binary') {
      add(
        {
          capabilityId: withEndpoint('onoff', entry.endpoint),
          property,
          kind: 'binary',
          on: entry.value_on,
          off: entry.value_off,
        },
        entry.access,
      );
      return;
    }
    if (parent === 'light' && entry.type === 'numeric' && (name === 'brightness' || name === 'color_temp')) {
      const min = num(entry.value_min) ?? (name === 'brightness' ? 0 : 150);
      const max = num(entry.value_max) ?? (name === 'brightness' ? 254 : 500);
      if (max <= min) return;
      const capabilityId = withEndpoint(name === 'brightness' ? 'dim' : 'light_temperature', entry.endpoint);
      add({ capabilityId, property, kind: 'scaled', min, max }, entry.access);
      return;
    }
    // zigbee2mqtt 2.x reports `illuminance` in lux; 1.x in a raw unit, with lux in `illuminance_lux`.
    if (entry.type === 'numeric' && name === 'illuminance' && entry.unit === 'lx') {
      add({ capabilityId: withEndpoint('measure_luminance', entry.endpoint), property, kind: 'number', factor: 1 }, 0);
      return;
    }
    if (entry.type === 'numeric' && NUMERIC[name]) {
      const factor = entry.unit === 'mV' || entry.unit === 'mA' || entry.unit === 'Wh' ? 0.001 : 1;
      add({ capabilityId: withEndpoint(NUMERIC[name], entry.endpoint), property, kind: 'number', factor }, 0);
      return;
    }
    if (entry.type === 'binary' && BINARY[name]) {
      add(
        {
          capabilityId: withEndpoint(BINARY[name], entry.endpoint),
          property,
          kind: 'binary',
          on: entry.value_on ?? true,
          off: entry.value_off ?? false,
        },
        0,
      );
    }
  };
  for (const entry of Array.isArray(exposes) ? exposes : []) {
    if (!isObject(entry)) continue;
    const parent = PARENTS.find((p) => p === entry.type);
    if (parent && Array.isArray(entry.features)) {
      kind ??= parent;
      for (const inner of entry.features) if (isObject(inner)) feature(inner, parent);
      continue;
    }
    if (entry.type === 'enum' && entry.name === 'action' && text(entry.property)) {
      const values = Array.isArray(entry.values) ? entry.values.filter((v): v is string => typeof v === 'string') : [];
      action = { property: String(entry.property), values };
      continue;
    }
    feature(entry, null);
  }
  const cls = kind ? PARENT_CLASS[kind] : action ? 'remote' : mappings.length > 0 ? 'sensor' : 'other';
  return { class: cls, mappings, setable, action };
}

/** The capability values a state message carries; a property of the wrong type is reported in `problems`. */
export function valuesFromState(
  mappings: readonly CapabilityMapping[],
  state: Readonly<Record<string, unknown>>,
): { values: Record<string, CapabilityValue>; problems: string[] } {
  const values: Record<string, CapabilityValue> = {};
  const problems: string[] = [];
  for (const mapping of mappings) {
    if (!(mapping.property in state)) continue;
    const raw = state[mapping.property];
    if (raw === null || mapping.kind === 'command') continue;
    if (mapping.kind === 'color') {
      const part = colorPart(raw, mapping.part);
      if (part === undefined) problems.push(`${mapping.property}: ${JSON.stringify(raw)} is not a colour`);
      else values[mapping.capabilityId] = part;
      continue;
    }
    if (mapping.kind === 'binary') {
      if (raw === mapping.on) values[mapping.capabilityId] = true;
      else if (raw === mapping.off) values[mapping.capabilityId] = false;
      else problems.push(`${mapping.property}: ${JSON.stringify(raw)} is neither on nor off`);
      continue;
    }
    const number = num(raw);
    if (number === undefined) {
      problems.push(`${mapping.property}: expected a number, got ${typeof raw}`);
      continue;
    }
    if (mapping.kind === 'number') values[mapping.capabilityId] = Math.round(number * mapping.factor * 1e6) / 1e6;
    else {
      const scaled = (number - mapping.min) / (mapping.max - mapping.min);
      // In the 0.01 steps dim and light_temperature move in.
      values[mapping.capabilityId] = Math.round(Math.min(1, Math.max(0, scaled)) * 100) / 100;
    }
  }
  return { values, problems };
}

/** What goes to `<friendly_name>/set` for capability values checked by the device-control path. */
export function setPayload(
  mappings: readonly CapabilityMapping[],
  values: Readonly<Record<string, CapabilityValue>>,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [capabilityId, value] of Object.entries(values)) {
    const mapping = mappings.find((m) => m.capabilityId === capabilityId);
    if (!mapping) throw new Error(`The device has no zigbee2mqtt property for ${capabilityId}`);
    if (mapping.kind === 'binary') payload[mapping.property] = value === true ? mapping.on : mapping.off;
    else if (mapping.kind === 'command') payload[mapping.property] = mapping.payloads[String(value)];
    else if (mapping.kind === 'color') {
      // zigbee2mqtt takes hue and saturation for every colour light, xy ones included; the other part stays.
      const color = (payload[mapping.property] ?? {}) as Record<string, number>;
      color[mapping.part] = Math.round(Number(value) * (mapping.part === 'hue' ? 360 : 100));
      payload[mapping.property] = color;
    } else if (mapping.kind === 'scaled')
      payload[mapping.property] = Math.round(mapping.min + Number(value) * (mapping.max - mapping.min));
    else payload[mapping.property] = value;
  }
  return payload;
}

/** Hue or saturation (0..1) of zigbee2mqtt's `color`: from `hue`/`saturation` when given, else from CIE `x`/`y`. */
function colorPart(raw: unknown, part: 'hue' | 'saturation'): number | undefined {
  if (!isObject(raw)) return undefined;
  const given = num(part === 'hue' ? raw.hue : raw.saturation);
  if (given !== undefined) return Math.round((given / (part === 'hue' ? 360 : 100)) * 100) / 100;
  const x = num(raw.x);
  const y = num(raw.y);
  if (x === undefined || y === undefined || y <= 0) return undefined;
  const [hue, saturation] = hueSaturation(rgbOfXy(x, y));
  return Math.round((part === 'hue' ? hue : saturation) * 100) / 100;
}

/** sRGB (linear, normalised to the brightest channel) of a CIE 1931 xy chromaticity at full luminance. */
function rgbOfXy(x: number, y: number): [number, number, number] {
  const X = x / y;
  const Z = (1 - x - y) / y;
  const rgb = [3.2406 * X - 1.5372 - 0.4986 * Z, -0.9689 * X + 1.8758 + 0.0415 * Z, 0.0557 * X - 0.204 + 1.057 * Z].map((c) =>
    Math.max(0, c),
  );
  const max = Math.max(...rgb, 1e-9);
  return rgb.map((c) => c / max) as [number, number, number];
}
