import type { HubDatabase } from '../../store/database';

/** Counts of one kind of activity per day (`YYYY-MM-DD` → count) in a month (`YYYY-MM`). */
export type ActivityCounter = (month: string) => Record<string, number>;

/**
 * What the monthly reports count: each manager whose records are activities (notifications, backups, webhook
 * events, utterances, mobile events, diagnostic reports) registers a counter of its own records while it runs.
 * The reports manager asks them; it never reads their tables.
 */
export class ActivityCounters {
  readonly #counters = new Map<string, ActivityCounter>();

  /** Answers the undo. */
  register(key: string, counter: ActivityCounter): () => void {
    this.#counters.set(key, counter);
    return () => {
      if (this.#counters.get(key) === counter) this.#counters.delete(key);
    };
  }

  keys(): string[] {
    return [...this.#counters.keys()];
  }

  perDay(month: string): Record<string, Record<string, number>> {
    return Object.fromEntries([...this.#counters].map(([key, count]) => [key, count(month)]));
  }
}

/**
 * A counter over a manager's own table whose rows carry an ISO creation time in `column`. The table and column
 * are the registering manager's own constants, never input.
 */
export function rowsPerDay(db: HubDatabase, table: string, column: string): ActivityCounter {
  const statement = db.prepare(
    `SELECT substr(${column}, 1, 10) AS day, COUNT(*) AS count FROM ${table} WHERE substr(${column}, 1, 7) = ? GROUP BY day ORDER BY day`,
  );
  return (month) => Object.fromEntries((statement.all(month) as { day: string; count: number }[]).map((r) => [r.day, r.count]));
}
