import { invalidParameter } from '@hearth/contract';
import type { CapabilityValue } from '../../core/bus';

/** The command classes the built-in generic Z-Wave driver maps onto capabilities, by their ids. */
export const CC = {
  binarySwitch: 0x25,
  multilevelSwitch: 0x26,
  binarySensor: 0x30,
  multilevelSensor: 0x31,
  meter: 0x32,
  notification: 0x71,
  battery: 0x80,
} as const;

/** One value of a node as zwave-js names it, with what its metadata says beyond the name. */
export interface NodeValue {
  commandClass: number;
  endpoint?: number;
  property: string | number;
  propertyKey?: string | number;
  ccSpecific?: Record<string, unknown>;
}

/** A capability a node value feeds, and how the value reads as that capability. */
export interface ValueMapping {
  capability: string;
  read: (value: unknown) => CapabilityValue;
}

const ELECTRIC_METER = 1;
const METER_SCALE = { kWh: 0, W: 2 } as const;
const SENSOR_TYPE = { airTemperature: 1, illuminance: 3, power: 4, humidity: 5 } as const;
const FAHRENHEIT = 1;
const NOTIFICATION = { accessControl: 6, homeSecurity: 7 } as const;
/** Home Security's motion events (7: intrusion at a location, 8: without one) and Access Control's door open. */
const MOTION_EVENTS = new Set([7, 8]);
const DOOR_OPEN = 22;
const BINARY_SENSOR = { doorWindow: 10, motion: 12 } as const;

const numeric = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const rounded = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Multilevel Switch levels are 0–99 (255 asks for the last level); `dim` is 0–1. */
const levelToDim = (value: unknown) => {
  const level = numeric(value);
  return level === null ? null : rounded(Math.min(level, 99) / 99, 2);
};

/**
 * The capabilities one value of a node feeds, as the generic driver maps them; none when the value maps to none.
 * `hasBinarySwitch` says whether `onoff` already comes from a Binary Switch on the value's endpoint (a dimmer's own
 * `onoff` otherwise). Which endpoint's value is which sub-capability is `endpointCapability`'s.
 */
export function mappingsOf(value: NodeValue, hasBinarySwitch: boolean): ValueMapping[] {
  const specific = value.ccSpecific ?? {};
  switch (value.commandClass) {
    case CC.binarySwitch:
      return value.property === 'currentValue' ? [{ capability: 'onoff', read: (v) => (typeof v === 'boolean' ? v : null) }] : [];
    case CC.multilevelSwitch: {
      if (value.property !== 'currentValue') return [];
      const dim = { capability: 'dim', read: levelToDim };
      return hasBinarySwitch ? [dim] : [dim, { capability: 'onoff', read: (v) => (numeric(v) === null ? null : Number(v) > 0) }];
    }
    case CC.multilevelSensor: {
      const reading = (capability: string, digits = 1, convert = (n: number) => n): ValueMapping[] => [
        { capability, read: (v) => (numeric(v) === null ? null : rounded(convert(Number(v)), digits)) },
      ];
      if (specific.sensorType === SENSOR_TYPE.airTemperature)
        return reading('measure_temperature', 1, (n) => (specific.scale === FAHRENHEIT ? ((n - 32) * 5) / 9 : n));
      if (specific.sensorType === SENSOR_TYPE.humidity) return reading('measure_humidity', 0);
      if (specific.sensorType === SENSOR_TYPE.illuminance) return reading('measure_luminance', 0);
      if (specific.sensorType === SENSOR_TYPE.power) return reading('measure_power', 1);
      return [];
    }
    case CC.meter: {
      if (value.property !== 'value' || specific.meterType !== ELECTRIC_METER) return [];
      const read = (v: unknown) => numeric(v);
      if (specific.scale === METER_SCALE.kWh) return [{ capability: 'meter_power', read }];
      if (specific.scale === METER_SCALE.W) return [{ capability: 'measure_power', read }];
      return [];
    }
    case CC.battery:
      return value.property === 'level' ? [{ capability: 'measure_battery', read: numeric }] : [];
    case CC.notification:
      if (specific.notificationType === NOTIFICATION.homeSecurity && value.propertyKey === 'Motion sensor status')
        return [{ capability: 'alarm_motion', read: (v) => (numeric(v) === null ? null : MOTION_EVENTS.has(Number(v))) }];
      if (specific.notificationType === NOTIFICATION.accessControl && value.propertyKey === 'Door state')
        return [{ capability: 'alarm_contact', read: (v) => (numeric(v) === null ? null : v === DOOR_OPEN) }];
      return [];
    case CC.binarySensor: {
      const read = (v: unknown) => (typeof v === 'boolean' ? v : null);
      if (specific.sensorType === BINARY_SENSOR.motion) return [{ capability: 'alarm_motion', read }];
      if (specific.sensorType === BINARY_SENSOR.doorWindow) return [{ capability: 'alarm_contact', read }];
      return [];
    }
    default:
      return [];
  }
}

/**
 * A multi-channel node is one device, as the ecosystem's Z-Wave drivers make it (homey-zwavedriver's
 * `registerCapability('onoff.2', 'SWITCH_BINARY', { multiChannelNodeId: 2 })`): the lowest endpoint that feeds a
 * capability has its plain id (`onoff`), each further endpoint a sub-capability named by its number (`onoff.2`).
 */
export const endpointCapability = (capability: string, endpoint: number, lowestEndpoint: number) =>
  endpoint === lowestEndpoint ? capability : `${capability}.${endpoint}`;

/** The capability a (sub-)capability id names: `onoff.2` is `onoff`. */
export const baseCapability = (capability: string) => capability.split('.')[0] ?? capability;

/** A command for the node: the value to set (zwave-js's `setValue`) and the value whose report confirms it. */
export interface NodeWrite {
  target: { commandClass: number; endpoint: number; property: 'targetValue' };
  value: boolean | number;
  confirmedBy: { commandClass: number; endpoint: number; property: 'currentValue' };
}

/**
 * The command a capability write becomes on the node's endpoint with these command classes; a capability it cannot
 * set is a 400.
 */
export function writeFor(capability: string, value: CapabilityValue, commandClasses: readonly number[], endpoint = 0): NodeWrite {
  const on = (commandClass: number, target: boolean | number): NodeWrite => ({
    target: { commandClass, endpoint, property: 'targetValue' },
    value: target,
    confirmedBy: { commandClass, endpoint, property: 'currentValue' },
  });
  if (capability === 'onoff' && commandClasses.includes(CC.binarySwitch)) return on(CC.binarySwitch, value === true);
  // 255 asks a dimmer for its last level, as its own on button does.
  if (capability === 'onoff' && commandClasses.includes(CC.multilevelSwitch))
    return on(CC.multilevelSwitch, value === true ? 255 : 0);
  if (capability === 'dim' && commandClasses.includes(CC.multilevelSwitch) && typeof value === 'number')
    return on(CC.multilevelSwitch, Math.round(Math.min(Math.max(value, 0), 1) * 99));
  throw invalidParameter('capabilityId', `This Z-Wave node cannot set ${capability}`);
}

/** The device class the generic driver gives a node: by the first capability that says what the node is. */
export function deviceClassOf(capabilities: readonly string[]): string {
  if (capabilities.includes('dim')) return 'light';
  if (capabilities.includes('onoff')) return 'socket';
  return 'sensor';
}
