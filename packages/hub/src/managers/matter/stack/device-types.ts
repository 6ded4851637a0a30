import type { Endpoint } from '@matter/main';

/**
 * Which Matter device types the hub makes devices of, and which capability each of their clusters carries.
 * Device type ids are those of the Matter device library; this first step covers the On/Off family.
 */
export const ONOFF_DEVICE_TYPES: ReadonlyMap<number, { name: string; class: 'light' | 'socket' }> = new Map([
  [0x0100, { name: 'On/Off Light', class: 'light' }],
  [0x010a, { name: 'On/Off Plug-in Unit', class: 'socket' }],
]);

/** The capabilities the hub supports on an endpoint of a commissioned node (none: the endpoint is skipped). */
export function capabilitiesOf(endpoint: Endpoint): string[] {
  return endpoint.behaviors.has('onOff') ? ['onoff'] : [];
}

/** The device type id an endpoint declares first in its Descriptor cluster (0 when it declares none). */
export function deviceTypeOf(endpoint: Endpoint): number {
  const descriptor = endpoint.maybeStateOf('descriptor') as { deviceTypeList?: { deviceType: number }[] } | undefined;
  return Number(descriptor?.deviceTypeList?.[0]?.deviceType ?? 0);
}
