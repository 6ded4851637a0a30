import type { CapabilityValue } from '../../core/bus';

/**
 * How a Homie property (convention 4.0: `$datatype`, `$settable`, `$unit`, `$format`) maps to a capability, and how its
 * string payloads read and write.
 */
export interface HomieMapping {
  capabilityId: string;
  /** `<node>/<property>`: its value topic under the device, and `/set` after it for writes. */
  path: string;
  kind: 'boolean' | 'number' | 'scaled';
  /** A `scaled` property's range (its `$format` `min:max`); the capability holds 0..1 over it. */
  min?: number;
  max?: number;
  /** The device reports °F: the capability holds °C. */
  fahrenheit?: boolean;
  integer?: boolean;
  setable: boolean;
}

export interface HomieShape {
  class: string;
  mappings: HomieMapping[];
}

/** A property's attributes as the device published them (`$datatype` …) and its id. */
export interface HomieProperty {
  node: string;
  id: string;
  attributes: Readonly<Record<string, string>>;
}

const NUMERIC_BY_UNIT: Readonly<Record<string, string>> = {
  '°C': 'measure_temperature',
  '°F': 'measure_temperature',
  W: 'measure_power',
  kWh: 'meter_power',
  V: 'measure_voltage',
  A: 'measure_current',
  lx: 'measure_luminance',
  ppm: 'measure_co2',
  hPa: 'measure_pressure',
};

const ALARMS: readonly [RegExp, string][] = [
  [/motion|occupancy|presence/, 'alarm_motion'],
  [/contact|door|window|open/, 'alarm_contact'],
  [/water|leak|flood/, 'alarm_water'],
  [/smoke/, 'alarm_smoke'],
];

/** The capability a property maps to (before an endpoint suffix), or `null` when Hearth has none for it. */
function capabilityOf(property: HomieProperty): (Omit<HomieMapping, 'capabilityId' | 'path'> & { base: string }) | null {
  const { datatype, unit, format, settable } = {
    datatype: property.attributes.$datatype ?? 'string',
    unit: property.attributes.$unit ?? '',
    format: property.attributes.$format ?? '',
    settable: property.attributes.$settable === 'true',
  };
  const name = `${property.id} ${property.attributes.$name ?? ''}`.toLowerCase();
  const numeric = datatype === 'integer' || datatype === 'float';
  if (datatype === 'boolean') {
    if (settable) return { base: 'onoff', kind: 'boolean', setable: true };
    const alarm = ALARMS.find(([pattern]) => pattern.test(name));
    return alarm ? { base: alarm[1], kind: 'boolean', setable: false } : null;
  }
  if (!numeric) return null;
  const integer = datatype === 'integer';
  // `min:max`, and 5.0's `min:max:step`.
  const range = /^(-?[\d.]+):(-?[\d.]+)(?::[\d.]+)?$/.exec(format);
  if (settable && (unit === '%' || /bright|dim|level/.test(name))) {
    const min = range ? Number(range[1]) : 0;
    const max = range ? Number(range[2]) : 100;
    return max > min ? { base: 'dim', kind: 'scaled', min, max, integer, setable: true } : null;
  }
  if (unit === '%' && /humid/.test(name)) return { base: 'measure_humidity', kind: 'number', integer, setable: false };
  if (unit === '%' && /batt/.test(name)) return { base: 'measure_battery', kind: 'number', integer, setable: false };
  if (settable && /^°[CF]$/.test(unit) && /target|set/.test(name))
    return { base: 'target_temperature', kind: 'number', fahrenheit: unit === '°F', integer, setable: true };
  const measure = NUMERIC_BY_UNIT[unit];
  return measure ? { base: measure, kind: 'number', fahrenheit: unit === '°F', integer, setable: false } : null;
}

/** The capabilities of a Homie device's properties; a second property of one kind is `<capability>.<node>_<property>`. */
export function homieShape(properties: readonly HomieProperty[]): HomieShape {
  const mappings: HomieMapping[] = [];
  const taken = new Set<string>();
  for (const property of properties) {
    const found = capabilityOf(property);
    if (!found) continue;
    const { base, ...rest } = found;
    const capabilityId = taken.has(base) ? `${base}.${`${property.node}_${property.id}`.replace(/[^a-z0-9_]/gi, '_')}` : base;
    taken.add(capabilityId);
    mappings.push({ ...rest, capabilityId, path: `${property.node}/${property.id}` });
  }
  const has = (id: string) => taken.has(id);
  const deviceClass = has('dim') ? 'light' : has('onoff') ? 'socket' : has('target_temperature') ? 'thermostat' : 'sensor';
  return { class: deviceClass, mappings };
}

/** A value payload as the capability holds it, or `undefined` when it is not of the property's type. */
export function readHomieValue(mapping: HomieMapping, payload: string): CapabilityValue | undefined {
  if (mapping.kind === 'boolean') return payload === 'true' ? true : payload === 'false' ? false : undefined;
  if (payload.trim() === '') return undefined;
  const number = Number(payload);
  if (!Number.isFinite(number)) return undefined;
  if (mapping.kind === 'scaled') {
    const { min = 0, max = 100 } = mapping;
    return Math.min(1, Math.max(0, (number - min) / (max - min)));
  }
  return mapping.fahrenheit ? Math.round((((number - 32) * 5) / 9) * 100) / 100 : number;
}

/** What a write publishes to `<property>/set`. */
export function homiePayload(mapping: HomieMapping, value: CapabilityValue): string {
  if (mapping.kind === 'boolean') return value ? 'true' : 'false';
  let number = Number(value);
  if (mapping.kind === 'scaled') number = (mapping.min ?? 0) + number * ((mapping.max ?? 100) - (mapping.min ?? 0));
  else if (mapping.fahrenheit) number = (number * 9) / 5 + 32;
  return String(mapping.integer ? Math.round(number) : Math.round(number * 100) / 100);
}
