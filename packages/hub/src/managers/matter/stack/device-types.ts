import type { Behavior, Endpoint } from '@matter/main';
import { BooleanStateClient } from '@matter/main/behaviors/boolean-state';
import { LevelControlClient } from '@matter/main/behaviors/level-control';
import { OnOffClient } from '@matter/main/behaviors/on-off';
import { TemperatureMeasurementClient } from '@matter/main/behaviors/temperature-measurement';

/**
 * Which Matter device types the hub makes devices of (ids of the Matter device library) and the device class
 * each becomes. An endpoint whose device type is not listed still becomes a device when it carries a cluster of
 * `CLUSTER_CAPABILITIES` (class `other`).
 */
export const DEVICE_TYPE_CLASSES: ReadonlyMap<number, { name: string; class: string }> = new Map([
  [0x0100, { name: 'On/Off Light', class: 'light' }],
  [0x0101, { name: 'Dimmable Light', class: 'light' }],
  [0x010a, { name: 'On/Off Plug-in Unit', class: 'socket' }],
  [0x010b, { name: 'Dimmable Plug-in Unit', class: 'socket' }],
  [0x0015, { name: 'Contact Sensor', class: 'sensor' }],
  [0x0302, { name: 'Temperature Sensor', class: 'sensor' }],
]);

/**
 * One capability carried by a cluster attribute: how a reported value becomes the capability's value and, for a
 * writable capability, the command that sets it (resolved when the node acknowledged it).
 */
export interface ClusterCapability {
  capability: string;
  /** The client behavior of the cluster (its id is the behavior id on a peer's endpoint). */
  client: Behavior.Type;
  attribute: string;
  toCapability(value: unknown): unknown;
  write?: (endpoint: Endpoint, value: unknown) => Promise<void>;
}

/** Matter's level range of a dimmable light: 1 (minimum) … 254 (maximum); 0 and 255 are not levels. */
const LEVEL_MIN = 1;
const LEVEL_MAX = 254;

export const levelToDim = (level: number) => (level - LEVEL_MIN) / (LEVEL_MAX - LEVEL_MIN);
export const dimToLevel = (dim: number) => Math.round(LEVEL_MIN + Math.min(1, Math.max(0, dim)) * (LEVEL_MAX - LEVEL_MIN));

export const CLUSTER_CAPABILITIES: readonly ClusterCapability[] = [
  {
    capability: 'onoff',
    client: OnOffClient,
    attribute: 'onOff',
    toCapability: (value) => value === true,
    write: async (endpoint, value) => {
      const commands = endpoint.commandsOf(OnOffClient);
      await (value === true ? commands.on() : commands.off());
    },
  },
  {
    capability: 'dim',
    client: LevelControlClient,
    attribute: 'currentLevel',
    // A level the node does not know (null) leaves the capability without a value.
    toCapability: (value) => (typeof value === 'number' ? Math.round(levelToDim(value) * 1000) / 1000 : null),
    // With On/Off: a light that is off ignores a plain MoveToLevel, and setting dim turns a light on in the ecosystem.
    write: async (endpoint, value) => {
      await endpoint.commandsOf(LevelControlClient).moveToLevelWithOnOff({
        level: dimToLevel(Number(value)),
        transitionTime: 0,
        optionsMask: {},
        optionsOverride: {},
      });
    },
  },
  {
    capability: 'alarm_contact',
    client: BooleanStateClient,
    attribute: 'stateValue',
    // The Contact Sensor device type: StateValue true is "contact" (closed); the capability alarms when open.
    toCapability: (value) => value !== true,
  },
  {
    capability: 'measure_temperature',
    client: TemperatureMeasurementClient,
    attribute: 'measuredValue',
    // Matter measures in 0.01 °C; null is "unknown".
    toCapability: (value) => (typeof value === 'number' ? value / 100 : null),
  },
];

const byCapability = new Map(CLUSTER_CAPABILITIES.map((c) => [c.capability, c]));

export const clusterCapability = (capability: string) => byCapability.get(capability);

/** The capabilities the hub supports on an endpoint of a commissioned node (none: the endpoint is skipped). */
export function capabilitiesOf(endpoint: Endpoint): string[] {
  return CLUSTER_CAPABILITIES.filter((c) => endpoint.behaviors.has(c.client.id)).map((c) => c.capability);
}

/** The device type id an endpoint declares first in its Descriptor cluster (0 when it declares none). */
export function deviceTypeOf(endpoint: Endpoint): number {
  const descriptor = endpoint.maybeStateOf('descriptor') as { deviceTypeList?: { deviceType: number }[] } | undefined;
  return Number(descriptor?.deviceTypeList?.[0]?.deviceType ?? 0);
}

/** The device class of an endpoint's device type (`other` for a type the hub only knows by its clusters). */
export const classOf = (deviceType: number) => DEVICE_TYPE_CLASSES.get(deviceType)?.class ?? 'other';
