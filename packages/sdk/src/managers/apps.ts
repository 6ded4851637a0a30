import type { ApiApp } from '../lib/api';
import { Manager } from './manager';

/** `this.homey.apps`: other apps on the hub. */
export class ManagerApps extends Manager {
  static ID = 'apps';

  /** Whether the app behind `app` (from `this.homey.api.getApiApp(id)`) is installed. */
  getInstalled(app: ApiApp): Promise<boolean> {
    return app.getInstalled();
  }

  /** The installed version of the app behind `app`. */
  getVersion(app: ApiApp): Promise<string> {
    return app.getVersion();
  }
}
