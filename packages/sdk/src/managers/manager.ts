import { type AppBridge, bridgeOf } from '../internal/bridge';
import type { Homey } from '../lib/homey';
import { SimpleClass } from '../lib/simple-class';

/** The base of every manager on `this.homey` (`this.homey.settings`, `this.homey.flow`, …). */
export class Manager extends SimpleClass {
  constructor(protected readonly homey: Homey) {
    super();
  }

  /** The connection to the hub (internal). */
  protected get bridge(): AppBridge {
    return bridgeOf(this.homey);
  }
}
