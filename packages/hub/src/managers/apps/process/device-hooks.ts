import { HearthError } from '@hearth/contract';
import type { DeviceService } from '../../devices/service';
import type { AppService } from '../service';

/**
 * Tells an app with code what users did to its devices outside capability writes: a change of settings, which
 * the device's `onSettings` accepts or refuses before anything is stored, and a new name (`onRenamed`).
 * Devices of apps without code are left alone.
 */
export class AppDeviceHooks {
  constructor(
    private readonly apps: AppService,
    private readonly devices: DeviceService,
  ) {}

  /**
   * Asks the device's app whether `settings` may be stored; throws the app's refusal (its message, 502
   * `app_error`), or 503 when the app is not running to answer. Answers the app's message for the user, if any.
   */
  async settingsChanging(deviceId: string, settings: Record<string, unknown>): Promise<string | null> {
    const device = this.devices.require(deviceId);
    const host = this.apps.processHost(device.appId);
    if (!host) return null;
    const changedKeys = Object.keys(settings).filter(
      (key) => JSON.stringify(settings[key]) !== JSON.stringify(device.settings[key]),
    );
    if (changedKeys.length === 0) return null;
    if (!host.isRunning(device.appId))
      throw new HearthError('unavailable', `Device ${device.name} is unavailable: its app is not running`);
    const { message } = await host.call(device.appId, 'device.settings', {
      deviceId,
      oldSettings: { ...device.settings },
      newSettings: { ...device.settings, ...settings },
      changedKeys,
    });
    return message;
  }

  /** Tells the device's app its new name (not waited for: a rename is stored whatever the app does). */
  renamed(deviceId: string, name: string): void {
    const device = this.devices.find(deviceId);
    if (!device) return;
    const host = this.apps.processHost(device.appId);
    if (!host?.isRunning(device.appId)) return;
    void host.call(device.appId, 'device.renamed', { deviceId, name }).catch((error: unknown) => {
      host.note(device.appId, 'stderr', `onRenamed failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
