import { HearthError, invalidParameter } from '@hearth/contract';
import { RateLimited } from '@hearth/contract/fastify';
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

/**
 * Writes one device may have waiting behind the one its driver is working on. A capability's waiting write takes
 * a later value in its place, so only writes to different capabilities (or that cannot be merged) fill this.
 */
export const MAX_WAITING_WRITES = 32;

/** A write waiting for its device's driver, with everyone who asked for it (coalesced callers share its outcome). */
interface WaitingWrite {
  capabilityId: string;
  value: unknown;
  options: CapabilityWriteOptions;
  source: ChangeSource;
  callers: { resolve: (value: CapabilityValue) => void; reject: (error: unknown) => void }[];
}

/** A device's writes: whether its driver is working on one, and those waiting, oldest first. */
interface WriteQueue {
  waiting: WaitingWrite[];
}

/**
 * Writes changed device settings to the device itself before the hub stores them (a Z-Wave driver's settings
 * that name a configuration parameter): resolves once the device took them, rejects with a `HearthError` (the
 * settings then stay as they were). A writer leaves devices and settings it has nothing to do with alone.
 */
export type DeviceSettingsWriter = (device: DeviceRecord, changed: Readonly<Record<string, unknown>>) => Promise<void>;

/** Picks the driver that executes writes for a device: its app's process, or the built-in virtual driver. */
export type DriverResolver = (device: DeviceRecord) => CapabilityDriver | null;

/**
 * The one path by which people, flows, moods and apps' cards change a device's capability (see
 * `core/device-control.ts`). A write is checked (setable, the device available, the value within the
 * capability), handed to the device's driver, and stored and announced only once the driver confirmed it; a
 * refusal leaves the stored value as it was. Writes to one device run one after another, in the order they were
 * made, so a slower write never lands after a later one. The queue is bounded: a burst at a slow device (an app
 * that takes its time) coalesces each capability's waiting writes to the latest value, and beyond
 * {@link MAX_WAITING_WRITES} is refused with 429 and `Retry-After` at once, instead of every caller waiting out
 * the whole backlog.
 */
export class DeviceController implements DeviceControl {
  /** Each device with writes in progress; its driver works on one write at a time. */
  readonly #queues = new Map<string, WriteQueue>();
  /** Drivers the hub's radio managers run in process (a Matter device's writes go to the Matter controller). */
  readonly #radioDrivers = new Map<string, CapabilityDriver>();
  readonly #settingsWriters = new Set<DeviceSettingsWriter>();

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

  /** Has a radio manager write settings to devices while it runs; answers the function that stops it. */
  useSettingsWriter(writer: DeviceSettingsWriter): () => void {
    this.#settingsWriters.add(writer);
    return () => this.#settingsWriters.delete(writer);
  }

  /** Writes the settings that change (against the stored ones) to the device, through each radio's writer. */
  async writeSettings(deviceId: string, settings: Readonly<Record<string, unknown>>): Promise<void> {
    const device = this.devices.require(deviceId);
    const changed = Object.fromEntries(
      Object.entries(settings).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(device.settings[key])),
    );
    if (Object.keys(changed).length === 0) return;
    for (const writer of this.#settingsWriters) await writer(device, changed);
  }

  setCapabilityValue(
    deviceId: string,
    capabilityId: string,
    value: unknown,
    options: CapabilityWriteOptions,
    source: ChangeSource,
  ): Promise<CapabilityValue> {
    return new Promise((resolve, reject) => {
      const caller = { resolve, reject };
      const queue = this.#queues.get(deviceId);
      if (!queue) {
        const started: WriteQueue = { waiting: [] };
        this.#queues.set(deviceId, started);
        void this.#drain(deviceId, started, { capabilityId, value, options, source, callers: [caller] });
        return;
      }
      const earlier = this.#coalescable(deviceId, capabilityId)
        ? queue.waiting.find((write) => write.capabilityId === capabilityId)
        : undefined;
      if (earlier) {
        // The device ends at the latest value either way; the earlier caller learns how that went.
        Object.assign(earlier, { value, options, source });
        earlier.callers.push(caller);
        return;
      }
      if (queue.waiting.length >= MAX_WAITING_WRITES) {
        reject(
          new RateLimited(
            { name: 'device-writes', quota: MAX_WAITING_WRITES, windowSeconds: 1 },
            1000,
            'Too many writes waiting for this device. Try again in 1 second.',
          ),
        );
        return;
      }
      queue.waiting.push({ capabilityId, value, options, source, callers: [caller] });
    });
  }

  /**
   * Whether a later write to this capability may replace a waiting earlier one: a state (`dim`, `onoff`,
   * `target_temperature`) ends at the last value asked for, but a capability with no state to read (`button`,
   * `volume_up`) is an action, and each press counts.
   */
  #coalescable(deviceId: string, capabilityId: string): boolean {
    const device = this.devices.find(deviceId);
    if (!device) return false;
    try {
      return this.devices.capabilityOf(device, capabilityId).getable !== false;
    } catch {
      // An unknown capability: the write fails on its own turn with its own error.
      return false;
    }
  }

  /** Runs a device's writes one at a time, from `first` until none waits. */
  async #drain(deviceId: string, queue: WriteQueue, first: WaitingWrite): Promise<void> {
    for (let next: WaitingWrite | undefined = first; next; next = queue.waiting.shift()) {
      try {
        const applied = await this.#write(deviceId, next.capabilityId, next.value, next.options, next.source);
        for (const caller of next.callers) caller.resolve(applied);
      } catch (error) {
        for (const caller of next.callers) caller.reject(error);
      }
    }
    this.#queues.delete(deviceId);
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
