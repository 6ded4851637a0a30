import type { ChangeSource } from '../../../core/bus';
import type { Clock } from '../../../core/clock';

/** A flow that starts itself more often than this within {@link LOOP_WINDOW_MS} is paused. */
export const LOOP_LIMIT = 20;
export const LOOP_WINDOW_MS = 10_000;

/**
 * Tells when a flow keeps starting itself, directly or through devices and other flows. Each run remembers the
 * flows that led to it (its chain): a run caused by a flow's run (a device that run switched, a flow it started)
 * inherits that run's chain. A run whose own flow is already in its chain is a loop; more than {@link LOOP_LIMIT}
 * of those within {@link LOOP_WINDOW_MS} pause the flow.
 */
export class LoopGuard {
  readonly #chains = new Map<string, { flows: ReadonlySet<string>; endedAt: number | null }>();
  readonly #loops = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /** The flows behind a change: the causing run's chain, or (when it is long gone) just its flow. */
  #chainOf(source: ChangeSource | null): ReadonlySet<string> {
    if (source?.kind !== 'flow') return new Set();
    return this.#chains.get(source.runId)?.flows ?? new Set([`flow:${source.flowId}`, `advancedflow:${source.flowId}`]);
  }

  /** Whether starting `flow` (a `<type>:<id>` key) for a change by `source` loops too often. */
  check(flow: string, source: ChangeSource | null): { paused: boolean; count: number } {
    if (!this.#chainOf(source).has(flow)) return { paused: false, count: 0 };
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
    this.#chains.set(runId, { flows: new Set([...this.#chainOf(source), flow]), endedAt: null });
  }

  /** The chain stays a while after the run ended: what the run changed may still start flows. */
  ended(runId: string): void {
    const chain = this.#chains.get(runId);
    if (chain) chain.endedAt = this.clock.now();
  }

  #prune(): void {
    const now = this.clock.now();
    for (const [runId, chain] of this.#chains) {
      if (chain.endedAt !== null && now - chain.endedAt > LOOP_WINDOW_MS) this.#chains.delete(runId);
    }
  }
}
