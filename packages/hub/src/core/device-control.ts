import type { CapabilityValue, ChangeSource } from './bus';

/**
 * The one path by which anything changes a device's capability: HTTP and socket `setCapabilityValue`, moods,
 * flows, apps' own cards. The write goes to the device's driver (a built-in virtual driver, or the app process
 * that owns the device), which confirms or refuses it; only a confirmed value is stored and published. Writes to
 * one device are applied in the order they were made.
 */
export interface CapabilityWriteOptions {
  /** Echoed on the realtime `capability` event. */
  readonly transactionId?: string;
  /** Driver options the app listener receives as `opts` (e.g. `duration` of a dim). */
  readonly opts?: Record<string, unknown>;
}

export interface DeviceControl {
  /**
   * Resolves with the stored value once the driver confirmed it. Rejects with a `HearthError`: `not_found` (no
   * such device or capability), `invalid_parameter` (value outside the capability), `forbidden` (not setable),
   * `unavailable` (the device or its app is not running), `timeout` (the driver did not answer in time), or the
   * driver's own refusal; the stored value is then unchanged.
   */
  setCapabilityValue(
    deviceId: string,
    capabilityId: string,
    value: unknown,
    options: CapabilityWriteOptions,
    source: ChangeSource,
  ): Promise<CapabilityValue>;
}

/**
 * What executes a write for a device: the built-in virtual drivers answer in process; an app's devices answer
 * from the app's process (its `registerCapabilityListener`). The device-control path picks the driver by the
 * device's app.
 */
export interface CapabilityDriver {
  /** Resolves when the device accepted the value; rejects (with its message) when it refused. */
  setCapabilityValues(
    device: { readonly id: string; readonly appId: string; readonly driverId: string },
    values: Readonly<Record<string, CapabilityValue>>,
    options: CapabilityWriteOptions,
  ): Promise<void>;
}
