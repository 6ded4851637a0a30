import type { HubDatabase } from '../store/database';

interface Job {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const queues = new WeakMap<HubDatabase, Job[]>();

/**
 * Group commit. Runs `write` (synchronous, may use `db.transaction`) in a transaction shared with the other
 * writes queued in the same turn of the event loop, each inside its own savepoint, and settles once that
 * transaction is committed. With `synchronous = FULL` a commit costs one fsync (several milliseconds here), so
 * concurrent writers share it instead of queueing behind each other's; each is still durable before it is
 * answered. A write that throws is rolled back alone and rejects with its error.
 *
 * Announce the change (events) after the returned promise settles, never inside `write`.
 */
export function durably<T>(db: HubDatabase, write: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = [];
      queues.set(db, queue);
      setImmediate(() => flush(db));
    }
    queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
  });
}

function flush(db: HubDatabase): void {
  const jobs = queues.get(db) ?? [];
  queues.delete(db);
  if (!db.open) {
    for (const job of jobs) job.reject(new Error('The database is closed'));
    return;
  }
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    db.exec('BEGIN IMMEDIATE');
    for (const job of jobs) {
      db.exec('SAVEPOINT hearth_write');
      try {
        const value = job.write();
        db.exec('RELEASE hearth_write');
        outcomes.push({ ok: true, value });
      } catch (error) {
        db.exec('ROLLBACK TO hearth_write');
        db.exec('RELEASE hearth_write');
        outcomes.push({ ok: false, error });
      }
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    for (const job of jobs) job.reject(error);
    return;
  }
  jobs.forEach((job, index) => {
    const outcome = outcomes[index];
    if (outcome?.ok) job.resolve(outcome.value);
    else job.reject(outcome?.error);
  });
}
