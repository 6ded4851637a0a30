import type { ChangeSource } from '../../../core/bus';
import type { Clock } from '../../../core/clock';

/** A flow that starts itself more often than this within {@link LOOP_WINDOW_MS} is paused. */
export const LOOP_LIMIT = 20;
export const LOOP_WINDOW_MS = 10_000;
const NOT_LOOPING = Object.freeze({ paused: false, count: 0 });

/**
 * Tells when a flow keeps starting itself, directly or through devices and other flows. Each run remembers the
 * flows that led to it (its chain): a run caused by a flow's run (a device that run switched, a flow it started)
 * inherits that run's chain. A run whose own flow is already in its chain is a loop; more than {@link LOOP_LIMIT}
 * of those within {@link LOOP_WINDOW_MS} pause the flow.
 */
/** The flows behind a run, newest first: each run adds its own flow in front of its cause's chain (shared). */
interface Chain {
  readonly flow: string;
  readonly next: Chain | null;
}

const inChain = (chain: Chain | null, flow: string): boolean => {
  for (let link = chain; link; link = link.next) if (link.flow === flow) return true;
  return false;
};

export class LoopGuard {
  readonly #chains = new Map<string, Chain>();
  /** Runs that ended, in the order they ended: their chains go once the window passed. */
  readonly #ended: { runId: string; at: number }[] = [];
  #endedHead = 0;
  readonly #loops = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /** The flows behind a change: the causing run's chain, or (when it is long gone) just its flow. */
  #chainOf(source: ChangeSource | null): Chain | null {
    if (source?.kind !== 'flow') return null;
    return (
      this.#chains.get(source.runId) ?? {
        flow: `flow:${source.flowId}`,
        next: { flow: `advancedflow:${source.flowId}`, next: null },
      }
    );
  }

  /** Whether starting `flow` (a `<type>:<id>` key) for a change by `source` loops too often. */
  check(flow: string, source: ChangeSource | null): { paused: boolean; count: number } {
    if (!inChain(this.#chainOf(source), flow)) return NOT_LOOPING;
    const now = this.clock.now();
    const times = (this.#loops.get(flow) ?? []).filter((at) => now - at < LOOP_WINDOW_MS);
    times.push(now);
    this.#loops.set(flow, times);
    if (times.length <= LOOP_LIMIT) return { paused: false, count: times.length };
    this.#loops.delete(flow);
    return { paused: true, count: times.length };
  }

  started(runId: string, flow: string, source: ChangeSource | null): void {
    this.#prune();
    const cause = this.#chainOf(source);
    // A flow already in the chain is not added again: a loop's chain does not grow with its turns.
    this.#chains.set(runId, inChain(cause, flow) ? (cause as Chain) : { flow, next: cause });
  }

  /** The chain stays a while after the run ended: what the run changed may still start flows. */
  ended(runId: string): void {
    this.#ended.push({ runId, at: this.clock.now() });
  }

  /** Forgets the chains of runs that ended longer than the window ago, oldest first. */
  #prune(): void {
    const now = this.clock.now();
    while (this.#endedHead < this.#ended.length) {
      const oldest = this.#ended[this.#endedHead] as { runId: string; at: number };
      if (now - oldest.at <= LOOP_WINDOW_MS) break;
      this.#chains.delete(oldest.runId);
      this.#endedHead += 1;
    }
    if (this.#endedHead > 1024 && this.#endedHead * 2 > this.#ended.length) {
      this.#ended.splice(0, this.#endedHead);
      this.#endedHead = 0;
    }
  }
}
