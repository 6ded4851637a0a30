import type { CapabilityValue } from '../../../core/bus';
import type { CapabilityDriver, CapabilityWriteOptions } from '../../../core/device-control';
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
