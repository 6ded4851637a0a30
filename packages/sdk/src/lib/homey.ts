import { type AppBridge, bindBridge } from '../internal/bridge';
import { ManagerApi } from '../managers/api';
import { ManagerApps } from '../managers/apps';
import { ManagerClock } from '../managers/clock';
import { ManagerCloud } from '../managers/cloud';
import { ManagerDashboards } from '../managers/dashboards';
import { ManagerDrivers } from '../managers/drivers';
import { ManagerFlow } from '../managers/flow';
import { ManagerGeolocation } from '../managers/geolocation';
import {
  ManagerArp,
  ManagerAudio,
  ManagerBLE,
  ManagerDiscovery,
  ManagerLedring,
  ManagerNFC,
  ManagerRF,
  ManagerZigBee,
} from '../managers/hardware';
import { ManagerI18n } from '../managers/i18n';
import { ManagerImages } from '../managers/images';
import { ManagerInsights } from '../managers/insights';
import { ManagerNotifications } from '../managers/notifications';
import { ManagerSettings } from '../managers/settings';
import { ManagerSpeechInput, ManagerSpeechOutput } from '../managers/speech';
import { ManagerZwave } from '../managers/zwave';
import type { App } from './app';
import { SimpleClass } from './simple-class';

type Timer = ReturnType<typeof setTimeout>;

/**
 * The Homey instance of an app: `this.homey` on the App, every Driver and Device, and `homey` in web API
 * handlers. It holds the managers, the app's facts and timers that end with the app.
 *
 * Events:
 * - `memwarn` ({ count, limit }): the app is close to its memory limit; free what you can.
 * - `cpuwarn` ({ count, limit }): the app keeps the processor busy; after `limit` warnings it is stopped.
 * - `unload`: the app is about to be stopped.
 */
export class Homey extends SimpleClass {
  /** The app's folder (read-only). */
  readonly dir: string;
  /** A writable folder for temporary files, emptied when the app stops. */
  readonly tmpdir: string;
  /** The app's own persistent writable folder (`/userdata`), removed with the app's data on uninstall. */
  readonly userdataDir: string;
  /** The hub's software version. */
  readonly version: string;
  /** The app's `env.json`. */
  readonly env: Record<string, string>;
  /** The app's manifest (app.json). */
  readonly manifest: Record<string, unknown>;
  /** `local` for a hub in the home (every Hearth hub). */
  readonly platform: 'local' | 'cloud';
  readonly platformVersion: number;
  /** The app's App instance (set once it is constructed). */
  app!: App;

  readonly api: ManagerApi;
  readonly apps: ManagerApps;
  readonly arp: ManagerArp;
  readonly audio: ManagerAudio;
  readonly ble: ManagerBLE;
  readonly clock: ManagerClock;
  readonly cloud: ManagerCloud;
  readonly dashboards: ManagerDashboards;
  readonly discovery: ManagerDiscovery;
  readonly drivers: ManagerDrivers;
  readonly flow: ManagerFlow;
  readonly geolocation: ManagerGeolocation;
  readonly i18n: ManagerI18n;
  readonly images: ManagerImages;
  readonly insights: ManagerInsights;
  readonly ledring: ManagerLedring;
  readonly nfc: ManagerNFC;
  readonly notifications: ManagerNotifications;
  readonly rf: ManagerRF;
  readonly settings: ManagerSettings;
  readonly speechInput: ManagerSpeechInput;
  readonly speechOutput: ManagerSpeechOutput;
  readonly zigbee: ManagerZigBee;
  readonly zwave: ManagerZwave;

