import type { Endpoint } from '@matter/main';
import { CLIMATE } from './clusters/climate';
import { CLOSURES } from './clusters/closures';
import type { ClusterCapability, ClusterState } from './clusters/cluster-capability';
import { LIGHTING } from './clusters/lighting';
import { SENSORS } from './clusters/sensors';

export type { ClusterCapability, ClusterState } from './clusters/cluster-capability';

/**
 * Which Matter device types the hub makes devices of (ids of the Matter device library) and the device class
 * each becomes. An endpoint whose device type is not listed still becomes a device when it carries a cluster of
 * `CLUSTER_CAPABILITIES` (class `other`).
 */
export const DEVICE_TYPE_CLASSES: ReadonlyMap<number, { name: string; class: string }> = new Map([
  [0x0100, { name: 'On/Off Light', class: 'light' }],
  [0x0101, { name: 'Dimmable Light', class: 'light' }],
  [0x010c, { name: 'Color Temperature Light', class: 'light' }],
  [0x010d, { name: 'Extended Color Light', class: 'light' }],
  [0x010a, { name: 'On/Off Plug-in Unit', class: 'socket' }],
  [0x010b, { name: 'Dimmable Plug-in Unit', class: 'socket' }],
  [0x0015, { name: 'Contact Sensor', class: 'sensor' }],
  [0x0107, { name: 'Occupancy Sensor', class: 'sensor' }],
  [0x0302, { name: 'Temperature Sensor', class: 'sensor' }],
  [0x0307, { name: 'Humidity Sensor', class: 'sensor' }],
  [0x0106, { name: 'Light Sensor', class: 'sensor' }],
  [0x0510, { name: 'Electrical Sensor', class: 'sensor' }],
  [0x0301, { name: 'Thermostat', class: 'thermostat' }],
  [0x0202, { name: 'Window Covering', class: 'windowcoverings' }],
  [0x000a, { name: 'Door Lock', class: 'lock' }],
]);

/**
 * Every capability the hub reads from (and writes through) a cluster. Where two clusters carry the same capability,
 * the one listed first wins on an endpoint that has both (a thermostat with its own Temperature Measurement cluster
 * reports that measurement, not its local temperature).
 */
export const CLUSTER_CAPABILITIES: readonly ClusterCapability[] = [...LIGHTING, ...SENSORS, ...CLIMATE, ...CLOSURES];

/** The capabilities the hub can set on a Matter device (of some device type). */
export const WRITABLE_CAPABILITIES: ReadonlySet<string> = new Set(
  CLUSTER_CAPABILITIES.filter((c) => c.write).map((c) => c.capability),
);

/** The cluster state of a mapping's behavior on an endpoint (undefined: the endpoint has no such cluster). */
export const clusterStateOf = (endpoint: Endpoint, mapping: ClusterCapability) =>
  endpoint.behaviors.has(mapping.client) ? (endpoint.maybeStateOf(mapping.client) as ClusterState | undefined) : undefined;

/** The mapping of each capability an endpoint carries (its clusters and their features), one per capability. */
export function capabilityMappingsOf(endpoint: Endpoint): ClusterCapability[] {
  const chosen = new Map<string, ClusterCapability>();
  for (const mapping of CLUSTER_CAPABILITIES) {
    if (chosen.has(mapping.capability)) continue;
    const state = clusterStateOf(endpoint, mapping);
    if (state === undefined || (mapping.carriedBy && !mapping.carriedBy(state))) continue;
    chosen.set(mapping.capability, mapping);
  }
  return [...chosen.values()];
}

/** The capabilities the hub supports on an endpoint of a commissioned node (none: the endpoint is skipped). */
export const capabilitiesOf = (endpoint: Endpoint): string[] => capabilityMappingsOf(endpoint).map((c) => c.capability);

/** The mapping through which an endpoint carries a capability. */
export const mappingOn = (endpoint: Endpoint, capability: string) =>
  capabilityMappingsOf(endpoint).find((c) => c.capability === capability);

/** The device type id an endpoint declares first in its Descriptor cluster (0 when it declares none). */
export function deviceTypeOf(endpoint: Endpoint): number {
  const descriptor = endpoint.maybeStateOf('descriptor') as { deviceTypeList?: { deviceType: number }[] } | undefined;
  return Number(descriptor?.deviceTypeList?.[0]?.deviceType ?? 0);
}

/** The device class of an endpoint's device type (`other` for a type the hub only knows by its clusters). */
export const classOf = (deviceType: number) => DEVICE_TYPE_CLASSES.get(deviceType)?.class ?? 'other';
