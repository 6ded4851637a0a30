import type { CapabilityValue } from '../../core/bus';
import { type HaRead, type HaWrite, isObject } from './discovery';
import { renderTemplate } from './ha-template';

/**
 * Values and commands of discovered entities: what a message on a state topic sets a capability to, and the
 * messages that set capabilities (colours as `r,g,b`/`h,s` text or JSON, positions and levels in the device's range).
 */

/** The capability value a message on `read.topic` carries; `missing`: the message has none for it (no fault). */
export function readValue(read: HaRead, payload: string): { value: CapabilityValue } | { problem: string } | { missing: true } {
  const [template, part] = read.template?.includes('#') ? splitPart(read.template) : [read.template, undefined];
  const rendered = renderTemplate(template === '{{ value }}' ? undefined : template, payload);
  if (!rendered.ok) return rendered.missing ? { missing: true } : { problem: rendered.problem };
  let raw = rendered.value;
  if (part !== undefined) raw = String(raw).split(',')[part]?.trim();
  const { conversion } = read;
  switch (conversion.kind) {
    case 'binary': {
      const seen = typeof raw === 'string' ? raw : JSON.stringify(raw);
      if (seen === String(conversion.on) || raw === conversion.on) return { value: true };
      if (seen === String(conversion.off) || raw === conversion.off) return { value: false };
      return { problem: `${JSON.stringify(raw)} is neither on (${String(conversion.on)}) nor off (${String(conversion.off)})` };
    }
    case 'enum': {
      const word = typeof raw === 'string' ? raw : JSON.stringify(raw);
      const value = conversion.values[word];
      if (value !== undefined) return { value };
      if (conversion.passing.includes(word)) return { missing: true };
      return { problem: `${JSON.stringify(raw)} is none of ${Object.keys(conversion.values).join(', ')}` };
    }
    case 'cover': {
      const word = String(raw);
      return { value: word === conversion.opening ? 'up' : word === conversion.closing ? 'down' : 'idle' };
    }
    case 'rgb': {
      const rgb = rgbOf(raw);
      if (!rgb) return { problem: `${JSON.stringify(raw)} is not an r,g,b colour` };
      const [hue, saturation] = hueSaturation(rgb);
      return { value: round2(conversion.part === 'hue' ? hue : saturation) };
    }
    default: {
      const number = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(number)) return { problem: `${JSON.stringify(raw)} is not a number` };
      if (conversion.kind === 'number')
        return { value: Math.round((number * conversion.factor + conversion.offset) * 1e6) / 1e6 };
      const scaled = (number - conversion.min) / (conversion.max - conversion.min);
      return { value: round2(Math.min(1, Math.max(0, scaled))) };
    }
  }
}

