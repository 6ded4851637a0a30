import type { DeviceItem } from '@hearth/contract';
import { currentLanguage } from '@hearth/i18n';
import { format, i18n, strings } from '../../app/strings';

export type Device = DeviceItem & {
  unavailableMessage?: string | null;
  ui?: { quickAction?: string; components?: unknown[] };
};
export type Capability = Device['capabilitiesObj'][string] & {
  units?: string;
  min?: number;
  max?: number;
  step?: number;
  decimals?: number;
  /** An enum capability's values: the id stored, the title people read (a string, or one per language). */
  values?: { id: string; title: string | Record<string, string> }[];
};

/** A title as the app shows it: of a title given per language, the current language's, else the English, else the first. */
const titleText = (title: string | Record<string, string>): string =>
  typeof title === 'string' ? title : (title[currentLanguage(i18n)] ?? title.en ?? Object.values(title)[0] ?? '');

/** The one control a tile offers for a device: the device's quick action, else the first capability a class taps. */
export function quickControl(device: Device): Capability | null {
  const caps = device.capabilitiesObj ?? {};
  const preferred = [device.ui?.quickAction, 'onoff', 'locked', 'button', 'target_temperature', 'dim', 'windowcoverings_state'];
  for (const id of preferred) {
    const cap = id ? caps[id] : undefined;
    if (cap?.setable) return cap;
  }
  return null;
}

/** A value as a person reads it: units, booleans in words, numbers with the capability's decimals. */
export function formatValue(cap: Capability): string {
  const { value } = cap;
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') {
    const words = strings.values;
    if (cap.id.startsWith('alarm_')) return value ? words.alarm : words.ok;
    if (cap.id === 'locked') return value ? words.locked : words.unlocked;
    return value ? words.on : words.off;
  }
  if (cap.type === 'enum') {
    const known = cap.values?.find((option) => option.id === value);
    return known ? titleText(known.title) : String(value);
  }
  if (typeof value === 'number') {
    // A share kept as a fraction (0–1: dim, fan_speed, valve_position, … of the catalogue) reads as a percentage.
    const fraction = cap.id === 'dim' || cap.id === 'windowcoverings_set' || (cap.units === '%' && cap.max === 1);
    if (fraction || cap.units === '%') return `${format.number(Math.round(fraction ? value * 100 : value))} %`;
    const decimals = typeof cap.decimals === 'number' ? cap.decimals : Number.isInteger(value) ? 0 : 1;
    const text = format.number(value, { maximumFractionDigits: decimals, minimumFractionDigits: 0 });
    return cap.units ? `${text} ${cap.units}` : text;
  }
  return String(value);
}

/**
 * The read-outs a tile shows: sensors and alarms, a light's dim level (its switch is the tile's control, the level
 * is what people look for next), then the rest that cannot be set, at most three.
 */
export function readouts(device: Device): Capability[] {
  const caps = Object.values(device.capabilitiesObj ?? {}) as Capability[];
  const sensor = (cap: Capability) => cap.id.startsWith('measure_') || cap.id.startsWith('meter_') || cap.id.startsWith('alarm_');
  const level = (cap: Capability) => cap.id === 'dim' && cap.getable;
  return [
    ...caps.filter(sensor),
    ...caps.filter(level),
    ...caps.filter((cap) => !sensor(cap) && !level(cap) && !cap.setable && cap.getable),
  ].slice(0, 3);
}
