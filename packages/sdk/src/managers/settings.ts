import type { Homey } from '../lib/homey';
import { Manager } from './manager';

/**
 * `this.homey.settings`: the app's settings, a persistent key-value store kept by the hub (also what the app's
 * settings page and `GET /api/manager/apps/app/{id}/setting` show). Reads answer at once from the app's copy;
 * writes update it at once and reach the hub in the order they were made.
 *
 * Events: `set` (key) after a key was set, `unset` (key) after it was removed, whether by the app itself or by
 * someone else (the settings page, the web API).
 */
export class ManagerSettings extends Manager {
  static ID = 'settings';
  readonly #values: Map<string, unknown>;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(homey: Homey) {
    super(homey);
    this.#values = new Map(Object.entries(this.bridge.init.settings));
  }

  /** Every key that has a value. */
  getKeys(): string[] {
    return [...this.#values.keys()];
  }

  /** The value of `key`, or `null` when it has none. */
  get(key: string): unknown {
    return this.#values.has(key) ? structuredClone(this.#values.get(key)) : null;
  }

  /** Sets `key` to `value` (any JSON value) and emits `set`. */
  set(key: string, value: unknown): void {
    if (typeof key !== 'string' || key === '') throw new TypeError('A setting key must be a non-empty string');
    if (value === undefined) throw new TypeError('A setting value cannot be undefined; use unset');
    const copy = JSON.parse(JSON.stringify(value)) as unknown;
    this.#values.set(key, copy);
    this.#write(() => this.bridge.call('settings.set', { key, value: copy }));
    this.emit('set', key);
  }

  /** Removes `key` and emits `unset`. */
  unset(key: string): void {
    this.#values.delete(key);
    this.#write(() => this.bridge.call('settings.unset', { key }));
    this.emit('unset', key);
  }

  /** A change made outside the app (internal: the runner calls it for the hub's `setting` event). */
  applyRemote(key: string, value: unknown, removed: boolean): void {
    if (removed) {
      if (!this.#values.delete(key)) return;
      this.emit('unset', key);
    } else {
      this.#values.set(key, value);
      this.emit('set', key);
    }
  }

  #write(write: () => Promise<unknown>): void {
    this.#writes = this.#writes.then(write).catch((error: unknown) => this.error('A setting could not be stored:', error));
  }
}