  readonly #timers = new Set<Timer>();
  readonly #intervals = new Set<Timer>();
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};

  /** @internal The runner creates the one Homey instance of the app. */
  constructor(bridge: AppBridge) {
    super();
    // Apps take these off the instance (`const { setTimeout } = this.homey`) or pass them on as callbacks, as the
    // ecosystem's SDK lets them.
    this.setTimeout = this.setTimeout.bind(this);
    this.clearTimeout = this.clearTimeout.bind(this);
    this.setInterval = this.setInterval.bind(this);
    this.clearInterval = this.clearInterval.bind(this);
    this.ready = this.ready.bind(this);
    this.hasPermission = this.hasPermission.bind(this);
    this.__ = this.__.bind(this);
    bindBridge(this, bridge);
    const { init } = bridge;
    this.dir = init.dir;
    this.tmpdir = init.tmpDir;
    this.userdataDir = init.userdataDir;
    this.version = init.hubVersion;
    this.env = { ...init.env };
    this.manifest = init.manifest;
    this.platform = init.platform;
    this.platformVersion = init.platformVersion;
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
    this.api = new ManagerApi(this);
    this.apps = new ManagerApps(this);
    this.arp = new ManagerArp(this);
    this.audio = new ManagerAudio(this);
    this.ble = new ManagerBLE(this);
    this.clock = new ManagerClock(this);
    this.cloud = new ManagerCloud(this);
    this.dashboards = new ManagerDashboards(this);
    this.discovery = new ManagerDiscovery(this);
    this.drivers = new ManagerDrivers(this);
    this.flow = new ManagerFlow(this);
    this.geolocation = new ManagerGeolocation(this);
    this.i18n = new ManagerI18n(this);
    this.images = new ManagerImages(this);
    this.insights = new ManagerInsights(this);
    this.ledring = new ManagerLedring(this);
    this.nfc = new ManagerNFC(this);
    this.notifications = new ManagerNotifications(this);
    this.rf = new ManagerRF(this);
    this.settings = new ManagerSettings(this);
    this.speechInput = new ManagerSpeechInput(this);
    this.speechOutput = new ManagerSpeechOutput(this);
    this.zigbee = new ManagerZigBee(this);
    this.zwave = new ManagerZwave(this);
  }

  /** Resolves once the app, its drivers and devices finished `onInit`. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** @internal The runner marks the app ready after every `onInit` resolved. */
  markReady(): void {
    this.#markReady();
  }

  /** Whether the app's manifest asks for `permission` (e.g. `homey:manager:api`). */
  hasPermission(permission: string): boolean {
    const permissions = this.manifest.permissions;
    return Array.isArray(permissions) && permissions.includes(permission);
  }

  /** Shorthand for `this.homey.i18n.__(key, tags)`. */
  __(key: string | Record<string, string>, tags?: object): string {
    return this.i18n.__(key, tags);
  }

  /** `setTimeout` whose timer is cleared when the app stops. */
  setTimeout(callback: (...args: unknown[]) => void, ms: number, ...args: unknown[]): Timer {
    const timer = setTimeout(
      (...callArgs: unknown[]) => {
        this.#timers.delete(timer);
        callback(...callArgs);
      },
      ms,
      ...args,
    );
    this.#timers.add(timer);
    return timer;
  }

  clearTimeout(timer: Timer | undefined): void {
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#timers.delete(timer);
  }

  /** `setInterval` whose timer is cleared when the app stops. */
  setInterval(callback: (...args: unknown[]) => void, ms: number, ...args: unknown[]): Timer {
    const timer = setInterval(callback, ms, ...args);
    this.#intervals.add(timer);
    return timer;
  }

  clearInterval(timer: Timer | undefined): void {
    if (timer === undefined) return;
    clearInterval(timer);
    this.#intervals.delete(timer);
  }

  /** Timers still pending (the runner reports them after `unload`). */
  get pendingTimers(): number {
    return this.#timers.size + this.#intervals.size;
  }

  /** Clears every timer the app set through this instance and removes its listeners (the runner calls it). */
  destroy(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const timer of this.#intervals) clearInterval(timer);
    this.#timers.clear();
    this.#intervals.clear();
    this.removeAllListeners();
  }
}
