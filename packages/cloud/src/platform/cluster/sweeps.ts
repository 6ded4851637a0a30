import { sql } from 'kysely';
import type { CloudDatabase } from '../../database';

interface Sweep {
  readonly everyMs: number;
  readonly run: () => Promise<unknown>;
}

export interface SweepLog {
  error(details: object, message: string): void;
}

/**
 * Background sweeps (removing abandoned uploads, incomplete backups) run once per period for the whole cloud, not
 * once per node. Every node ticks each sweep on its own timer; a tick runs the sweep only if it takes the sweep's
 * PostgreSQL advisory lock (no two nodes sweep at once, even when a sweep outlasts its period) and then claims the
 * period in `sweep_runs` (a node whose timer fires just after another node's run leaves it be). When the node that
 * usually sweeps dies, the next tick of another node finds the period due and takes over.
 */
export class Sweeper {
  readonly #sweeps = new Map<string, Sweep>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly database: CloudDatabase,
    private readonly log: SweepLog,
  ) {}

  /** Declares a sweep; its timer starts with {@link start}. */
  every(name: string, everyMs: number, run: () => Promise<unknown>): void {
    if (this.#sweeps.has(name)) throw new Error(`Sweep ${name} is declared twice`);
    this.#sweeps.set(name, { everyMs, run });
  }

  start(): void {
    for (const [name, sweep] of this.#sweeps) {
      const timer = setInterval(() => void this.tick(name), sweep.everyMs);
      timer.unref();
      this.#timers.add(timer);
    }
  }

  stop(): void {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
  }

  /** One tick of a sweep on this node: answers whether this node ran it. Errors are logged, never thrown. */
  async tick(name: string, now = new Date()): Promise<boolean> {
    const sweep = this.#sweeps.get(name);
    if (!sweep) throw new Error(`No sweep named ${name}`);
    // Timers of different nodes drift: a run a little less than a period ago still counts as this period's.
    const slack = Math.min(sweep.everyMs / 10, 60_000);
    const due = new Date(now.getTime() - sweep.everyMs + slack);
    const lockKey = `hearth:${this.database.schema}:sweep:${name}`;
    try {
      // A session lock lives on one connection: hold one for the whole run.
      return await this.database.db.connection().execute(async (connection) => {
        const { rows } = await sql<{
          locked: boolean;
        }>`SELECT pg_try_advisory_lock(hashtextextended(${lockKey}, 0)) AS locked`.execute(connection);
        if (!rows[0]?.locked) return false;
        try {
          const claimed = await connection
            .insertInto('sweep_runs')
            .values({ name, last_run_at: now })
            .onConflict((oc) => oc.column('name').doUpdateSet({ last_run_at: now }).where('sweep_runs.last_run_at', '<=', due))
            .returning('name')
            .executeTakeFirst();
          if (!claimed) return false;
          await sweep.run();
          return true;
        } finally {
          await sql`SELECT pg_advisory_unlock(hashtextextended(${lockKey}, 0))`.execute(connection);
        }
      });
    } catch (error) {
      this.log.error({ err: error, sweep: name }, 'background sweep failed');
      return false;
    }
  }
}
