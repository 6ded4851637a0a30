import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AppBridge, construct } from '../internal/bridge';
import { App } from '../lib/app';
import { Device, type DeviceBinding, deviceInternals } from '../lib/device';
import { Driver, type DriverBinding } from '../lib/driver';
import type { FlowCard } from '../lib/flow-card';
import { Homey } from '../lib/homey';
import { PairSession, pairSessionInternals } from '../lib/pair-session';
import type { DeviceSnapshot, FlowCardKind, HubToAppMethods, InitParams } from '../protocol/messages';

/** The most bytes of an image one `image.chunk` event carries (base64 grows it by a third). */
const IMAGE_CHUNK_BYTES = 512 * 1024;

type Params<K extends keyof HubToAppMethods> = HubToAppMethods[K]['params'];
type Result<K extends keyof HubToAppMethods> = Promise<HubToAppMethods[K]['result']>;
type Handlers = { [K in keyof HubToAppMethods]?: (params: Params<K>) => Result<K> };

/** Loads the class a module of the app exports (`module.exports = class …`, or `export default`). */
function loadClass<T>(file: string, fallback: new () => T): new () => T {
  if (!existsSync(file)) return fallback;
  const loaded = require(file) as unknown;
  const exported = (loaded as { default?: unknown })?.default ?? loaded;
  if (typeof exported !== 'function') throw new Error(`${file} must export a class`);
  return exported as new () => T;
}

/**
 * One running app inside its process: the Homey instance, the app, its drivers and devices, and the answers to
 * the hub's requests. The runner creates it on `init`.
 */
export class AppInstance {
  readonly homey: Homey;
  readonly #devices = new Map<string, Device>();
  readonly #deviceClasses = new Map<string, new () => Device>();
  readonly #sessions = new Map<string, PairSession>();
  #app: App | undefined;
  #api: Record<string, unknown> | undefined;

  constructor(
    private readonly bridge: AppBridge,
    private readonly init: InitParams,
  ) {
    this.homey = new Homey(bridge);
  }

