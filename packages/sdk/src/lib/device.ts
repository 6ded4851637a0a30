import { type AppBridge, bridgeOf, takeBinding } from '../internal/bridge';
import type { CapabilityValue, DeviceSnapshot } from '../protocol/messages';
import type { Driver } from './driver';
import type { Homey } from './homey';
import type { Image } from './image';
import { SimpleClass } from './simple-class';

export type CapabilityCallback = (value: CapabilityValue, opts: Record<string, unknown>) => Promise<unknown> | unknown;
export type MultipleCapabilityCallback = (
  values: Record<string, CapabilityValue>,
  opts: Record<string, Record<string, unknown>>,
) => Promise<unknown> | unknown;

export type SettingsValue = boolean | string | number | undefined | null;

/** What `onSettings` receives when a user changes the device's settings. */
export interface SettingsChange {
  oldSettings: Record<string, SettingsValue>;
  newSettings: Record<string, SettingsValue>;
  changedKeys: string[];
}

/** @internal What the runner constructs a device with. */
export interface DeviceBinding {
  readonly homey: Homey;
  readonly driver: Driver;
  readonly snapshot: DeviceSnapshot;
}

interface MultipleListener {
  readonly ids: readonly string[];
  readonly fn: MultipleCapabilityCallback;
  readonly debounceMs: number;
  batch: {
    values: Record<string, CapabilityValue>;
    opts: Record<string, Record<string, unknown>>;
    waiting: { resolve(): void; reject(error: unknown): void }[];
    cancel: () => void;
  } | null;
}

/**
 * A device as SDK methods accept it (a trigger's `device`, `onRepair`'s device): any object shaped like a
 * Device. Only the app's own devices are accepted at run time.
 */
export interface DeviceRef {
  getData(): unknown;
  getName(): string;
}

/** The hub's id of one of the app's own devices; throws for anything else. */
export function deviceIdOf(device: DeviceRef): string {
  if (!(device instanceof Device)) throw new TypeError("Expected one of the app's own devices");
  return device.getId();
}

/** The runner's access to a device's internals (not part of the public SDK). */
export let deviceInternals: {
  /** A capability write from the hub: runs the listeners; resolves when they confirmed it. */
  write(device: Device, values: Record<string, CapabilityValue>, opts: Record<string, Record<string, unknown>>): Promise<void>;
  rename(device: Device, name: string): void;
  settings(device: Device, change: SettingsChange): Promise<string | null>;
  snapshot(device: Device): DeviceSnapshot;
};

/**
 * A paired device of one of the app's drivers. Extend it in `drivers/<driver>/device.js` and export the class;
 * the hub constructs one per device when the app starts (and when one is paired) and calls `onInit`.
 * Methods prefixed with `on` are meant to be overridden; do not override the constructor.
 *
 * Capability values: a user's (or a flow's) write reaches the listener registered with
 * `registerCapabilityListener`; the write is confirmed when the listener resolves and refused (with its error
 * message) when it throws. Values the device reports itself go to the hub with `setCapabilityValue`, which
 * updates every client, Insights and flow triggers.
 */
