import type { AppDetails, Device } from '../../../types/entities';
import { buildOf, contactOf, isProviderSupportLink } from '../../apps/utils/classify';

/** Radio technologies as the tree tags them, by a driver's connectivity value. */
const CONNECTIVITY_TAGS: Record<string, string> = {
  rf433: '433mhz',
  rf868: '868mhz',
  ble: 'bluetooth',
  bluetooth: 'bluetooth',
  infrared: 'infrared',
  lan: 'wifi',
  wifi: 'wifi',
  zigbee: 'zigbee',
  zwave: 'zwave',
};

/** Driver ids containing one of these markers imply a radio even when the driver declares none. */
const DRIVER_MARKERS: readonly [string, string][] = [
  ['remote', 'infrared'],
  ['tv', 'infrared'],
  ['speaker', 'wifi'],
  ['camera', 'wifi'],
  ['light-static', '433mhz'],
  ['button', '433mhz'],
  ['blinds', '433mhz'],
];

/** The app id of a device: the second-to-last colon-separated part of its driver id (`homey:app:<appId>:<driver>`). */
export function appIdOfDevice(device: Pick<Device, 'driverId'>): string {
  const parts = device.driverId.split(':');
  return parts.length >= 2 ? (parts[parts.length - 2] ?? '') : '';
}

/** The driver's own id: the last colon-separated part of the device's driver id. */
export const driverNameOfDevice = (device: Pick<Device, 'driverId'>): string => device.driverId.split(':').pop() ?? '';

/** Radio tags for a device from its driver's connectivity list and the driver-id markers. */
export function radioTags(device: Pick<Device, 'driverId'>, app: AppDetails | null): string[] {
  const driverName = driverNameOfDevice(device);
  const driver = app ? buildOf(app)?.drivers?.find((d) => d.id === driverName) : undefined;
  const tags = new Set<string>();
  for (const connectivity of driver?.connectivity ?? []) {
    const tag = CONNECTIVITY_TAGS[connectivity.toLowerCase()];
    if (tag) tags.add(tag);
  }
  const id = device.driverId.toLowerCase();
  for (const [marker, tag] of DRIVER_MARKERS) if (id.includes(marker)) tags.add(tag);
  return [...tags];
}

/**
 * The outcome of choosing a device: provider support when its app's support link is on the provider's
 * support site (or its author is one of the provider's trusted authors), otherwise its developer, without a
 * knowledge base first.
 */
export function classifyDevice(device: Pick<Device, 'driverId'>, app: AppDetails | null) {
  const tags = radioTags(device, app);
  const contact: ReturnType<typeof contactOf> = app ? contactOf(app) : { supportType: 'none' };
  if (contact.supportType === 'contactSupport' || isProviderSupportLink(app ? buildOf(app)?.support : undefined)) {
    return { action: 'contactSupport' as const, supportType: 'contactSupport' as const, supportUrl: undefined, tags };
  }
  return { action: 'contactDeveloperDirect' as const, supportType: contact.supportType, supportUrl: contact.supportUrl, tags };
}
