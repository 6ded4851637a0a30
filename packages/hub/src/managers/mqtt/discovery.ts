import type { CapabilityValue } from '../../core/bus';
import type { CapabilityOptions } from '../../runtime/capabilities';
import { button, type ComponentParts, climate, deviceTrigger, fan, lock } from './ha-components';
import { isObject, num, payloadText, text } from './ha-config';

export { isObject };

/**
 * Home Assistant's MQTT discovery (its documentation, "MQTT Discovery" and the per-component pages): a retained
 * JSON config on `homeassistant/<component>/[<node_id>/]<object_id>/config` describes one entity — where its
 * state is published, where it takes commands, with which payloads. Pure functions: the bridge stores the entity
 * made here on the hub device (`store.entities`), so a state message or a write needs no second look at the config.
 */

/** The abbreviated keys Tasmota, ESPHome and others send, for the keys Hearth reads. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  atype: 'automation_type',
  avty: 'availability',
  avty_mode: 'availability_mode',
  avty_t: 'availability_topic',
  avty_tpl: 'availability_template',
  bri: 'brightness',
  bri_cmd_t: 'brightness_command_topic',
  bri_scl: 'brightness_scale',
  bri_stat_t: 'brightness_state_topic',
  bri_val_tpl: 'brightness_value_template',
  clr_temp: 'color_temp',
  clr_temp_cmd_t: 'color_temp_command_topic',
  clr_temp_stat_t: 'color_temp_state_topic',
  clr_temp_val_tpl: 'color_temp_value_template',
  cmd_t: 'command_topic',
  curr_temp_t: 'current_temperature_topic',
  curr_temp_tpl: 'current_temperature_template',
  dev: 'device',
  dev_cla: 'device_class',
  hs_cmd_t: 'hs_command_topic',
  hs_stat_t: 'hs_state_topic',
  hs_val_tpl: 'hs_value_template',
  max_mirs: 'max_mireds',
  min_mirs: 'min_mireds',
  mode_cmd_t: 'mode_command_topic',
  mode_stat_t: 'mode_state_topic',
  mode_stat_tpl: 'mode_state_template',
  opt: 'optimistic',
  pct_cmd_t: 'percentage_command_topic',
  pct_stat_t: 'percentage_state_topic',
  pct_val_tpl: 'percentage_value_template',
  pl: 'payload',
  pl_avail: 'payload_available',
  pl_cls: 'payload_close',
  pl_lock: 'payload_lock',
  pl_not_avail: 'payload_not_available',
  pl_off: 'payload_off',
  pl_on: 'payload_on',
  pl_open: 'payload_open',
  pl_prs: 'payload_press',
  pl_stop: 'payload_stop',
  pl_unlk: 'payload_unlock',
  pos_clsd: 'position_closed',
  pos_open: 'position_open',
  pos_t: 'position_topic',
  pos_tpl: 'position_template',
  prec: 'precision',
  rgb_cmd_t: 'rgb_command_topic',
  rgb_stat_t: 'rgb_state_topic',
  rgb_val_tpl: 'rgb_value_template',
  set_pos_t: 'set_position_topic',
  spd_rng_max: 'speed_range_max',
  spd_rng_min: 'speed_range_min',
  stat_clsd: 'state_closed',
  stat_closing: 'state_closing',
  stat_locked: 'state_locked',
  stat_off: 'state_off',
  stat_on: 'state_on',
  stat_open: 'state_open',
  stat_opening: 'state_opening',
  stat_stopped: 'state_stopped',
  stat_t: 'state_topic',
  stat_unlocked: 'state_unlocked',
  stat_val_tpl: 'state_value_template',
  stype: 'subtype',
  sup_clrm: 'supported_color_modes',
  t: 'topic',
  temp_cmd_t: 'temperature_command_topic',
  temp_stat_t: 'temperature_state_topic',
  temp_stat_tpl: 'temperature_state_template',
  temp_unit: 'temperature_unit',
  uniq_id: 'unique_id',
  unit_of_meas: 'unit_of_measurement',
  val_tpl: 'value_template',
};
const DEVICE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ids: 'identifiers',
  mf: 'manufacturer',
  mdl: 'model',
  sw: 'sw_version',
  sa: 'suggested_area',
};

/** The components Hearth makes capabilities of. */
export const COMPONENTS = [
  'switch',
  'light',
  'sensor',
  'binary_sensor',
  'cover',
  'climate',
  'lock',
  'fan',
  'button',
  'device_trigger',
] as const;
type Component = (typeof COMPONENTS)[number];