export class Device extends SimpleClass {
  /** The Homey instance of this app. */
  readonly homey: Homey;
  /** The driver of this device. */
  readonly driver: Driver;
  readonly #state: DeviceSnapshot;
  readonly #bridge: AppBridge;
  readonly #listeners = new Map<string, CapabilityCallback>();
  readonly #multiple: MultipleListener[] = [];
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};

  constructor() {
    super();
    const { homey, driver, snapshot } = takeBinding<DeviceBinding>('Device');
    this.homey = homey;
    this.driver = driver;
    this.#state = structuredClone(snapshot);
    this.#bridge = bridgeOf(homey);
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
  }

  static {
    deviceInternals = {
      write: (device, values, opts) => device.#write(values, opts),
      rename: (device, name) => {
        device.#state.name = name;
      },
      settings: async (device, change) => {
        const message = await device.onSettings(change);
        device.#state.settings = { ...change.newSettings };
        return typeof message === 'string' ? message : null;
      },
      snapshot: (device) => device.#state,
    };
  }

  // --- lifecycle (override these) ---

  /** Called when the device is initialised: at app start, and after pairing (before `onAdded`). */
  async onInit(): Promise<void> {}
  /** Called when the app stops (or the device is deleted). */
  async onUninit(): Promise<void> {}
  /** Called once, right after the device was paired. */
  onAdded(): void {}
  /** Called when the device was removed from the hub. */
  onDeleted(): void {}
  /** Called when a user renamed the device. */
  onRenamed(_name: string): void {}
  /**
   * Called when a user changes the device's settings, before they are stored. Throw to refuse them (the user sees
   * the error's message); answer a string to show the user a message.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: an override answers a message or nothing at all
  async onSettings(_change: SettingsChange): Promise<string | void> {}
  onDiscoveryResult(_result: unknown): boolean {
    return false;
  }
  onDiscoveryAvailable(_result: unknown): void {}
  onDiscoveryAddressChanged(_result: unknown): void {}
  onDiscoveryLastSeenChanged(_result: unknown): void {}

  /** Resolves once `onInit` finished. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** @internal The runner marks the device ready after `onInit`. */
  markReady(): void {
    this.#markReady();
  }

  // --- identity ---

  /** The hub's id of this device (a uuid). */
  getId(): string {
    return this.#state.id;
  }

  getAppId(): string {
    return this.#bridge.init.appId;
  }

  /** The `data` object the driver gave the device when it was paired (how the driver recognises it). */
  getData(): unknown {
    return structuredClone(this.#state.data);
  }

  getName(): string {
    return this.#state.name;
  }

  /** The device class, e.g. `socket`, `light`, `thermostat`. */
  getClass(): string {
    return this.#state.class;
  }

  async setClass(deviceClass: string): Promise<void> {
    await this.#bridge.call('device.setClass', { deviceId: this.getId(), class: deviceClass });
    this.#state.class = deviceClass;
  }

  /** Every capability value, keyed by capability id. */
  getState(): Record<string, CapabilityValue> {
    return { ...this.#state.values };
  }

  // --- availability ---

  getAvailable(): boolean {
    return this.#state.available;
  }

  async setAvailable(): Promise<void> {
    await this.#bridge.call('device.setAvailable', { deviceId: this.getId(), available: true, message: null });
    this.#state.available = true;
    this.#state.unavailableMessage = null;
  }

  /** Marks the device unavailable; users see `message`. Writes to it are refused until `setAvailable`. */
  async setUnavailable(message: string | null = null): Promise<void> {
    await this.#bridge.call('device.setAvailable', { deviceId: this.getId(), available: false, message });
    this.#state.available = false;
    this.#state.unavailableMessage = message;
  }

  /** Shows users a warning on the device (it stays usable). `null` removes it. */
  async setWarning(message: string | null = null): Promise<void> {
    await this.#bridge.call('device.setWarning', { deviceId: this.getId(), message });
    this.#state.warning = message;
  }

  unsetWarning(): Promise<void> {
    return this.setWarning(null);
  }

  // --- settings ---

  getSettings(): Record<string, SettingsValue> {
    return structuredClone(this.#state.settings) as Record<string, SettingsValue>;
  }

  getSetting(key: string): SettingsValue {
    return (this.#state.settings[key] as SettingsValue) ?? null;
  }

  /** Changes some settings (merged into the current ones). Does not call `onSettings`. */
  async setSettings(settings: Record<string, SettingsValue>): Promise<void> {
    const merged = { ...this.#state.settings, ...settings };
    await this.#bridge.call('device.setSettings', { deviceId: this.getId(), settings: merged });
    this.#state.settings = merged;
  }

  // --- capabilities ---

  getCapabilities(): string[] {
    return [...this.#state.capabilities];
  }

  hasCapability(capabilityId: string): boolean {
    return this.#state.capabilities.includes(capabilityId);
  }

  async addCapability(capabilityId: string): Promise<void> {
    if (this.hasCapability(capabilityId)) return;
    await this.#bridge.call('device.addCapability', { deviceId: this.getId(), capabilityId });
    this.#state.capabilities.push(capabilityId);
    this.#state.values[capabilityId] ??= null;
  }

  async removeCapability(capabilityId: string): Promise<void> {
    if (!this.hasCapability(capabilityId)) return;
    await this.#bridge.call('device.removeCapability', { deviceId: this.getId(), capabilityId });
    this.#state.capabilities = this.#state.capabilities.filter((id) => id !== capabilityId);
    delete this.#state.values[capabilityId];
  }

  /** The capability's current value (`null` when it has none yet). */
  getCapabilityValue(capabilityId: string): CapabilityValue {
    this.#requireCapability(capabilityId);
    return this.#state.values[capabilityId] ?? null;
  }

  /**
   * Reports a value the device has (a measurement, a state it changed to by itself). The hub stores it and
   * every client, Insights and the flows see it. Rejects when the value does not fit the capability.
   */
  async setCapabilityValue(capabilityId: string, value: CapabilityValue): Promise<void> {
    this.#requireCapability(capabilityId);
    await this.#bridge.call('device.setCapabilityValue', { deviceId: this.getId(), capabilityId, value });
    this.#state.values[capabilityId] = value;
  }

  getCapabilityOptions(capabilityId: string): Record<string, unknown> {
    this.#requireCapability(capabilityId);
    return structuredClone(this.#state.capabilitiesOptions[capabilityId] ?? {});
  }

  /** Overrides options of a capability (title, units, min, max, step, …) for this device. */
  async setCapabilityOptions(capabilityId: string, options: Record<string, unknown>): Promise<void> {
    this.#requireCapability(capabilityId);
    await this.#bridge.call('device.setCapabilityOptions', { deviceId: this.getId(), capabilityId, options });
    this.#state.capabilitiesOptions[capabilityId] = { ...options };
  }

  /**
   * Sets the function that carries out writes of `capabilityId` (a user switching the device, a flow, a mood).
   * Resolve to confirm the write; throw to refuse it. `opts` carries the write's options (e.g. `duration`).
   */
  registerCapabilityListener(capabilityId: string, listener: CapabilityCallback): void {
    if (typeof listener !== 'function') throw new TypeError('A capability listener must be a function');
    this.#listeners.set(capabilityId, listener);
  }

  /**
   * One function for writes of several capabilities that often change together (a light's `onoff`, `dim` and
   * `light_hue`): writes arriving within `debounceMs` of each other are given to it at once.
   */
  registerMultipleCapabilityListener(capabilityIds: string[], listener: MultipleCapabilityCallback, debounceMs = 250): void {
    if (typeof listener !== 'function') throw new TypeError('A capability listener must be a function');
    this.#multiple.push({ ids: [...capabilityIds], fn: listener, debounceMs, batch: null });
  }

  /** Runs the listener of `capabilityId` as if a user wrote `value`, then stores the value. */
  async triggerCapabilityListener(
    capabilityId: string,
    value: CapabilityValue,
    opts: Record<string, unknown> = {},
  ): Promise<void> {
    this.#requireCapability(capabilityId);
    await this.#write({ [capabilityId]: value }, { [capabilityId]: opts });
    await this.setCapabilityValue(capabilityId, value);
  }

  // --- store ---

  /** The device's store: data the app keeps with the device (not shown to users). */
  getStore(): Record<string, unknown> {
    return structuredClone(this.#state.store);
  }

  getStoreKeys(): string[] {
    return Object.keys(this.#state.store);
  }

  getStoreValue(key: string): unknown {
    return this.#state.store[key] === undefined ? null : structuredClone(this.#state.store[key]);
  }

  async setStoreValue(key: string, value: unknown): Promise<void> {
    const store = { ...this.#state.store, [key]: JSON.parse(JSON.stringify(value ?? null)) as unknown };
    await this.#bridge.call('device.setStore', { deviceId: this.getId(), store });
    this.#state.store = store;
  }

  async unsetStoreValue(key: string): Promise<void> {
    const { [key]: _removed, ...store } = this.#state.store;
    await this.#bridge.call('device.setStore', { deviceId: this.getId(), store });
    this.#state.store = store;
  }

  // --- energy and images ---

  getEnergy(): Record<string, unknown> {
    return structuredClone(this.#state.energy ?? {});
  }

  async setEnergy(energy: Record<string, unknown>): Promise<void> {
    await this.#bridge.call('device.setEnergy', { deviceId: this.getId(), energy });
    this.#state.energy = { ...energy };
  }

  /** Shows `image` as the device's album art (a speaker's now playing). */
  async setAlbumArtImage(image: Image): Promise<void> {
    if (!image?.id) throw new TypeError('setAlbumArtImage needs a registered image');
    await this.#bridge.call('device.setImage', {
      deviceId: this.getId(),
      kind: 'albumart',
      id: 'albumart',
      imageId: image.id,
      title: null,
    });
  }

  /** Shows `image` as the device's camera `id`, titled `title` (a device may have several cameras). */
  async setCameraImage(id: string, title: string, image: Image): Promise<void> {
    if (typeof id !== 'string' || id === '') throw new TypeError('setCameraImage needs a camera id');
    if (!image?.id) throw new TypeError('setCameraImage needs a registered image');
    await this.#bridge.call('device.setImage', { deviceId: this.getId(), kind: 'camera', id, imageId: image.id, title });
  }

  /** Stops the device's pending multiple-listener batches (the runner calls it when the device goes). */
  destroy(): void {
    for (const group of this.#multiple) {
      if (!group.batch) continue;
      group.batch.cancel();
      for (const waiter of group.batch.waiting) waiter.reject(new Error('The device was removed'));
      group.batch = null;
    }
    this.removeAllListeners();
  }

  #requireCapability(capabilityId: string): void {
    if (!this.hasCapability(capabilityId)) throw new Error(`Invalid Capability: ${capabilityId}`);
  }

  async #write(values: Record<string, CapabilityValue>, opts: Record<string, Record<string, unknown>>): Promise<void> {
    const runs: Promise<unknown>[] = [];
    for (const [capabilityId, value] of Object.entries(values)) {
      this.#requireCapability(capabilityId);
      const group = this.#multiple.find((g) => g.ids.includes(capabilityId));
      if (group) {
        runs.push(this.#queue(group, capabilityId, value, opts[capabilityId] ?? {}));
        continue;
      }
      const listener = this.#listeners.get(capabilityId);
      if (!listener) throw new Error(`Missing Capability Listener: ${capabilityId}`);
      runs.push(Promise.resolve().then(() => listener(value, opts[capabilityId] ?? {})));
    }
    await Promise.all(runs);
    for (const [capabilityId, value] of Object.entries(values)) this.#state.values[capabilityId] = value;
  }

  #queue(group: MultipleListener, capabilityId: string, value: CapabilityValue, opts: Record<string, unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!group.batch) {
        const batch: NonNullable<MultipleListener['batch']> = { values: {}, opts: {}, waiting: [], cancel: () => {} };
        const timer = setTimeout(() => {
          group.batch = null;
          Promise.resolve()
            .then(() => group.fn(batch.values, batch.opts))
            .then(
              () => {
                for (const waiter of batch.waiting) waiter.resolve();
              },
              (error: unknown) => {
                for (const waiter of batch.waiting) waiter.reject(error);
              },
            );
        }, group.debounceMs);
        batch.cancel = () => clearTimeout(timer);
        group.batch = batch;
      }
      group.batch.values[capabilityId] = value;
      group.batch.opts[capabilityId] = opts;
      group.batch.waiting.push({ resolve, reject });
    });
  }
}
