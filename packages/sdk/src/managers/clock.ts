import { Manager } from './manager';

/** `this.homey.clock`: the hub's time zone. */
export class ManagerClock extends Manager {
  static ID = 'clock';

  /** The hub's IANA time zone, e.g. `Europe/Amsterdam`. */
  getTimezone(): string {
    return this.bridge.init.timezone;
  }
}