/** How a value read from a topic becomes a capability value. */
export type ReadConversion =
  | { readonly kind: 'binary'; readonly on: unknown; readonly off: unknown }
  /** Scaled to 0..1 from `min`..`max` (brightness, mireds, a cover's position, hue's degrees). */
  | { readonly kind: 'scaled'; readonly min: number; readonly max: number }
  | { readonly kind: 'number'; readonly factor: number; readonly offset: number }
  /** A cover's state word to `windowcoverings_state`. */
  | { readonly kind: 'cover'; readonly opening: string; readonly closing: string }
  /** A colour as `r,g,b` text or `{r,g,b}`: its hue or saturation. */
  | { readonly kind: 'rgb'; readonly part: 'hue' | 'saturation' }
  /**
   * A word to a capability value (a lock's `LOCKED`, a climate's `heat`). Words in `passing` are states on the way
   * (`LOCKING`): no value and no fault.
   */
  | { readonly kind: 'enum'; readonly values: Readonly<Record<string, CapabilityValue>>; readonly passing: readonly string[] };

export interface HaRead {
  readonly capabilityId: string;
  readonly topic: string;
  readonly template?: string;
  readonly conversion: ReadConversion;
}

export type HaWrite =
  | { readonly capabilityId: string; readonly topic: string; readonly kind: 'binary'; readonly on: string; readonly off: string }
  | { readonly capabilityId: string; readonly topic: string; readonly kind: 'scaled'; readonly min: number; readonly max: number }
  | { readonly capabilityId: string; readonly topic: string; readonly kind: 'enum'; readonly payloads: Record<string, string> }
  /** A number in the device's unit (capability = device × factor + offset), rounded to the device's precision. */
  | {
      readonly capabilityId: string;
      readonly topic: string;
      readonly kind: 'number';
      readonly factor: number;
      readonly offset: number;
      readonly precision: number;
    }
  /** A button: every write sends the same payload. */
  | { readonly capabilityId: string; readonly topic: string; readonly kind: 'press'; readonly payload: string }
  /** `rgb`: `r,g,b`; `hs`: `h,s` (degrees, percent) — both written from the hue and saturation together. */
  | { readonly capabilityId: string; readonly topic: string; readonly kind: 'color'; readonly format: 'rgb' | 'hs' }
  /** A JSON-schema light: one JSON command with the field the capability sets. */
  | {
      readonly capabilityId: string;
      readonly topic: string;
      readonly kind: 'json';
      readonly field: 'state' | 'brightness' | 'color_temp' | 'color';
      readonly min: number;
      readonly max: number;
      readonly format: 'rgb' | 'hs';
    };

export interface HaAvailability {
  readonly topic: string;
  readonly template?: string;
  readonly online: string;
  readonly offline: string;
}

/** One discovered entity, ready for the bridge. */
export interface HaEntity {
  /** `<component>/[<node_id>/]<object_id>`: the discovery topic without prefix and `/config`. */
  readonly key: string;
  readonly component: Component;
  readonly name: string | null;
  readonly availability: HaAvailability[];
  readonly availabilityMode: 'latest' | 'all' | 'any';
  readonly reads: HaRead[];
  readonly writes: HaWrite[];
  /**
   * HA's `optimistic`: a command is done once published. Otherwise (the default when the entity has a state topic)
   * a write waits for the state topic to report the value.
   */
  readonly optimistic?: boolean;
  /** Ranges and values of its capabilities that differ from the catalogue's (a thermostat's `min_temp`). */
  readonly options?: Readonly<Record<string, CapabilityOptions>>;
  /** A `device_trigger`'s topic and what on it fires the bridge's flow trigger. */
  readonly triggers?: HaTrigger[];
}

