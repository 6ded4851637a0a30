import { type ClientNode, NetworkClient } from '@matter/main';
import type { Clock } from '../../../core/clock';

/** matter.js widens a requested report interval ceiling by 10 %, and by 10 s at least (its subscription jitter). */
const JITTER_MIN_MS = 10_000;
/** Time for a report that is due to arrive over the network. */
const MARGIN_MS = 5_000;

/** How long a node may stay silent under a report interval ceiling before the hub calls it unreachable. */
export const silenceLimitMs = (ceilingMs: number) => ceilingMs + Math.max(ceilingMs * 0.1, JITTER_MIN_MS) + MARGIN_MS;

/**
 * Notices a node that went silent sooner than matter.js does. matter.js ends a subscription only after its maximum
 * interval plus twice the node's longest response time (about 50 s for a node asked to report every second): the
 * hub instead calls the node unreachable once no report or keepalive came within the interval it asked for (see
 * {@link silenceLimitMs}), and reachable again at the next one. Only used when the hub sets a report interval.
 */
export class LivenessWatch {
  readonly #cancels = new Set<() => void>();

  constructor(
    private readonly clock: Pick<Clock, 'setTimeout'>,
    private readonly limitMs: number,
    private readonly report: (peer: ClientNode, reachable: boolean) => void,
    private readonly onError: (doing: string, error: unknown) => void,
  ) {}

  /** Ends the peer's subscription and starts a new one (matter.js retries it until the node answers). */
  private resubscribe(peer: ClientNode): void {
    const set = (autoSubscribe: boolean) => peer.set({ network: { autoSubscribe } } as Parameters<ClientNode['set']>[0]);
    Promise.resolve(set(false))
      .then(() => set(true))
      .catch((error: unknown) => this.onError(`subscribing again to the silent node ${peer.id}`, error));
  }

  watch(peer: ClientNode): void {
    const events = peer.eventsOf(NetworkClient);
    let cancel: (() => void) | undefined;
    let silent = false;
    const disarm = () => {
      if (cancel) this.#cancels.delete(cancel);
      cancel?.();
      cancel = undefined;
    };
    const arm = () => {
      disarm();
      cancel = this.clock.setTimeout(() => {
        silent = true;
        this.report(peer, false);
        // matter.js still waits out its own timeout on the silent subscription before it tries again: start over
        // now, so that the node is back as soon as it answers.
        this.resubscribe(peer);
      }, this.limitMs);
      this.#cancels.add(cancel);
    };
    events.subscriptionAlive.on(() => {
      if (silent) {
        silent = false;
        this.report(peer, true);
      }
      arm();
    });
    events.subscriptionStatusChanged.on((active) => {
      silent = !active;
      if (active) arm();
      else disarm();
    });
  }

  stop(): void {
    for (const cancel of this.#cancels) cancel();
    this.#cancels.clear();
  }
}
