import { EventEmitter } from 'node:events';

/**
 * The base of every SDK class: an `EventEmitter` with `log` and `error`, which write to the app's standard
 * output and standard error (kept by the hub and shown in the developer's `homey app run` session).
 */
export class SimpleClass extends EventEmitter {
  constructor() {
    super();
    // Apps pass these detached, as the ecosystem documents (`promise.catch(this.error)`): bound once here, a
    // subclass's own `log`/`error` included, so they never lose their instance.
    this.log = this.log.bind(this);
    this.error = this.error.bind(this);
  }

  /** Writes a line to the app's standard output, prefixed with the class's name. */
  log(...args: unknown[]): void {
    console.log(`[log] [${this.constructor.name}]`, ...args);
  }

  /** Writes a line to the app's standard error, prefixed with the class's name. */
  error(...args: unknown[]): void {
    console.error(`[err] [${this.constructor.name}]`, ...args);
  }
}
