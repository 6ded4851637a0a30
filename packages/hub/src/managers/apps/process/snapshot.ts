import type { CapabilityValue, DeviceSnapshot } from '@hearth/sdk/protocol';
import type { DeviceRecord, DeviceService } from '../../devices/service';

/** A device as its app's process mirrors it. */
export function deviceSnapshot(devices: DeviceService, device: DeviceRecord): DeviceSnapshot {
  const values: Record<string, CapabilityValue> = {};
  for (const [capabilityId, { value }] of devices.values(device.id)) values[capabilityId] = value;
  return {
    id: device.id,
    // The hub keeps the full driver id (`homey:app:<appId>:<driverId>`); the app knows its drivers by their own.
    driverId: device.driverId.slice(device.driverId.lastIndexOf(':') + 1),
    name: device.name,
    class: device.class,
    data: device.data,
    store: device.store,
    settings: device.settings,
    capabilities: [...device.capabilities],
    capabilitiesOptions: device.capabilitiesOptions as Record<string, Record<string, unknown>>,
    values,
    available: device.unavailableMessage === null,
    unavailableMessage: device.unavailableMessage,
    warning: device.warning,
    energy: device.energy,
  };
}
