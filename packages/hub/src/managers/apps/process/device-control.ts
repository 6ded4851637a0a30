import { HearthError, invalidParameter } from '@hearth/contract';
import type { CapabilityValue } from '../../../core/bus';
import type { CapabilityDriver, CapabilityWriteOptions } from '../../../core/device-control';
import { validateCapabilityValue } from '../../../runtime/capabilities';
import type { DeviceService } from '../../devices/service';
import type { AppService } from '../service';
import type { AppProcessHost } from './host';

/**
 * The capability driver of devices whose app runs in a process: a write goes to the app's listener
 * (`registerCapabilityListener`) and is confirmed when it resolves, refused (502, with the app's message) when it
 * throws, and fails with 504 when the app does not answer in time.
 */
export class AppCapabilityDriver implements CapabilityDriver {
  constructor(private readonly host: AppProcessHost) {}

  async setCapabilityValues(
    device: { readonly id: string; readonly appId: string; readonly driverId: string },
    values: Readonly<Record<string, CapabilityValue>>,
    options: CapabilityWriteOptions,
  ): Promise<void> {
    const opts = Object.fromEntries(Object.keys(values).map((id) => [id, { ...(options.opts ?? {}) }]));
    await this.host.call(device.appId, 'capability.set', { deviceId: device.id, values: { ...values }, opts });
  }
}

/**
 * A user's (or a flow's) write of a capability. A device of an app with code is asked first and only a
 * confirmed value is stored and published; other devices take the hub's simulated path.
 */
export async function writeCapability(
  apps: AppService,
  devices: DeviceService,
  deviceId: string,
  capabilityId: string,
  value: unknown,
  options: CapabilityWriteOptions,
): Promise<CapabilityValue> {
  const device = devices.require(deviceId);
  const host = apps.processHost(device.appId);
  if (!host) return devices.setCapabilityValue(deviceId, capabilityId, value, { transactionId: options.transactionId });
  const capability = devices.capabilityOf(device, capabilityId);
  if (!capability.setable) throw invalidParameter('capabilityId', `Capability ${capabilityId} is not setable`);
  if (!host.isRunning(device.appId))
    throw new HearthError('unavailable', `Device ${device.name} is unavailable: its app is not running`);
  if (device.unavailableMessage !== null)
    throw new HearthError('unavailable', `Device ${device.name} is unavailable: ${device.unavailableMessage}`);
  const checked = validateCapabilityValue(capability, value);
  await new AppCapabilityDriver(host).setCapabilityValues(device, { [capabilityId]: checked }, options);
  return devices.setCapabilityValue(deviceId, capabilityId, checked, {
    source: 'driver',
    react: false,
    ...(options.transactionId ? { transactionId: options.transactionId } : {}),
  });
}
