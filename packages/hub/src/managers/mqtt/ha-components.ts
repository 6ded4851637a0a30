import type { CapabilityOptions } from '../../runtime/capabilities';
import type { Discovered, HaTrigger, Read, Write } from './discovery';
import { num, payloadText, text } from './ha-config';

/**
 * The discovery components beyond switches, lights, sensors and covers (Home Assistant's "MQTT Climate", "MQTT
 * Lock", "MQTT Fan", "MQTT Button" and "MQTT Device trigger" pages): their topics and payloads as capabilities of the
 * ecosystem's catalogue (`target_temperature`, `thermostat_mode`, `locked`, `fan_speed`, `button`).
 */

/** What a component reads from: the expanded config, its main topics, and where reads, writes and options go. */
export interface ComponentParts {
  readonly config: Record<string, unknown>;
  readonly stateTopic: string | undefined;
  readonly commandTopic: string | undefined;
  readonly valueTemplate: string | undefined;
  readonly read: Read;
  readonly write: Write;
  option(capabilityId: string, options: CapabilityOptions): void;
  trigger(trigger: HaTrigger): void;
}

/** A component answers the device class it makes, or why its config cannot be bridged. */
type Component = (parts: ComponentParts) => string | Extract<Discovered, { ok: false }>;

/** `thermostat_mode`'s values (the catalogue's); HA's `dry`, `fan_only` and `heat_cool` have none. */
const THERMOSTAT_MODES = ['auto', 'heat', 'cool', 'off'] as const;
const HA_MODES = ['auto', 'off', 'cool', 'heat', 'dry', 'fan_only'];
const FAHRENHEIT = { factor: 5 / 9, offset: (-32 * 5) / 9 };
const CELSIUS = { factor: 1, offset: 0 };
const round = (value: number, step: number) => Math.round(Math.round(value / step) * step * 1e6) / 1e6;

/**
 * A thermostat: `target_temperature` on the temperature topics, in the range of `min_temp`/`max_temp` (HA's
 * defaults 7 and 35 °C) and steps of `temp_step`; `measure_temperature` from the current temperature topic;
 * `thermostat_mode` from the mode topics. Fahrenheit devices (`temperature_unit: F`) are read and written in °C.
 */
export const climate: Component = ({ config, read, write, option }) => {
  const fahrenheit = config.temperature_unit === 'F';
  const unit = fahrenheit ? FAHRENHEIT : CELSIUS;
  const toCelsius = (value: number) => Math.round((value * unit.factor + unit.offset) * 10) / 10;
  const number = { kind: 'number', ...unit } as const;
  read('target_temperature', text(config.temperature_state_topic), text(config.temperature_state_template), number);
  const temperatureCommand = text(config.temperature_command_topic);
  const precision = num(config.precision, fahrenheit ? 1 : 0.1);
  if (temperatureCommand)
    write({ capabilityId: 'target_temperature', topic: temperatureCommand, kind: 'number', ...unit, precision });
  option('target_temperature', {
    min: toCelsius(num(config.min_temp, fahrenheit ? 45 : 7)),
    max: toCelsius(num(config.max_temp, fahrenheit ? 95 : 35)),
    step: round(num(config.temp_step, fahrenheit ? 1 : 0.5) * unit.factor, 0.01),
  });
  read('measure_temperature', text(config.current_temperature_topic), text(config.current_temperature_template), number);
  const modes = (Array.isArray(config.modes) ? config.modes : HA_MODES).filter(
    (mode): mode is (typeof THERMOSTAT_MODES)[number] => (THERMOSTAT_MODES as readonly unknown[]).includes(mode),
  );
  const modeState = text(config.mode_state_topic);
  const modeCommand = text(config.mode_command_topic);
  if (modes.length > 0 && (modeState || modeCommand)) {
    const values = Object.fromEntries(modes.map((mode) => [mode, mode]));
    const others = HA_MODES.filter((mode) => !(modes as string[]).includes(mode)).concat('heat_cool');
    read('thermostat_mode', modeState, text(config.mode_state_template), { kind: 'enum', values, passing: others });
    if (modeCommand) write({ capabilityId: 'thermostat_mode', topic: modeCommand, kind: 'enum', payloads: values });
    option('thermostat_mode', { values: modes.map((mode) => ({ id: mode, title: mode[0]?.toUpperCase() + mode.slice(1) })) });
  }
  return 'thermostat';
};

