import type { AppBridge } from '../internal/bridge';
import type { PairSessionType } from '../protocol/messages';

export type PairSessionHandler = (data: unknown) => Promise<unknown> | unknown;

/** The runner's access to a session's handlers (not part of the public SDK). */
export let pairSessionInternals: {
  dispatch(session: PairSession, event: string, data: unknown): Promise<unknown>;
};

/** Events the hub sends every session; a session without a handler for them simply ignores them. */
const SYSTEM_EVENTS = new Set(['showView', 'disconnect']);

/**
 * A pair, repair or unpair session between a user's client (showing the driver's pair views) and the driver.
 * `onPair(session)` registers handlers for what the views emit (`list_devices` for the system template, or a
 * custom view's `Homey.emit('login', data)`), and drives the views with `showView`, `nextView`, `done`.
 */
export class PairSession {
  readonly #handlers = new Map<string, PairSessionHandler>();

  constructor(
    readonly id: string,
    readonly type: PairSessionType,
    private readonly bridge: AppBridge,
  ) {}

  static {
    pairSessionInternals = {
      dispatch: async (session, event, data) => {
        const handler = session.#handlers.get(event);
        if (!handler) {
          if (SYSTEM_EVENTS.has(event)) return null;
          throw new Error(`The pair session has no handler for ${event}`);
        }
        return handler(data);
      },
    };
  }

  /**
   * Answers `event` from the views with `handler`; what it resolves to goes back to the view (and, for
   * `list_devices`, the devices offered to the user). Throwing shows the user the error's message.
   */
  setHandler(event: string, handler: PairSessionHandler): this {
    if (typeof handler !== 'function') throw new TypeError('A pair session handler must be a function');
    this.#handlers.set(event, handler);
    return this;
  }

  /** Sends `event` with `data` to the views (a custom view's `Homey.on(event)`); answers what the view answers. */
  emit(event: string, data?: unknown): Promise<unknown> {
    return this.bridge.call('pair.emit', { sessionId: this.id, event, data: data ?? null });
  }

  /** Shows the view with id `viewId` (of the driver's `pair` list). */
  async showView(viewId: string): Promise<void> {
    await this.bridge.call('pair.showView', { sessionId: this.id, viewId });
  }

  async nextView(): Promise<void> {
    await this.bridge.call('pair.nextView', { sessionId: this.id });
  }

  async prevView(): Promise<void> {
    await this.bridge.call('pair.prevView', { sessionId: this.id });
  }

  /** Closes the views: the session is finished. */
  async done(): Promise<void> {
    await this.bridge.call('pair.done', { sessionId: this.id });
  }
}