/** A device trigger (a remote's button press): a message on `topic` that equals `payload` (any, when unset). */
export interface HaTrigger {
  readonly topic: string;
  readonly template?: string;
  readonly payload?: string;
  /** HA's trigger `type` and `subtype` (`button_short_press`, `button_1`). */
  readonly type: string;
  readonly subtype: string;
}

/** The HA device an entity belongs to: its first identifier, or the entity itself when it names no device. */
export interface HaDeviceInfo {
  readonly id: string;
  readonly name: string | null;
  readonly model: string | null;
}

export type Discovered =
  | { readonly ok: true; readonly entity: HaEntity; readonly device: HaDeviceInfo; readonly class: string }
  | { readonly ok: false; readonly problem: string };

const SENSOR_CAPABILITIES: Readonly<Record<string, string>> = {
  temperature: 'measure_temperature',
  humidity: 'measure_humidity',
  power: 'measure_power',
  energy: 'meter_power',
  illuminance: 'measure_luminance',
  battery: 'measure_battery',
  voltage: 'measure_voltage',
  current: 'measure_current',
  carbon_dioxide: 'measure_co2',
};
const BINARY_SENSOR_CAPABILITIES: Readonly<Record<string, string>> = {
  motion: 'alarm_motion',
  occupancy: 'alarm_motion',
  presence: 'alarm_motion',
  door: 'alarm_contact',
  window: 'alarm_contact',
  opening: 'alarm_contact',
  garage_door: 'alarm_contact',
  moisture: 'alarm_water',
  smoke: 'alarm_smoke',
  tamper: 'alarm_tamper',
  battery: 'alarm_battery',
};
/** Units converted to the capability's own: kW to W, Wh to kWh, °F to °C, mV to V. */
const UNIT_CONVERSIONS: Readonly<Record<string, { factor: number; offset: number }>> = {
  kW: { factor: 1000, offset: 0 },
  Wh: { factor: 0.001, offset: 0 },
  MWh: { factor: 1000, offset: 0 },
  '°F': { factor: 5 / 9, offset: (-32 * 5) / 9 },
  mV: { factor: 0.001, offset: 0 },
  mA: { factor: 0.001, offset: 0 },
};

/** Full key names, and `~` put in at the start or end of every topic. */
export function expandConfig(config: Record<string, unknown>): Record<string, unknown> {
  const base = typeof config['~'] === 'string' ? config['~'] : undefined;
  const expand = (object: Record<string, unknown>, names: Readonly<Record<string, string>>) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      const full = names[key] ?? key;
      out[full] =
        base !== undefined && typeof value === 'string' && (full === 'topic' || full.endsWith('_topic'))
          ? value.startsWith('~')
            ? base + value.slice(1)
            : value.endsWith('~')
              ? value.slice(0, -1) + base
              : value
          : value;
    }
    return out;
  };
  const out = expand(config, ABBREVIATIONS);
  if (isObject(out.device)) out.device = expand(out.device, DEVICE_ABBREVIATIONS);
  if (Array.isArray(out.availability))
    out.availability = out.availability.map((entry) => (isObject(entry) ? expand(entry, ABBREVIATIONS) : entry));
  return out;
}

/**
 * The entity a discovery config describes. `capabilityIdFor` names a capability on the hub device (the bridge
 * gives a second switch of one device `onoff.<object_id>`).
 */