/** A lock: `locked`, from `LOCKED`/`UNLOCKED` (a lock on its way, jammed or open is no value), written `LOCK`/`UNLOCK`. */
export const lock: Component = ({ config, stateTopic, commandTopic, valueTemplate, read, write }) => {
  const values = {
    [payloadText(config.state_locked, 'LOCKED')]: true,
    [payloadText(config.state_unlocked, 'UNLOCKED')]: false,
  };
  const passing = ['LOCKING', 'UNLOCKING', 'JAMMED', 'OPEN', 'OPENING'].map((word) =>
    payloadText(config[`state_${word.toLowerCase()}`], word),
  );
  read('locked', stateTopic, valueTemplate, { kind: 'enum', values, passing });
  if (commandTopic)
    write({
      capabilityId: 'locked',
      topic: commandTopic,
      kind: 'binary',
      on: payloadText(config.payload_lock, 'LOCK'),
      off: payloadText(config.payload_unlock, 'UNLOCK'),
    });
  return 'lock';
};

/**
 * A fan: `onoff`, and `fan_speed` (0–1) from the percentage topics. HA maps 1–100 % onto the device's
 * `speed_range_min`..`speed_range_max` (default 1..100): a device value v is (v − min + 1) / (max − min + 1).
 */
export const fan: Component = ({ config, stateTopic, commandTopic, read, write }) => {
  const on = payloadText(config.payload_on, 'ON');
  const off = payloadText(config.payload_off, 'OFF');
  read('onoff', stateTopic, text(config.state_value_template), { kind: 'binary', on, off });
  if (commandTopic) write({ capabilityId: 'onoff', topic: commandTopic, kind: 'binary', on, off });
  const range = { min: num(config.speed_range_min, 1) - 1, max: num(config.speed_range_max, 100) };
  if (range.max <= range.min) return { ok: false, problem: 'speed_range_max is not above speed_range_min' };
  read('fan_speed', text(config.percentage_state_topic), text(config.percentage_value_template), { kind: 'scaled', ...range });
  const percentageCommand = text(config.percentage_command_topic);
  if (percentageCommand) write({ capabilityId: 'fan_speed', topic: percentageCommand, kind: 'scaled', ...range });
  return 'fan';
};

/** A button: the `button` capability; each press sends `payload_press` (`PRESS`). */
export const button: Component = ({ config, commandTopic, write }) => {
  if (commandTopic)
    write({ capabilityId: 'button', topic: commandTopic, kind: 'press', payload: payloadText(config.payload_press, 'PRESS') });
  return 'button';
};

/**
 * A device trigger (a remote's button, ESPHome's and zigbee2mqtt's actions): a message on `topic` (equal to
 * `payload`, when the config gives one) fires the bridge's flow trigger for the device, with its type and subtype.
 */
export const deviceTrigger: Component = ({ config, trigger }) => {
  const topic = text(config.topic);
  const type = text(config.type);
  const subtype = text(config.subtype);
  if (config.automation_type !== 'trigger') return { ok: false, problem: 'a device trigger must have automation_type trigger' };
  if (!topic || !type || !subtype) return { ok: false, problem: 'a device trigger needs a topic, a type and a subtype' };
  const payload = config.payload === undefined ? undefined : payloadText(config.payload, '');
  const template = text(config.value_template);
  trigger({ topic, type, subtype, ...(payload !== undefined ? { payload } : {}), ...(template ? { template } : {}) });
  return 'remote';
};
