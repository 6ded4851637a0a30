import { isDeepStrictEqual } from 'node:util';
import { takeBinding, unsupported } from '../internal/bridge';
import type { Device, DeviceRef } from './device';
import type { Homey } from './homey';
import type { PairSession } from './pair-session';
import { SimpleClass } from './simple-class';

/** @internal What the runner constructs a driver with. */
export interface DriverBinding {
  readonly homey: Homey;
  readonly id: string;
  readonly manifest: Record<string, unknown>;
  readonly devices: () => Device[];
}

/** A device the driver offers in the pair views' device list (`list_devices`). */
export interface PairDevice {
  name: string;
  data: unknown;
  store?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  capabilities?: string[];
  capabilitiesOptions?: Record<string, Record<string, unknown>>;
  class?: string;
  icon?: string;
  energy?: Record<string, unknown>;
}

/**
 * A driver of the app (`drivers/<id>/driver.js`, declared in the manifest's `drivers`): it pairs devices and
 * manages those it paired. Extend it and export the class; the hub constructs it when the app starts and calls
 * `onInit`. Methods prefixed with `on` are meant to be overridden; do not override the constructor.
 */
export class Driver extends SimpleClass {
  /** The driver's id in the manifest. */
  readonly id: string;
  readonly homey: Homey;
  /** The driver's manifest entry. */
  readonly manifest: Record<string, unknown>;
  readonly #devices: () => Device[];
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};

  constructor() {
    super();
    const binding = takeBinding<DriverBinding>('Driver');
    this.id = binding.id;
    this.homey = binding.homey;
    this.manifest = binding.manifest;
    this.#devices = binding.devices;
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
  }

  /** Whether two devices' `data` objects are the same (deep equality). */
  static isEqualDeviceData(a: unknown, b: unknown): boolean {
    return isDeepStrictEqual(a, b);
  }

  /** Called when the driver is initialised, before its devices. */
  async onInit(): Promise<void> {}
  /** Called when the app stops. */
  async onUninit(): Promise<void> {}

  /**
   * Called when a user starts pairing. By default the `list_devices` view answers with `onPairListDevices()`;
   * override to register handlers for custom views.
   */
  async onPair(session: PairSession): Promise<void> {
    session.setHandler('list_devices', () => this.onPairListDevices());
  }

  /** The devices a user may add, for the default `onPair`. */
  async onPairListDevices(): Promise<PairDevice[]> {
    throw new Error(`Driver ${this.id} does not list devices: implement onPairListDevices or onPair`);
  }

  /** Called when a user starts repairing `device`. */
  async onRepair(_session: PairSession, _device: DeviceRef): Promise<void> {}

  /** Called when a user starts unpairing `device` (drivers with an `unpair` view list). */
  async onUnpair(_session: PairSession, _device: DeviceRef): Promise<void> {}

  /**
   * Picks the class a device is constructed with (`drivers/<id>/device.js` by default). `device` offers the
   * device's `getData`, `getStore`, `getSettings`, `getName`, `getClass` and `getCapabilities`.
   */
  onMapDeviceClass(_device: unknown): (new () => Device) | undefined {
    return undefined;
  }

  /** Resolves once `onInit` finished. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** @internal The runner marks the driver ready after `onInit`. */
  markReady(): void {
    this.#markReady();
  }

  /** The devices of this driver. */
  getDevices(): Device[] {
    return this.#devices();
  }

  /** The device whose `data` equals `deviceData`; throws when there is none. */
  getDevice(deviceData: unknown): Device {
    const device = this.#devices().find((d) => Driver.isEqualDeviceData(d.getData(), deviceData));
    if (!device) throw new Error('Could not get device by device data');
    return device;
  }

  /** The device with the hub's id `id`; throws when there is none. */
  getDeviceById(id: string): Device {
    const device = this.#devices().find((d) => d.getId() === id);
    if (!device) throw new Error(`Could not get device by id: ${id}`);
    return device;
  }

  /** Hearth runs no local-network discovery for apps yet; this throws. */
  getDiscoveryStrategy(): never {
    throw unsupported('Driver.getDiscoveryStrategy', 'the hub does not run discovery strategies for apps');
  }
}
