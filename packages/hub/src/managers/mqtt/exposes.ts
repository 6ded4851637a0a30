import type { CapabilityValue } from '../../core/bus';

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
  | { readonly capabilityId: string; readonly property: string; readonly kind: 'number'; readonly factor: number };

export interface DeviceShape {
  readonly class: string;
  readonly mappings: CapabilityMapping[];
  /** The capabilities the device may be written through (access bit 2, "set"). */
  readonly setable: string[];
  /** The property a remote or button reports its presses in (`action`), which fires the bridge's flow trigger. */
  readonly action: { readonly property: string; readonly values: string[] } | null;
}

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
  let kind: 'light' | 'switch' | null = null;
  let action: DeviceShape['action'] = null;
  const add = (mapping: CapabilityMapping, access: unknown) => {
    if (taken.has(mapping.capabilityId)) return;
    taken.add(mapping.capabilityId);
    mappings.push(mapping);
    if (typeof access === 'number' && (access & ACCESS_SET) !== 0) setable.push(mapping.capabilityId);
  };
  const feature = (entry: Expose, parent: 'light' | 'switch' | null) => {
    const name = text(entry.name);
    const property = text(entry.property);
    if (!name || !property) return;
    if (parent && name === 'state' && entry.type === 'binary') {
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
    if ((entry.type === 'light' || entry.type === 'switch') && Array.isArray(entry.features)) {
      kind ??= entry.type;
      for (const inner of entry.features) if (isObject(inner)) feature(inner, entry.type);
      continue;
    }
    if (entry.type === 'enum' && entry.name === 'action' && text(entry.property)) {
      const values = Array.isArray(entry.values) ? entry.values.filter((v): v is string => typeof v === 'string') : [];
      action = { property: String(entry.property), values };
      continue;
    }
    feature(entry, null);
  }
  const cls =
    kind === 'light' ? 'light' : kind === 'switch' ? 'socket' : action ? 'remote' : mappings.length > 0 ? 'sensor' : 'other';
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
    if (raw === null) continue;
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
    else if (mapping.kind === 'scaled')
      payload[mapping.property] = Math.round(mapping.min + Number(value) * (mapping.max - mapping.min));
    else payload[mapping.property] = value;
  }
  return payload;
}
