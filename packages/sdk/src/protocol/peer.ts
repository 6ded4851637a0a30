/**
 * One end of the request/response/event channel between a hub and an app process. Both ends use it: the hub
 * over a child process's IPC channel, the app's runner over `process.send`. It knows nothing of what the calls
 * mean; {@link ./messages} declares those.
 */

/** An error as it crosses the channel. */
export interface WireError {
  readonly message: string;
  /** A stable code when the error has one (`timeout`, `not_found`, a Hearth error code). */
  readonly code?: string;
  readonly stack?: string;
}

export type Envelope =
  | { readonly t: 'req'; readonly id: number; readonly method: string; readonly params: unknown }
  | { readonly t: 'res'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly t: 'res'; readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly t: 'evt'; readonly event: string; readonly data: unknown };

/** An error the other end answered with, or a call that did not get an answer in time (`code: 'timeout'`). */
export class RemoteError extends Error {
  readonly code: string | undefined;

  constructor(error: WireError) {
    super(error.message);
    this.name = 'RemoteError';
    this.code = error.code;
    if (error.stack) this.stack = error.stack;
  }
}

type MethodMap = Record<string, { params: unknown; result: unknown }>;
type EventMap = Record<string, unknown>;

type Handler<M extends MethodMap, K extends keyof M> = (params: M[K]['params']) => Promise<M[K]['result']> | M[K]['result'];

export interface PeerOptions {
  /** Sends one envelope to the other end; answers false when the channel is gone. */
  send(envelope: Envelope): boolean;
  /** How long a call waits for its answer by default. */
  timeoutMs: number;
  /**
   * Checks an incoming request's or event's data before its handler sees it; answers a problem to refuse it.
   * The hub checks an app's messages against the protocol's schemas; the app trusts its hub.
   */
  check?(kind: 'request' | 'event', name: string, data: unknown): string | null;
  /** Turns a handler's thrown error into what crosses the channel (a Hearth error keeps its code). */
  toWireError?(error: unknown): WireError;
  /** Schedules the timeout of a call (the hub's clock); defaults to an unref'd `setTimeout`. */
  setTimer?(fn: () => void, ms: number): () => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  cancelTimer(): void;
}

const defaultTimer = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

const defaultWireError = (error: unknown): WireError => {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      message: error.message,
      ...(typeof code === 'string' ? { code } : {}),
      ...(error.stack ? { stack: error.stack } : {}),
    };
  }
  return { message: String(error) };
};

/**
 * `Local` is what this end answers, `Remote` what it may ask; `LocalEvents` what it receives, `RemoteEvents`
 * what it sends.
 */
export class Peer<
  Local extends MethodMap,
  Remote extends MethodMap,
  LocalEvents extends EventMap,
  RemoteEvents extends EventMap,
> {
  #nextId = 1;
  #closed: Error | null = null;
  readonly #pending = new Map<number, Pending>();
  readonly #handlers = new Map<string, (params: unknown) => unknown>();
  readonly #listeners = new Map<string, Set<(data: unknown) => void>>();

  constructor(private readonly options: PeerOptions) {}

  /** Calls `method` on the other end; rejects with a {@link RemoteError} (`timeout` after `timeoutMs`). */
  call<K extends keyof Remote & string>(
    method: K,
    params: Remote[K]['params'],
    timeoutMs = this.options.timeoutMs,
  ): Promise<Remote[K]['result']> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const cancelTimer = (this.options.setTimer ?? defaultTimer)(() => {
        this.#pending.delete(id);
        reject(new RemoteError({ code: 'timeout', message: `No answer to ${method} within ${timeoutMs} ms` }));
      }, timeoutMs);
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, cancelTimer });
      if (!this.options.send({ t: 'req', id, method, params })) {
        this.#settle(id, false, new RemoteError({ code: 'unavailable', message: 'The channel to the other end is closed' }));
      }
    });
  }

  /** Sends an event; answers false when the channel is gone. */
  emit<K extends keyof RemoteEvents & string>(event: K, data: RemoteEvents[K]): boolean {
    if (this.#closed) return false;
    return this.options.send({ t: 'evt', event, data });
  }

  /** Answers `method` from the other end with `handler` (one handler per method). */
  handle<K extends keyof Local & string>(method: K, handler: Handler<Local, K>): this {
    this.#handlers.set(method, handler as (params: unknown) => unknown);
    return this;
  }

  on<K extends keyof LocalEvents & string>(event: K, listener: (data: LocalEvents[K]) => void): () => void {
    let listeners = this.#listeners.get(event);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(event, listeners);
    }
    listeners.add(listener as (data: unknown) => void);
    return () => listeners.delete(listener as (data: unknown) => void);
  }

  /** Calls waiting for an answer. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Feeds one message from the other end. Anything that is not an envelope is ignored. */
  receive(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const envelope = message as Envelope;
    if (envelope.t === 'res' && typeof envelope.id === 'number') {
      if (envelope.ok === true) this.#settle(envelope.id, true, envelope.result);
      else this.#settle(envelope.id, false, new RemoteError(sanitize(envelope.error)));
    } else if (envelope.t === 'req' && typeof envelope.id === 'number' && typeof envelope.method === 'string') {
      void this.#answer(envelope.id, envelope.method, envelope.params);
    } else if (envelope.t === 'evt' && typeof envelope.event === 'string') {
      if (this.options.check?.('event', envelope.event, envelope.data)) return;
      for (const listener of this.#listeners.get(envelope.event) ?? []) listener(envelope.data);
    }
  }

  /** The other end is gone: every waiting call rejects with `error`, later calls too. */
  close(error: Error): void {
    this.#closed = error;
    for (const id of [...this.#pending.keys()]) this.#settle(id, false, error);
  }

  async #answer(id: number, method: string, params: unknown): Promise<void> {
    const handler = this.#handlers.get(method);
    const problem = handler ? this.options.check?.('request', method, params) : `Unknown call: ${method}`;
    if (problem) {
      this.options.send({ t: 'res', id, ok: false, error: { code: 'invalid_parameter', message: problem } });
      return;
    }
    try {
      const result = await (handler as (params: unknown) => unknown)(params);
      this.options.send({ t: 'res', id, ok: true, result: result ?? null });
    } catch (error) {
      this.options.send({ t: 'res', id, ok: false, error: (this.options.toWireError ?? defaultWireError)(error) });
    }
  }

  #settle(id: number, ok: boolean, value: unknown): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    pending.cancelTimer();
    if (ok) pending.resolve(value);
    else pending.reject(value as Error);
  }
}

/** An error object from the other end, reduced to strings (an app may send anything). */
function sanitize(error: unknown): WireError {
  const raw = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const message = typeof raw.message === 'string' ? raw.message.slice(0, 2000) : 'Unknown error';
  return {
    message,
    ...(typeof raw.code === 'string' ? { code: raw.code.slice(0, 100) } : {}),
    ...(typeof raw.stack === 'string' ? { stack: raw.stack.slice(0, 8000) } : {}),
  };
}