export function discover(key: string, raw: unknown, capabilityIdFor: (base: string) => string = (base) => base): Discovered {
  const component = key.split('/')[0] as Component;
  if (!(COMPONENTS as readonly string[]).includes(component))
    return { ok: false, problem: `the ${component} component is not bridged` };
  if (!isObject(raw)) return { ok: false, problem: 'the config is not a JSON object' };
  const config = expandConfig(raw);
  const reads: HaRead[] = [];
  const writes: HaWrite[] = [];
  const options: Record<string, CapabilityOptions> = {};
  const triggers: HaTrigger[] = [];
  const id = capabilityIdFor;
  const stateTopic = text(config.state_topic);
  const commandTopic = text(config.command_topic);
  const valueTemplate = text(config.value_template);
  const read = (capabilityId: string, topic: string | undefined, template: string | undefined, conversion: ReadConversion) => {
    if (topic) reads.push({ capabilityId: id(capabilityId), topic, ...(template ? { template } : {}), conversion });
  };
  let cls = 'other';
  switch (component) {
    case 'switch': {
      const on = payloadText(config.payload_on, 'ON');
      const off = payloadText(config.payload_off, 'OFF');
      read('onoff', stateTopic, valueTemplate, {
        kind: 'binary',
        on: payloadText(config.state_on, on),
        off: payloadText(config.state_off, off),
      });
      if (commandTopic) writes.push({ capabilityId: id('onoff'), topic: commandTopic, kind: 'binary', on, off });
      cls = 'socket';
      break;
    }
    case 'light': {
      cls = 'light';
      const parts: LightParts = {
        config,
        stateTopic,
        commandTopic,
        read,
        write: (w) => writes.push({ ...w, capabilityId: id(w.capabilityId) }),
      };
      if (config.schema === 'json') jsonLight(parts);
      else if (config.schema === undefined || config.schema === 'default' || config.schema === 'basic') defaultLight(parts);
      else return { ok: false, problem: `the light schema ${JSON.stringify(config.schema)} is not bridged` };
      break;
    }
    case 'sensor': {
      const deviceClass = text(config.device_class);
      const capabilityId = deviceClass ? SENSOR_CAPABILITIES[deviceClass] : undefined;
      if (!capabilityId) return { ok: false, problem: `a sensor of device class ${deviceClass ?? '(none)'} is not bridged` };
      const unit = text(config.unit_of_measurement) ?? '';
      read(capabilityId, stateTopic, valueTemplate, { kind: 'number', ...(UNIT_CONVERSIONS[unit] ?? { factor: 1, offset: 0 }) });
      cls = 'sensor';
      break;
    }
    case 'binary_sensor': {
      const deviceClass = text(config.device_class);
      const capabilityId = deviceClass ? BINARY_SENSOR_CAPABILITIES[deviceClass] : undefined;
      if (!capabilityId)
        return { ok: false, problem: `a binary sensor of device class ${deviceClass ?? '(none)'} is not bridged` };
      read(capabilityId, stateTopic, valueTemplate, {
        kind: 'binary',
        on: payloadText(config.payload_on, 'ON'),
        off: payloadText(config.payload_off, 'OFF'),
      });
      cls = 'sensor';
      break;
    }
    case 'cover': {
      const open = num(config.position_open, 100);
      const closed = num(config.position_closed, 0);
      read('windowcoverings_set', text(config.position_topic), text(config.position_template), {
        kind: 'scaled',
        min: closed,
        max: open,
      });
      const setPosition = text(config.set_position_topic);
      if (setPosition && open !== closed)
        writes.push({ capabilityId: id('windowcoverings_set'), topic: setPosition, kind: 'scaled', min: closed, max: open });
      read('windowcoverings_state', stateTopic, valueTemplate, {
        kind: 'cover',
        opening: payloadText(config.state_opening, 'opening'),
        closing: payloadText(config.state_closing, 'closing'),
      });
      if (commandTopic && config.payload_open !== null)
        writes.push({
          capabilityId: id('windowcoverings_state'),
          topic: commandTopic,
          kind: 'enum',
          payloads: {
            up: payloadText(config.payload_open, 'OPEN'),
            down: payloadText(config.payload_close, 'CLOSE'),
            idle: payloadText(config.payload_stop, 'STOP'),
          },
        });
      cls = 'windowcoverings';
      break;
    }
    default: {
      const parts: ComponentParts = {
        config,
        stateTopic,
        commandTopic,
        valueTemplate,
        read,
        write: (w) => writes.push({ ...w, capabilityId: id(w.capabilityId) }),
        option: (capabilityId, option) => {
          options[id(capabilityId)] = option;
        },
        trigger: (t) => triggers.push(t),
      };
      const made = { climate, lock, fan, button, device_trigger: deviceTrigger }[component](parts);
      if (typeof made === 'object') return made;
      cls = made;
    }
  }
  if (reads.length === 0 && writes.length === 0 && triggers.length === 0)
    return { ok: false, problem: 'the config names no state or command topic' };
  const entity = entityOf(key, component, config, reads, writes);
  return {
    ok: true,
    entity: {
      ...entity,
      ...(Object.keys(options).length > 0 ? { options } : {}),
      ...(triggers.length > 0 ? { triggers } : {}),
    },
    device: deviceOf(key, config),
    class: cls,
  };
}

