import { HearthError, invalidParameter } from '@hearth/contract';
import type { CapabilityValue, ChangeSource, DomainBus } from '../../core/bus';
import type { Clock } from '../../core/clock';
import type { CapabilityDriver, CapabilityWriteOptions, DeviceControl } from '../../core/device-control';
import { validateCapabilityValue } from '../../runtime/capabilities';
import type { AppService } from '../apps/service';
import { type DeviceRecord, type DeviceService, groupMembers } from './service';

/**
 * The driver of the hub's built-in virtual devices: a simulated device takes every value its capability allows
 * (the capability check happens before), and reacts to it in the simulation once the value is stored.
 */
export const virtualDriver: CapabilityDriver = {
  setCapabilityValues: async () => {},
};

/** How long a write waits for the device's app while the app starts. */
const APP_START_WAIT_MS = 15_000;

/** Picks the driver that executes writes for a device: its app's process, or the built-in virtual driver. */
export type DriverResolver = (device: DeviceRecord) => CapabilityDriver | null;

/**
 * The one path by which people, flows, moods and apps' cards change a device's capability (see
 * `core/device-control.ts`). A write is checked (setable, the device available, the value within the
 * capability), handed to the device's driver, and stored and announced only once the driver confirmed it; a
 * refusal leaves the stored value as it was. Writes to one device run one after another, in the order they were
 * made, so a slower write never lands after a later one.
 */
export class DeviceController implements DeviceControl {
  /** The last write queued per device; a device's next write starts after it settled. */
  readonly #tails = new Map<string, Promise<unknown>>();
  /** Drivers the hub's radio managers run in process (a Matter device's writes go to the Matter controller). */
  readonly #radioDrivers = new Map<string, CapabilityDriver>();

  constructor(
    private readonly bus: DomainBus,
    private readonly clock: Clock,
    private readonly devices: DeviceService,
    private readonly apps: AppService,
    /** The driver of an app with code (its process), or `null` for the built-in virtual driver. */
    private readonly appDriver: DriverResolver,
  ) {}

  /**
   * Routes the writes of one built-in driver's devices (its full id, `homey:app:<app>:<driver>`) to a radio
   * manager's driver, while that manager runs; answers the function that takes the route away again.
   */
  useRadioDriver(driverId: string, driver: CapabilityDriver): () => void {
    this.#radioDrivers.set(driverId, driver);
    return () => {
      if (this.#radioDrivers.get(driverId) === driver) this.#radioDrivers.delete(driverId);
    };
  }

  setCapabilityValue(
    deviceId: string,
    capabilityId: string,
    value: unknown,
    options: CapabilityWriteOptions,
    source: ChangeSource,
  ): Promise<CapabilityValue> {
    const previous = this.#tails.get(deviceId);
    const write = () => this.#write(deviceId, capabilityId, value, options, source);
    const run = previous ? previous.then(write, write) : write();
    const tail = run.catch(() => undefined);
    this.#tails.set(deviceId, tail);
    void tail.then(() => {
      if (this.#tails.get(deviceId) === tail) this.#tails.delete(deviceId);
    });
    return run;
  }

  /**
   * Sets several capabilities of several devices at once (a mood): each write takes the one path and may fail on
   * its own; the answer says what applied and what did not, and why.
   */
  async setMany(
    states: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
    source: ChangeSource,
  ): Promise<{ applied: number; failed: { deviceId: string; capabilityId: string; reason: string }[] }> {
    const writes = Object.entries(states).flatMap(([deviceId, capabilities]) =>
      Object.entries(capabilities ?? {}).map(([capabilityId, value]) => ({ deviceId, capabilityId, value })),
    );
    const results = await Promise.allSettled(
      writes.map(({ deviceId, capabilityId, value }) => this.setCapabilityValue(deviceId, capabilityId, value, {}, source)),
    );
    const failed = results.flatMap((result, index) => {
      if (result.status === 'fulfilled') return [];
      const { deviceId, capabilityId } = writes[index] as (typeof writes)[number];
      const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
      return [{ deviceId, capabilityId, reason }];
    });
    return { applied: writes.length - failed.length, failed };
  }

  /**
   * Waits for an app that is starting (the hub just booted, the app restarts) to run, as a write that arrives
   * then (a delayed action due at boot) should not fail for it; answers whether it runs. An app that is not
   * starting is not waited for.
   */
  #appStarted(appId: string): Promise<boolean> {
    if (this.apps.runState(appId) !== 'starting') return Promise.resolve(false);
    return new Promise((resolve) => {
      let off = () => {};
      const cancel = this.clock.setTimeout(() => {
        off();
        resolve(false);
      }, APP_START_WAIT_MS);
      off = this.bus.on('app.state', `device-control:${appId}`, (change) => {
        if (change.appId !== appId || change.state === 'starting') return;
        cancel();
        off();
        resolve(change.state === 'running');
      });
    });
  }

  async #write(
    deviceId: string,
    capabilityId: string,
    value: unknown,
    options: CapabilityWriteOptions,
    source: ChangeSource,
  ): Promise<CapabilityValue> {
    const device = this.devices.require(deviceId);
    const capability = this.devices.capabilityOf(device, capabilityId);
    if (!capability.setable) throw invalidParameter('capabilityId', `Capability ${capabilityId} is not setable`);
    if (!this.apps.isRunning(device.appId) && !(await this.#appStarted(device.appId)))
      throw new HearthError('unavailable', `Device ${device.name} is unavailable: its app is not running`);
    if (device.unavailableMessage !== null)
      throw new HearthError('unavailable', `Device ${device.name} is unavailable: ${device.unavailableMessage}`);
    const checked = validateCapabilityValue(capability, value);
    const members = groupMembers(device);
    if (members && members.length > 0) {
      // A group passes the value on to each of its devices; it fails only when none of them took it.
      const results = await Promise.allSettled(
        members.map((member) =>
          this.setCapabilityValue(member, capabilityId, checked, { transactionId: options.transactionId }, source),
        ),
      );
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (refused.length === members.length) throw refused[0]?.reason;
    }
    const appDriver = this.#radioDrivers.get(device.driverId) ?? this.appDriver(device);
    await (appDriver ?? virtualDriver).setCapabilityValues(device, { [capabilityId]: checked }, options);
    // The device may have gone while its driver answered; a confirmed value of a deleted device is dropped.
    const current = this.devices.find(deviceId);
    if (!current) throw new HearthError('not_found', `Device not found: ${deviceId}`);
    this.devices.confirmCapabilityValue(current, capabilityId, checked, {
      source,
      // Only simulated devices react in the hub; an app reports its device's own reactions.
      react: appDriver === null,
      ...(options.transactionId ? { transactionId: options.transactionId } : {}),
    });
    return checked;
  }
}
