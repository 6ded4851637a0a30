import { HearthError, invalidParameter } from '@hearth/contract';
import type { ZWaveNode } from 'zwave-js';
import type { NodeValue } from './capabilities';

type Json = Record<string, unknown>;

/**
 * The Apps SDK's Z-Wave command classes (`node.CommandClass.COMMAND_CLASS_<NAME>.<COMMAND>(args)`), mapped onto
 * zwave-js's command class APIs: each command takes and answers the ecosystem's field names (`'Switch Value'`,
 * `'Meter Value (Parsed)'`, `Properties1.Scale`, …), and values a node reports become the same reports.
 */

/** The ecosystem's names of command classes, by id (a class not listed is named by its id in hex). */
const NAMES: Record<number, string> = {
  32: 'BASIC',
  37: 'SWITCH_BINARY',
  38: 'SWITCH_MULTILEVEL',
  48: 'SENSOR_BINARY',
  49: 'SENSOR_MULTILEVEL',
  50: 'METER',
  64: 'THERMOSTAT_MODE',
  67: 'THERMOSTAT_SETPOINT',
  85: 'TRANSPORT_SERVICE',
  89: 'ASSOCIATION_GRP_INFO',
  91: 'CENTRAL_SCENE',
  94: 'ZWAVEPLUS_INFO',
  96: 'MULTI_CHANNEL',
  98: 'DOOR_LOCK',
  108: 'SUPERVISION',
  112: 'CONFIGURATION',
  113: 'NOTIFICATION',
  114: 'MANUFACTURER_SPECIFIC',
  115: 'POWERLEVEL',
  122: 'FIRMWARE_UPDATE_MD',
  128: 'BATTERY',
  132: 'WAKE_UP',
  133: 'ASSOCIATION',
  134: 'VERSION',
  142: 'MULTI_CHANNEL_ASSOCIATION',
  152: 'SECURITY',
  159: 'SECURITY_2',
};

export const commandClassName = (id: number) =>
  `COMMAND_CLASS_${NAMES[id] ?? `0x${id.toString(16).toUpperCase().padStart(2, '0')}`}`;

/** A report in the ecosystem's form: the command's name and id, and its fields. */
export interface AppReport {
  commandClass: string;
  command: string;
  commandId: number;
  report: Json;
}

const ON = 'on/enable';
const OFF = 'off/disable';
const METER_TYPES: Record<number, string> = { 1: 'Electric meter', 2: 'Gas meter', 3: 'Water meter' };
const SENSOR_TYPES: Record<number, string> = {
  1: 'Temperature (version 1)',
  2: 'General purpose value (version 1)',
  3: 'Luminance (version 1)',
  4: 'Power (version 2)',
  5: 'Relative humidity (version 2)',
};

/** A field an app gives as `'on/enable'` / `'off/disable'`, a boolean, or a number (0 off, 1–99 and 255 on). */
function onOff(args: Json, field: string): boolean {
  const value = args[field];
  if (value === ON || value === true) return true;
  if (value === OFF || value === false) return false;
  if (typeof value === 'number' && value >= 0 && value <= 255) return value > 0;
  throw invalidParameter(field, `Expected '${ON}', '${OFF}' or a number from 0 to 255`);
}

/** A level an app gives as 0–99, 255 (the last level), or `'on/enable'` / `'off/disable'`. */
function level(args: Json, field: string): number {
  const value = args[field];
  if (value === ON) return 255;
  if (value === OFF) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && (value <= 99 || value === 255) && value >= 0) return value;
  throw invalidParameter(field, `Expected a level from 0 to 99, 255, '${ON}' or '${OFF}'`);
}

const binary = (value: unknown) => (value === true ? ON : value === false ? OFF : 'unknown');
const seconds = (duration: unknown) => {
  const d = duration as { value?: number; unit?: string } | undefined;
  if (!d || typeof d.value !== 'number') return 0;
  return d.unit === 'minutes' ? d.value * 60 : d.value;
};
/** The ecosystem's `(Raw)` fields carry the bytes a parsed field came from. */
const raw = (byte: number) => ({ type: 'Buffer', data: [byte & 0xff] });