function splitPart(template: string): [string, number] {
  const at = template.lastIndexOf('#');
  return [template.slice(0, at), Number(template.slice(at + 1))];
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function rgbOf(raw: unknown): [number, number, number] | null {
  const parts = isObject(raw)
    ? [raw.r, raw.g, raw.b]
    : typeof raw === 'string'
      ? raw.split(',').map((p) => Number(p.trim()))
      : [];
  if (parts.length !== 3 || !parts.every((p) => typeof p === 'number' && Number.isFinite(p))) return null;
  return parts as [number, number, number];
}

/** Hue and saturation (0..1) of an sRGB colour, as the HSV model has them. */
export function hueSaturation([r, g, b]: [number, number, number]): [number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  if (max === 0 || delta === 0) return [0, 0];
  const sector = max === r ? ((g - b) / delta + 6) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return [sector / 6, delta / max];
}

/** The full-brightness sRGB colour of a hue and saturation (0..1). */
export function rgbOfHueSaturation(hue: number, saturation: number): [number, number, number] {
  const channel = (n: number) => {
    const k = (n + hue * 6) % 6;
    return Math.round(255 * (1 - saturation * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [channel(5), channel(3), channel(1)];
}

/** The hue and saturation a colour command carries: those written, the others as the light has them. */
function colourWritten(
  capabilityId: string,
  values: Readonly<Record<string, CapabilityValue>>,
  current: (capabilityId: string) => CapabilityValue | undefined,
): [number, number] {
  const hueId = capabilityId.replace('light_saturation', 'light_hue');
  const saturationId = capabilityId.replace('light_hue', 'light_saturation');
  return [Number(values[hueId] ?? current(hueId) ?? 0), Number(values[saturationId] ?? current(saturationId) ?? 1)];
}

/**
 * The value a device reports after a command that set `capabilityId` to `values[capabilityId]`: the command's value
 * as the device's units and rounding give it back (a temperature to its precision; a hue through an r,g,b colour,
 * where a white colour has no hue).
 */
export function reportedAfter(
  read: HaRead,
  write: HaWrite,
  values: Readonly<Record<string, CapabilityValue>>,
  current: (capabilityId: string) => CapabilityValue | undefined,
): CapabilityValue | undefined {
  const value = values[read.capabilityId];
  if (value === undefined) return undefined;
  if (write.kind === 'number' && read.conversion.kind === 'number') {
    const device = Math.round((Number(value) - write.offset) / write.factor / write.precision) * write.precision;
    return Math.round((device * read.conversion.factor + read.conversion.offset) * 1e6) / 1e6;
  }
  if (read.conversion.kind === 'rgb') {
    const [hue, saturation] = hueSaturation(rgbOfHueSaturation(...colourWritten(read.capabilityId, values, current)));
    return round2(read.conversion.part === 'hue' ? hue : saturation);
  }
  return value;
}

/** The messages that set `values` (hue and saturation are written together, the other from `current`). */
export function commandsFor(
  writes: readonly HaWrite[],
  values: Readonly<Record<string, CapabilityValue>>,
  current: (capabilityId: string) => CapabilityValue | undefined,
): { topic: string; payload: string }[] {
  const commands: { topic: string; payload: string }[] = [];
  const json = new Map<string, Record<string, unknown>>();
  const colour = (write: HaWrite & { format: 'rgb' | 'hs' }) => {
    const [hue, saturation] = colourWritten(write.capabilityId, values, current);
    return write.format === 'hs'
      ? { h: Math.round(hue * 360), s: Math.round(saturation * 100) }
      : Object.fromEntries(rgbOfHueSaturation(hue, saturation).map((v, i) => [['r', 'g', 'b'][i], v]));
  };
  const done = new Set<string>();
  for (const [capabilityId, value] of Object.entries(values)) {
    const write = writes.find((w) => w.capabilityId === capabilityId);
    if (!write) throw new Error(`The device takes no command for ${capabilityId}`);
    switch (write.kind) {
      case 'binary':
        commands.push({ topic: write.topic, payload: value === true ? write.on : write.off });
        break;
      case 'scaled':
        commands.push({ topic: write.topic, payload: String(Math.round(write.min + Number(value) * (write.max - write.min))) });
        break;
      case 'number': {
        const device = (Number(value) - write.offset) / write.factor;
        const rounded = Math.round(Math.round(device / write.precision) * write.precision * 1e6) / 1e6;
        commands.push({ topic: write.topic, payload: String(rounded) });
        break;
      }
      case 'press':
        commands.push({ topic: write.topic, payload: write.payload });
        break;
      case 'enum': {
        const payload = write.payloads[String(value)];
        if (payload === undefined) throw new Error(`The device takes no command for ${capabilityId}=${String(value)}`);
        commands.push({ topic: write.topic, payload });
        break;
      }
      case 'color': {
        if (done.has(write.topic)) break;
        done.add(write.topic);
        const c = colour(write);
        commands.push({ topic: write.topic, payload: 'h' in c ? `${c.h},${c.s}` : `${c.r},${c.g},${c.b}` });
        break;
      }
      case 'json': {
        const body = json.get(write.topic) ?? {};
        json.set(write.topic, body);
        if (write.field === 'state') body.state = value === true ? 'ON' : 'OFF';
        else if (write.field === 'color') body.color = colour(write);
        else body[write.field] = Math.round(write.min + Number(value) * (write.max - write.min));
        // A brightness command turns the light on too, as HA's JSON lights do.
        if (write.field === 'brightness' && !('state' in body)) body.state = 'ON';
        break;
      }
    }
  }
  for (const [topic, body] of json) commands.push({ topic, payload: JSON.stringify(body) });
  return commands;
}