function entityOf(
  key: string,
  component: Component,
  config: Record<string, unknown>,
  reads: HaRead[],
  writes: HaWrite[],
): HaEntity {
  const availability: HaAvailability[] = [];
  const online = payloadText(config.payload_available, 'online');
  const offline = payloadText(config.payload_not_available, 'offline');
  const availabilityTemplate = text(config.availability_template);
  const availabilityTopic = text(config.availability_topic);
  if (availabilityTopic)
    availability.push({
      topic: availabilityTopic,
      online,
      offline,
      ...(availabilityTemplate ? { template: availabilityTemplate } : {}),
    });
  if (Array.isArray(config.availability))
    for (const entry of config.availability) {
      if (!isObject(entry) || !text(entry.topic)) continue;
      const template = text(entry.value_template);
      availability.push({
        topic: String(entry.topic),
        online: payloadText(entry.payload_available, 'online'),
        offline: payloadText(entry.payload_not_available, 'offline'),
        ...(template ? { template } : {}),
      });
    }
  const mode = config.availability_mode === 'all' || config.availability_mode === 'any' ? config.availability_mode : 'latest';
  // HA's default: optimistic when there is no state topic to confirm a command with.
  const optimistic = config.optimistic === true || reads.length === 0;
  return { key, component, name: text(config.name) ?? null, availability, availabilityMode: mode, reads, writes, optimistic };
}

function deviceOf(key: string, config: Record<string, unknown>): HaDeviceInfo {
  const device = isObject(config.device) ? config.device : {};
  const identifiers = Array.isArray(device.identifiers) ? device.identifiers : [device.identifiers];
  const first = identifiers.find((entry): entry is string => typeof entry === 'string' && entry.length > 0);
  return {
    id: first ?? text(config.unique_id) ?? key,
    name: text(device.name) ?? text(config.name) ?? null,
    model: [text(device.manufacturer), text(device.model)].filter(Boolean).join(' ') || null,
  };
}

export type Read = (
  capabilityId: string,
  topic: string | undefined,
  template: string | undefined,
  conversion: ReadConversion,
) => void;
export type Write = (write: HaWrite) => void;
/** What both light schemas read from: the expanded config, its main topics, and where reads and writes go. */
interface LightParts {
  readonly config: Record<string, unknown>;
  readonly stateTopic: string | undefined;
  readonly commandTopic: string | undefined;
  readonly read: Read;
  readonly write: Write;
}