/** A level/state report of Basic, Binary and Multilevel Switch: v1 has `Value`, later versions current, target and duration. */
function stateReport(version: number, current: unknown, target: unknown, duration: unknown, asText: boolean): Json {
  const show = (v: unknown) => (asText ? binary(v) : typeof v === 'number' ? v : 0);
  if (version < 2 || target === undefined) {
    const value = show(current);
    return { Value: value, 'Value (Raw)': raw(typeof current === 'number' ? current : current === true ? 255 : 0) };
  }
  return { 'Current Value': show(current), 'Target Value': show(target), Duration: seconds(duration) };
}

const meterReport = (type: number, scale: number, value: number, rateType = 1): Json => ({
  Properties1: {
    'Meter Type': METER_TYPES[type] ?? type,
    'Rate Type': rateType === 2 ? 'Export' : 'Import',
    'Scale bit 2': scale > 3,
  },
  Properties2: { 'Scale bits 10': scale & 0b11, Precision: 2, Size: 4 },
  'Meter Value (Parsed)': value,
});

const sensorReport = (type: number, scale: number, value: number): Json => ({
  'Sensor Type': SENSOR_TYPES[type] ?? type,
  'Sensor Value (Parsed)': value,
  Level: { Scale: scale, Precision: 1, Size: 2 },
});

/** zwave-js reads a node's low-battery warning (level 0xFF) as level 0 with `isLow`; the ecosystem reports it as text. */
const lowBattery = (node: ZWaveNode) => node.getValue({ commandClass: 0x80, endpoint: 0, property: 'isLow' }) === true;

const batteryReport = (level: number | undefined, isLow: boolean): Json => {
  const byte = isLow ? 0xff : (level ?? 0);
  return { 'Battery Level': isLow ? 'battery low warning' : byte, 'Battery Level (Raw)': raw(byte) };
};

/** A sensor type an app names (`'Temperature (version 1)'`) or numbers. */
function sensorType(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const found = Object.entries(SENSOR_TYPES).find(([, name]) => name === value);
  if (!found) throw invalidParameter('Sensor Type', `Unknown sensor type ${String(value)}`);
  return Number(found[0]);
}

const scaleOf = (args: Json) => {
  const properties = args.Properties1 as Json | undefined;
  return typeof properties?.Scale === 'number' ? properties.Scale : undefined;
};

type Command = (node: ZWaveNode, args: Json, version: number) => Promise<Json | null>;

/** The commands of each mapped command class; a GET answers its report's fields. */
const COMMANDS: Record<number, Record<string, Command>> = {
  32: {
    BASIC_SET: async (node, args) => {
      await node.commandClasses.Basic.set(level(args, 'Value'));
      return null;
    },
    BASIC_GET: async (node, _args, version) => {
      const got = await node.commandClasses.Basic.get();
      return stateReport(version, got?.currentValue, got?.targetValue, got?.duration, false);
    },
  },
  37: {
    SWITCH_BINARY_SET: async (node, args) => {
      await node.commandClasses['Binary Switch'].set(onOff(args, 'Switch Value'));
      return null;
    },
    SWITCH_BINARY_GET: async (node, _args, version) => {
      const got = await node.commandClasses['Binary Switch'].get();
      return stateReport(version, got?.currentValue, got?.targetValue, got?.duration, true);
    },
  },
  38: {
    SWITCH_MULTILEVEL_SET: async (node, args) => {
      await node.commandClasses['Multilevel Switch'].set(level(args, 'Value'));
      return null;
    },
    SWITCH_MULTILEVEL_GET: async (node, _args, version) => {
      const got = await node.commandClasses['Multilevel Switch'].get();
      return stateReport(version < 4 ? 1 : version, got?.currentValue, got?.targetValue, got?.duration, false);
    },
  },
  49: {
    SENSOR_MULTILEVEL_GET: async (node, args) => {
      const type = sensorType(args['Sensor Type']);
      const scale = (args.Level as Json | undefined)?.Scale ?? scaleOf(args);
      const api = node.commandClasses['Multilevel Sensor'];
      if (type === undefined) {
        const got = await api.get();
        return got ? sensorReport(got.type, got.scale.key, got.value) : null;
      }
      if (typeof scale === 'number') {
        const value = await api.get(type, scale);
        return typeof value === 'number' ? sensorReport(type, scale, value) : null;
      }
      const got = await api.get(type);
      return got ? sensorReport(type, got.scale.key, got.value) : null;
    },
  },
  50: {
    METER_GET: async (node, args) => {
      const got = await node.commandClasses.Meter.get({ scale: scaleOf(args) });
      return got ? meterReport(got.type, got.scale.key, got.value, got.rateType) : null;
    },
  },
  128: {
    BATTERY_GET: async (node) => {
      const got = await node.commandClasses.Battery.get();
      return got ? batteryReport(got.level, lowBattery(node)) : null;
    },
  },
};

