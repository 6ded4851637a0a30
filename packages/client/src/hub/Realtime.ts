import { Emitter, withTimeout } from '../core/emitter';
import { APIError, errorFor, messages, TimeoutError } from '../core/errors';
import type { ClientSocket, SocketFactory, SocketOptions } from '../core/platform';
import { errorMessage } from '../core/transport';

/** Seed section 9 and the wire facts: the realtime client's limits. */
export const REALTIME = {
  handshakeTimeout: 10_000,
  subscribeTimeout: 10_000,
  apiTimeout: 10_000,
  connectTimeout: 20_000,
  reconnectionDelay: 100,
  reconnectionDelayMax: 10_000,
  randomizationFactor: 0.5,
} as const;

export type RealtimeListener = (event: string, data: unknown) => void;

export interface RealtimeOptions {
  url: string;
  hubId: string;
  socket: SocketFactory;
  /** The token to handshake with (session token or PAT). */
  token(): string | null;
  /** Logs in again after a 401 handshake (cloud-made clients); answers the new token. */
  relogin?: () => Promise<string>;
  debug?: (line: string) => void;
  /** Reconnect after the connection drops (default true). */
  reconnect?: boolean;
}

type State = 'disconnected' | 'connecting' | 'connected';

/** Converts an error body an ack carried to a typed error. */
function ackError(value: unknown): APIError {
  if (value instanceof Error) return new APIError(value.message, 500);
  const body = value as { statusCode?: unknown; error?: unknown } | null;
  const status = typeof body?.statusCode === 'number' ? body.statusCode : 500;
  const code = typeof body?.error === 'string' ? body.error : undefined;
  return errorFor(status, errorMessage(value, messages.unknown), code);
}

/** Emits `event` with an acknowledgement and waits for it. */
function request(socket: ClientSocket, ms: number, timeoutMessage: string, event: string, ...args: unknown[]) {
  return withTimeout(
    new Promise<unknown>((resolve, reject) => {
      socket.emit(event, ...args, (error: unknown, result: unknown) => (error ? reject(ackError(error)) : resolve(result)));
    }),
    ms,
    () => new TimeoutError(timeoutMessage),
  );
}

/**
 * The hub's realtime connection: one socket.io connection whose root namespace carries the in-band
 * handshake, then the `/api` namespace for subscriptions, events and calls. After a reconnect it handshakes
 * again and re-subscribes every URI: the hub keeps no subscription state across connections.
 *
 * Events: `connect` (ready: handshaken, namespace joined, subscriptions restored), `disconnect`, `reconnect`,
 * `error`.
 */
export class Realtime extends Emitter {
  #root: ClientSocket | null = null;
  #api: ClientSocket | null = null;
  #state: State = 'disconnected';
  #ready: Promise<void> | null = null;
  #settle: { resolve(): void; reject(error: Error): void } | null = null;
  #connectedOnce = false;
  readonly #listeners = new Map<string, Set<RealtimeListener>>();
  readonly #dispatchers = new WeakMap<ClientSocket, Set<string>>();

  constructor(private readonly options: RealtimeOptions) {
    super();
  }

  get connected(): boolean {
    return this.#state === 'connected' && this.#api?.connected === true;
  }

