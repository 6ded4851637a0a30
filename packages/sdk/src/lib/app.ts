import { takeBinding } from '../internal/bridge';
import type { Homey } from './homey';
import { SimpleClass } from './simple-class';

/** @internal What the runner constructs the app with. */
export interface AppBinding {
  readonly homey: Homey;
}

/**
 * The start of every app: extend it in `app.js` and export the class (`module.exports = MyApp`). The hub
 * constructs it when the app starts and calls `onInit` before the drivers and devices start. Methods prefixed
 * with `on` are meant to be overridden; do not override the constructor.
 *
 * @example
 * const Homey = require('homey');
 * module.exports = class MyApp extends Homey.App {
 *   async onInit() {
 *     this.log('MyApp has been initialized');
 *   }
 * };
 */
export class App extends SimpleClass {
  /** The Homey instance of this app: its managers, timers and facts. */
  readonly homey: Homey;
  /** The app's manifest (app.json). */
  readonly manifest: Record<string, unknown>;
  /** The app's id, e.g. `com.example.lights`. */
  readonly id: string;
  /** The SDK version the app is written for (3). */
  readonly sdk: number;

  constructor() {
    super();
    const { homey } = takeBinding<AppBinding>('App');
    this.homey = homey;
    this.manifest = homey.manifest;
    this.id = String(homey.manifest.id);
    this.sdk = Number(homey.manifest.sdk ?? 3);
  }

  /** Called when the app starts, before its drivers and devices. */
  async onInit(): Promise<void> {}

  /** Called when the app is stopped (disabled, restarted, updated or uninstalled), after its devices and drivers. */
  async onUninit(): Promise<void> {}
}