/** The commands the SDK offers for a command class (none for one that is not mapped yet). */
export const commandsOf = (ccId: number): string[] => Object.keys(COMMANDS[ccId] ?? {});

/** Runs an app's command on the node; a command class or command that is not mapped is a clear `not_implemented`. */
export function runCommand(node: ZWaveNode, ccId: number, name: string, command: string, args: Json): Promise<Json | null> {
  const run = COMMANDS[ccId]?.[command];
  if (!run)
    throw new HearthError('not_implemented', `${name}.${command} is not offered to apps by this hub yet (only ${mappedList()})`);
  return run(node, args, node.getCCVersion(ccId));
}

const mappedList = () => Object.values(COMMANDS).flatMap(Object.keys).join(', ');

/** The report a value the node reported (or answered) is, in the ecosystem's form; null when it maps to none. */
export function reportOf(node: ZWaveNode, value: NodeValue & { newValue: unknown }): AppReport | null {
  if ((value.endpoint ?? 0) !== 0) return null;
  const specific = value.ccSpecific ?? {};
  const version = node.getCCVersion(value.commandClass);
  const named = (command: string, commandId: number, report: Json): AppReport => ({
    commandClass: commandClassName(value.commandClass),
    command,
    commandId,
    report,
  });
  const number = typeof value.newValue === 'number' ? value.newValue : null;
  switch (value.commandClass) {
    case 0x20:
    case 0x25:
    case 0x26: {
      if (value.property !== 'currentValue') return null;
      const prefix = { 32: 'BASIC', 37: 'SWITCH_BINARY', 38: 'SWITCH_MULTILEVEL' }[value.commandClass];
      const target = node.getValue({ commandClass: value.commandClass, endpoint: 0, property: 'targetValue' });
      const effective = value.commandClass === 0x26 && version < 4 ? 1 : version;
      return named(
        `${prefix}_REPORT`,
        0x03,
        stateReport(effective, value.newValue, target, undefined, value.commandClass === 0x25),
      );
    }
    case 0x31:
      if (number === null || typeof specific.sensorType !== 'number') return null;
      return named('SENSOR_MULTILEVEL_REPORT', 0x05, sensorReport(specific.sensorType, Number(specific.scale ?? 0), number));
    case 0x32:
      if (value.property !== 'value' || number === null || typeof specific.meterType !== 'number') return null;
      return named(
        'METER_REPORT',
        0x02,
        meterReport(specific.meterType, Number(specific.scale ?? 0), number, Number(specific.rateType ?? 1)),
      );
    case 0x80:
      if (value.property !== 'level' || number === null) return null;
      return named('BATTERY_REPORT', 0x03, batteryReport(number, lowBattery(node)));
    default:
      return null;
  }
}