  /** Opens the connection (once) and resolves when it is ready to subscribe and call. */
  connect(): Promise<void> {
    if (this.#ready) return this.#ready;
    this.#ready = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Every caller awaits `#ready` and hears its failure; this only keeps an unawaited one from being unhandled.
    this.#ready.catch(() => {});
    const socketOptions: SocketOptions = {
      transports: ['websocket'],
      path: '/socket.io/',
      reconnection: this.options.reconnect ?? true,
      reconnectionDelay: REALTIME.reconnectionDelay,
      reconnectionDelayMax: REALTIME.reconnectionDelayMax,
      randomizationFactor: REALTIME.randomizationFactor,
      timeout: REALTIME.connectTimeout,
      autoConnect: false,
    };
    this.#state = 'connecting';
    const ready = this.#ready;
    Promise.resolve()
      .then(() => this.options.socket(this.options.url, socketOptions))
      .then(
        (root) => {
          // Destroyed (or destroyed and connected again) while a custom factory was opening it: this one is stale.
          if (this.#ready !== ready) return void root.disconnect();
          this.#open(root);
        },
        (error: Error) => {
          if (this.#ready === ready) this.#fail(new APIError(error.message, 500, 'connect_error'));
        },
      );
    return withTimeout(this.#ready, REALTIME.connectTimeout, () => new TimeoutError(messages.notConnected));
  }

  #open(root: ClientSocket): void {
    this.#root = root;
    root.on('connect', () => {
      void this.#onConnect(root);
    });
    root.on('disconnect', (reason: string) => {
      this.#debug(`disconnected: ${reason}`);
      this.#api?.disconnect();
      this.#state = 'connecting';
      this.emit('disconnect', reason);
      // The server closed us on purpose: socket.io does not retry that by itself.
      if (reason === 'io server disconnect' && (this.options.reconnect ?? true)) root.connect();
    });
    root.on('connect_error', (error: Error) => {
      this.#debug(`connect error: ${error.message}`);
      this.#fail(new APIError(error.message, 500, 'connect_error'));
    });
    root.connect();
  }

  async #onConnect(root: ClientSocket): Promise<void> {
    try {
      const namespace = await this.#handshake(root);
      const api = root.io.socket(namespace);
      this.#api = api;
      for (const uri of this.#listeners.keys()) this.#attach(api, uri);
      if (!api.connected) {
        await withTimeout(
          new Promise<void>((resolve, reject) => {
            const onConnect = () => {
              api.off('connect_error', onError);
              resolve();
            };
            const onError = (error: Error) => {
              api.off('connect', onConnect);
              reject(new APIError(error.message, 401, 'namespace_refused'));
            };
            api.once('connect', onConnect);
            api.once('connect_error', onError);
            api.connect();
          }),
          REALTIME.handshakeTimeout,
          () => new TimeoutError(messages.notConnected),
        );
      }
      await Promise.all([...this.#listeners.keys()].map((uri) => this.#subscribeRemote(api, uri)));
      this.#state = 'connected';
      this.#debug('connected');
      this.emit('connect');
      if (this.#connectedOnce) this.emit('reconnect');
      this.#connectedOnce = true;
      this.#settle?.resolve();
    } catch (error) {
      this.#debug(`connect failed: ${(error as Error).message}`);
      this.#fail(error as Error);
    }
  }

  #fail(error: Error): void {
    if (!this.#connectedOnce && this.#settle) {
      const settle = this.#settle;
      this.#settle = null;
      this.destroy();
      settle.reject(error);
    } else {
      this.emit('error', error);
    }
  }

  async #handshake(root: ClientSocket, retried = false): Promise<string> {
    try {
      const answer = (await request(root, REALTIME.handshakeTimeout, messages.handshakeTimeout, 'handshakeClient', {
        token: this.options.token(),
        homeyId: this.options.hubId,
      })) as { namespace?: unknown } | null;
      return typeof answer?.namespace === 'string' ? answer.namespace : '/api';
    } catch (error) {
      if (!retried && error instanceof APIError && error.statusCode === 401 && this.options.relogin) {
        await this.options.relogin();
        return this.#handshake(root, true);
      }
      throw error;
    }
  }

  #attach(api: ClientSocket, uri: string): void {
    let attached = this.#dispatchers.get(api);
    if (!attached) {
      attached = new Set();
      this.#dispatchers.set(api, attached);
    }
    if (attached.has(uri)) return;
    attached.add(uri);
    api.on(uri, (event: string, data: unknown) => {
      for (const listener of [...(this.#listeners.get(uri) ?? [])]) listener(event, data);
    });
  }

  async #subscribeRemote(api: ClientSocket, uri: string): Promise<void> {
    await request(api, REALTIME.subscribeTimeout, messages.subscribeTimeout(uri), 'subscribe', uri);
    this.#debug(`subscribed ${uri}`);
  }

  /**
   * Subscribes `listener` to the events of `uri` (`homey:manager:devices`, `homey:device:<id>`); connects
   * first if needed. Answers the function that unsubscribes it.
   */
  async subscribe(uri: string, listener: RealtimeListener): Promise<() => void> {
    await this.connect();
    let set = this.#listeners.get(uri);
    const first = !set;
    if (!set) {
      set = new Set();
      this.#listeners.set(uri, set);
    }
    set.add(listener);
    const api = this.#api;
    if (first && api) {
      this.#attach(api, uri);
      try {
        await this.#subscribeRemote(api, uri);
      } catch (error) {
        set.delete(listener);
        if (set.size === 0) this.#listeners.delete(uri);
        throw error;
      }
    }
    return () => this.#unsubscribe(uri, listener);
  }

  #unsubscribe(uri: string, listener: RealtimeListener): void {
    const set = this.#listeners.get(uri);
    if (!set?.delete(listener) || set.size > 0) return;
    this.#listeners.delete(uri);
    if (this.connected) this.#api?.emit('unsubscribe', uri);
  }

  /** Whether anything listens to `uri`. */
  isSubscribed(uri: string): boolean {
    return this.#listeners.has(uri);
  }

  /** Calls a manager operation over the socket's `api` event. */
  async api(uri: string, operation: string, args: object, timeout: number = REALTIME.apiTimeout): Promise<unknown> {
    const api = this.#api;
    if (!api || !this.connected) throw new APIError(messages.notConnected, 500, 'not_connected');
    return request(api, timeout, `Timeout after ${timeout}ms`, 'api', { uri, operation, args });
  }

  /** Closes the connection; listeners stay registered for a later {@link connect}. */
  destroy(): void {
    const root = this.#root;
    this.#root = null;
    this.#api?.disconnect();
    this.#api = null;
    this.#ready = null;
    this.#settle = null;
    this.#connectedOnce = false;
    this.#state = 'disconnected';
    if (root) {
      root.off();
      root.disconnect();
    }
  }

  #debug(line: string): void {
    this.options.debug?.(`[realtime] ${line}`);
  }
}
