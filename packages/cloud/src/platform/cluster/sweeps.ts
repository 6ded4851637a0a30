import { type Clock, systemClock } from '@hearth/contract/clock';
import { sql } from 'kysely';
import type { CloudDatabase } from '../../database';

interface Sweep {
  readonly everyMs: number;
  readonly run: () => Promise<unknown>;
}

/** The shortest period a sweep runs at, however sped up. */
export const SHORTEST_PERIOD_MS = 250;

export interface SweepLog {
  error(details: object, message: string): void;
}

/**
 * Background sweeps (removing abandoned uploads, incomplete backups, expiring subscriptions) run once per period for
 * the whole cloud, not once per node. Every node ticks each sweep on its own timer; a tick runs the sweep only if it
 * claims the period in `sweep_runs`, in one statement: the last run must be a period old, and no other node's claim
 * may still hold (`running_until`, so no two nodes sweep at once even when a run outlasts its period). The claim is
 * released when the run ends; a node that dies mid-run leaves it to lapse, and another node's next tick takes over.
 *
 * No connection is held across the run: the sweep's own queries need one, and embedded PGlite has only one (holding
 * it for a session lock, as this once did, made the first sweep wait on itself and every request queue behind it).
 */
export class Sweeper {
  readonly #sweeps = new Map<string, Sweep>();
  readonly #timers = new Set<() => void>();

  /**
   * @param speedup divides every sweep's period (`HEARTH_SWEEP_SPEEDUP`): a soak test runs hours of sweeps in a
   *   minute. Periods never go below {@link SHORTEST_PERIOD_MS}.
   */
  constructor(
    private readonly database: CloudDatabase,
    private readonly log: SweepLog,
    private readonly speedup = 1,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Declares a sweep; its timer starts with {@link start}. */
  every(name: string, everyMs: number, run: () => Promise<unknown>): void {
    if (this.#sweeps.has(name)) throw new Error(`Sweep ${name} is declared twice`);
    this.#sweeps.set(name, { everyMs: Math.max(SHORTEST_PERIOD_MS, Math.round(everyMs / this.speedup)), run });
  }

  /** The sweeps declared, by name, with their periods. */
  get declared(): ReadonlyMap<string, number> {
    return new Map([...this.#sweeps].map(([name, sweep]) => [name, sweep.everyMs]));
  }

  start(): void {
    for (const [name, sweep] of this.#sweeps) {
      this.#timers.add(this.clock.setInterval(() => void this.tick(name), sweep.everyMs));
    }
  }

  stop(): void {
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
  }

  /** One tick of a sweep on this node: answers whether this node ran it. Errors are logged, never thrown. */
  async tick(name: string, now = new Date(this.clock.now())): Promise<boolean> {
    const sweep = this.#sweeps.get(name);
    if (!sweep) throw new Error(`No sweep named ${name}`);
    // Timers of different nodes drift: a run a little less than a period ago still counts as this period's.
    const slack = Math.min(sweep.everyMs / 10, 60_000);
    const due = new Date(now.getTime() - sweep.everyMs + slack);
    // A run that outlasts two periods is taken for dead: another node may then run the sweep again.
    const lease = new Date(now.getTime() + 2 * sweep.everyMs);
    const { db } = this.database;
    try {
      const claimed = await db
        .insertInto('sweep_runs')
        .values({ name, last_run_at: now, running_until: lease, runs: 1 })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ last_run_at: now, running_until: lease, runs: sql<number>`sweep_runs.runs + 1` })
            .where('sweep_runs.last_run_at', '<=', due)
            .where((eb) => eb.or([eb('sweep_runs.running_until', 'is', null), eb('sweep_runs.running_until', '<=', now)])),
        )
        .returning('name')
        .executeTakeFirst();
      if (!claimed) return false;
      try {
        await sweep.run();
        return true;
      } finally {
        await db
          .updateTable('sweep_runs')
          .set({ running_until: null })
          .where('name', '=', name)
          .where('running_until', '=', lease)
          .execute();
      }
    } catch (error) {
      this.log.error({ err: error, sweep: name }, 'background sweep failed');
      return false;
    }
  }
}