/** The default schema: one topic pair per feature, with plain payloads. */
function defaultLight({ config, stateTopic, commandTopic, read, write }: LightParts): void {
  const on = payloadText(config.payload_on, 'ON');
  const off = payloadText(config.payload_off, 'OFF');
  read('onoff', stateTopic, text(config.state_value_template), { kind: 'binary', on, off });
  if (commandTopic) write({ capabilityId: 'onoff', topic: commandTopic, kind: 'binary', on, off });
  const scale = num(config.brightness_scale, 255);
  const brightnessCommand = text(config.brightness_command_topic);
  read('dim', text(config.brightness_state_topic), text(config.brightness_value_template), {
    kind: 'scaled',
    min: 0,
    max: scale,
  });
  if (brightnessCommand) write({ capabilityId: 'dim', topic: brightnessCommand, kind: 'scaled', min: 0, max: scale });
  // Warm is 1 in Hearth's light_temperature, as the most mireds are.
  const mireds = { kind: 'scaled', min: num(config.min_mireds, 153), max: num(config.max_mireds, 500) } as const;
  read('light_temperature', text(config.color_temp_state_topic), text(config.color_temp_value_template), mireds);
  const temperatureCommand = text(config.color_temp_command_topic);
  if (temperatureCommand) write({ capabilityId: 'light_temperature', topic: temperatureCommand, ...mireds });
  for (const format of ['hs', 'rgb'] as const) {
    const colorCommand = text(config[`${format}_command_topic`]);
    const colorState = text(config[`${format}_state_topic`]);
    if (!colorCommand && !colorState) continue;
    const template = text(config[`${format}_value_template`]);
    if (format === 'hs') {
      read('light_hue', colorState, withPart(template, 0), { kind: 'scaled', min: 0, max: 360 });
      read('light_saturation', colorState, withPart(template, 1), { kind: 'scaled', min: 0, max: 100 });
    } else {
      read('light_hue', colorState, template, { kind: 'rgb', part: 'hue' });
      read('light_saturation', colorState, template, { kind: 'rgb', part: 'saturation' });
    }
    if (colorCommand) {
      write({ capabilityId: 'light_hue', topic: colorCommand, kind: 'color', format });
      write({ capabilityId: 'light_saturation', topic: colorCommand, kind: 'color', format });
    }
    return;
  }
}

/** `h,s` text is read part by part: a marker the bridge's reader splits on (no template: the plain payload). */
function withPart(template: string | undefined, part: 0 | 1): string {
  return `${template ?? '{{ value }}'}#${part}`;
}

/** The JSON schema: state and commands as one JSON object each (`{"state":"ON","brightness":128,"color":{…}}`). */
function jsonLight({ config, stateTopic, commandTopic, read, write }: LightParts): void {
  const modes = Array.isArray(config.supported_color_modes) ? config.supported_color_modes : [];
  const scale = num(config.brightness_scale, 255);
  const mireds = { min: num(config.min_mireds, 153), max: num(config.max_mireds, 500) };
  const json = (
    capabilityId: string,
    field: 'state' | 'brightness' | 'color_temp' | 'color',
    min: number,
    max: number,
    format: 'rgb' | 'hs',
  ) => commandTopic && write({ capabilityId, topic: commandTopic, kind: 'json', field, min, max, format });
  read('onoff', stateTopic, '{{ value_json.state }}', { kind: 'binary', on: 'ON', off: 'OFF' });
  json('onoff', 'state', 0, 1, 'hs');
  const brightness = config.brightness === true || modes.some((mode) => mode !== 'onoff');
  if (brightness) {
    read('dim', stateTopic, '{{ value_json.brightness }}', { kind: 'scaled', min: 0, max: scale });
    json('dim', 'brightness', 0, scale, 'hs');
  }
  if (config.color_temp === true || modes.includes('color_temp')) {
    read('light_temperature', stateTopic, '{{ value_json.color_temp }}', { kind: 'scaled', ...mireds });
    json('light_temperature', 'color_temp', mireds.min, mireds.max, 'hs');
  }
  const hs = modes.includes('hs') || modes.includes('xy') || config.hs === true;
  const rgb = modes.some((mode) => mode === 'rgb' || mode === 'rgbw' || mode === 'rgbww') || config.rgb === true;
  if (hs) {
    read('light_hue', stateTopic, '{{ value_json.color.h }}', { kind: 'scaled', min: 0, max: 360 });
    read('light_saturation', stateTopic, '{{ value_json.color.s }}', { kind: 'scaled', min: 0, max: 100 });
  } else if (rgb) {
    read('light_hue', stateTopic, '{{ value_json.color }}', { kind: 'rgb', part: 'hue' });
    read('light_saturation', stateTopic, '{{ value_json.color }}', { kind: 'rgb', part: 'saturation' });
  }
  if (hs || rgb) {
    json('light_hue', 'color', 0, 1, hs ? 'hs' : 'rgb');
    json('light_saturation', 'color', 0, 1, hs ? 'hs' : 'rgb');
  }
}