  /** Constructs the app, then each driver, then each device, running every `onInit` in that order. */
  async start(): Promise<void> {
    const { dir, manifest } = this.init;
    const app = construct(loadClass(join(dir, 'app.js'), App), { homey: this.homey });
    this.#app = app;
    this.homey.app = app;
    await app.onInit();
    for (const driverManifest of (manifest.drivers ?? []) as Record<string, unknown>[]) {
      const id = String(driverManifest.id);
      const binding: DriverBinding = {
        homey: this.homey,
        id,
        manifest: driverManifest,
        devices: () => [...this.#devices.values()].filter((d) => deviceInternals.snapshot(d).driverId === id),
      };
      const driver = construct(loadClass(join(dir, 'drivers', id, 'driver.js'), Driver), binding);
      this.homey.drivers.add(driver);
      this.#deviceClasses.set(id, loadClass(join(dir, 'drivers', id, 'device.js'), Device));
      await driver.onInit();
      driver.markReady();
    }
    for (const snapshot of this.init.devices) await this.#addDevice(snapshot);
    this.homey.markReady();
  }

  /** `onUninit` of every device, driver and the app; then every timer the app set through Homey is cleared. */
  async stop(): Promise<void> {
    for (const device of this.#devices.values()) await settle(() => device.onUninit(), device);
    for (const driver of Object.values(this.homey.drivers.getDrivers())) await settle(() => driver.onUninit(), driver);
    if (this.#app) await settle(() => (this.#app as App).onUninit(), this.#app);
    for (const device of this.#devices.values()) device.destroy();
    this.homey.destroy();
  }

  handlers(): Handlers {
    return {
      'capability.set': ({ deviceId, values, opts }) =>
        deviceInternals.write(this.#device(deviceId), values, opts).then(() => null),
      'device.added': async ({ device }) => {
        // A device the app already has (it was in the snapshot the app started with) is not added twice.
        if (this.#devices.has(device.id)) return null;
        const added = await this.#addDevice(device);
        await added.onAdded();
        return null;
      },
      'device.deleted': async ({ deviceId }) => {
        const device = this.#device(deviceId);
        this.#devices.delete(deviceId);
        await settle(() => device.onDeleted(), device);
        await settle(() => device.onUninit(), device);
        device.destroy();
        return null;
      },
      'device.renamed': async ({ deviceId, name }) => {
        const device = this.#device(deviceId);
        deviceInternals.rename(device, name);
        await device.onRenamed(name);
        return null;
      },
      'device.settings': async ({ deviceId, oldSettings, newSettings, changedKeys }) => ({
        message: await deviceInternals.settings(this.#device(deviceId), {
          oldSettings: oldSettings as Record<string, never>,
          newSettings: newSettings as Record<string, never>,
          changedKeys,
        }),
      }),
      'pair.open': async ({ sessionId, driverId, type, deviceId }) => {
        const driver = this.homey.drivers.getDriver(driverId);
        const session = new PairSession(sessionId, type, this.bridge);
        this.#sessions.set(sessionId, session);
        if (type === 'pair') await driver.onPair(session);
        else {
          const device = this.#device(deviceId ?? '');
          await (type === 'repair' ? driver.onRepair(session, device) : driver.onUnpair(session, device));
        }
        return null;
      },
      'pair.message': ({ sessionId, event, data }) => pairSessionInternals.dispatch(this.#session(sessionId), event, data),
      'pair.close': async ({ sessionId }) => {
        const session = this.#sessions.get(sessionId);
        this.#sessions.delete(sessionId);
        if (session)
          await pairSessionInternals
            .dispatch(session, 'disconnect', null)
            .catch((error) => this.homey.error('pair session: the disconnect handler failed:', error));
        return null;
      },
      'flow.run': async ({ kind, cardId, args, state, deviceId }) => {
        const card = this.homey.flow.find(kind, cardId);
        const listener = card?.runListener;
        if (!listener) {
          // A trigger whose listener was never registered fires every flow using it, as in the ecosystem.
          if (kind === 'trigger') return { result: true };
          throw new Error(`The ${kind} card ${cardId} has no run listener`);
        }
        const withDevice = deviceId ? { ...args, device: this.#device(deviceId) } : args;
        return { result: (await listener(withDevice, state)) ?? null };
      },
      'flow.autocomplete': async ({ kind, cardId, argument, query, args }) => {
        const card = this.#card(kind, cardId);
        const listener = card.getArgument(argument).autocompleteListener;
        if (!listener) throw new Error(`The argument ${argument} of ${cardId} has no autocomplete listener`);
        const results = await listener(query, args);
        if (!Array.isArray(results)) throw new Error(`The autocomplete listener of ${cardId}.${argument} must answer an array`);
        return results.map((r) => ({ ...r }));
      },
      'api.request': async ({ route, params, query, body }) => {
        const handler = this.#apiHandlers()[route];
        if (typeof handler !== 'function')
          throw Object.assign(new Error(`api.js has no handler ${route}`), { code: 'not_found' });
        return (await (handler as (args: unknown) => unknown)({ homey: this.homey, params, query, body })) ?? null;
      },
      'image.open': async ({ imageId, streamId }) => {
        const image = this.homey.images.find(imageId);
        if (!image) throw Object.assign(new Error(`Image not found: ${imageId}`), { code: 'not_found' });
        const { contentType, stream } = await image.open();
        // The bytes follow the answer (the hub sets up where they go before it asks).
        setImmediate(() => void this.#sendImage(streamId, stream));
        return { contentType };
      },
      gc: async () => {
        (globalThis as { gc?: () => void }).gc?.();
        return { heapUsed: process.memoryUsage().heapUsed };
      },
    };
  }

  /** Sends an opened image's bytes to the hub as `image.chunk` events, then `image.end`. */
  async #sendImage(streamId: string, stream: AsyncIterable<Buffer>): Promise<void> {
    let error: string | null = null;
    try {
      for await (const chunk of stream) {
        for (let at = 0; at < chunk.length; at += IMAGE_CHUNK_BYTES) {
          const data = chunk.subarray(at, at + IMAGE_CHUNK_BYTES).toString('base64');
          if (!this.bridge.emit('image.chunk', { streamId, data })) return;
        }
      }
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    this.bridge.emit('image.end', { streamId, error });
  }

  async #addDevice(snapshot: DeviceSnapshot): Promise<Device> {
    const driver = this.homey.drivers.getDriver(snapshot.driverId);
    const mapped = driver.onMapDeviceClass(deviceInfo(snapshot));
    const DeviceClass = mapped ?? this.#deviceClasses.get(snapshot.driverId) ?? Device;
    const binding: DeviceBinding = { homey: this.homey, driver, snapshot };
    const device = construct(DeviceClass, binding);
    this.#devices.set(snapshot.id, device);
    try {
      await device.onInit();
    } catch (error) {
      // A device that fails to start is shown unavailable with the reason; the app and other devices go on.
      device.error('onInit failed:', error);
      await device
        .setUnavailable(error instanceof Error ? error.message : String(error))
        .catch((refused) => device.error('marking the device unavailable failed:', refused));
    }
    device.markReady();
    return device;
  }

  #device(id: string): Device {
    const device = this.#devices.get(id);
    if (!device) throw Object.assign(new Error(`The app has no device ${id}`), { code: 'not_found' });
    return device;
  }

  #session(id: string): PairSession {
    const session = this.#sessions.get(id);
    if (!session) throw Object.assign(new Error(`No pair session ${id} in the app`), { code: 'not_found' });
    return session;
  }

  #card(kind: FlowCardKind, id: string): FlowCard {
    const card = this.homey.flow.find(kind, id);
    if (!card) throw new Error(`The app never registered the ${kind} card ${id}`);
    return card;
  }

  /** The handlers of `api.js` (loaded on the first request). */
  #apiHandlers(): Record<string, unknown> {
    if (!this.#api) {
      const file = join(this.init.dir, 'api.js');
      if (!existsSync(file)) throw Object.assign(new Error('The app has no api.js'), { code: 'not_found' });
      const loaded = require(file) as Record<string, unknown>;
      this.#api = (loaded?.default as Record<string, unknown>) ?? loaded;
    }
    return this.#api;
  }
}

/** What `onMapDeviceClass` sees of a device before it is constructed. */
function deviceInfo(snapshot: DeviceSnapshot) {
  return {
    getData: () => structuredClone(snapshot.data),
    getStore: () => structuredClone(snapshot.store),
    getStoreValue: (key: string) => snapshot.store[key] ?? null,
    getSettings: () => structuredClone(snapshot.settings),
    getSetting: (key: string) => snapshot.settings[key] ?? null,
    getName: () => snapshot.name,
    getClass: () => snapshot.class,
    getCapabilities: () => [...snapshot.capabilities],
    hasCapability: (id: string) => snapshot.capabilities.includes(id),
  };
}

/** Runs an app's hook; a hook that throws is logged (on the object that threw) and does not stop the others. */
async function settle(hook: () => unknown, owner: { error(...args: unknown[]): void }): Promise<void> {
  try {
    await hook();
  } catch (error) {
    owner.error(error);
  }
}
