import { Manager } from './manager';

/** `this.homey.geolocation`: where the hub is, as its owner set it. */
export class ManagerGeolocation extends Manager {
  static ID = 'geolocation';

  getLatitude(): number {
    return this.bridge.init.geolocation.latitude;
  }

  getLongitude(): number {
    return this.bridge.init.geolocation.longitude;
  }

  /** Accuracy in metres. */
  getAccuracy(): number {
    return this.bridge.init.geolocation.accuracy;
  }

  /** `auto` or `manual`. */
  getMode(): string {
    return this.bridge.init.geolocation.mode;
  }
}
