import type { Driver } from '../lib/driver';
import { Manager } from './manager';

/** `this.homey.drivers`: the app's drivers (constructed before any device). */
export class ManagerDrivers extends Manager {
  static ID = 'drivers';
  readonly #drivers = new Map<string, Driver>();

  /** The driver with `driverId` (its id in the manifest); throws for one the app does not have. */
  getDriver(driverId: string): Driver {
    const driver = this.#drivers.get(driverId);
    if (!driver) throw new Error(`Invalid Driver: ${driverId}`);
    return driver;
  }

  /** Every driver of the app, keyed by id. */
  getDrivers(): Record<string, Driver> {
    return Object.fromEntries(this.#drivers);
  }

  /** @internal The runner adds each driver it constructs. */
  add(driver: Driver): void {
    this.#drivers.set(driver.id, driver);
  }
}
