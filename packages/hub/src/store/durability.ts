import { closeSync, fdatasync, openSync } from 'node:fs';
import type { Statement } from 'better-sqlite3';
import { attachGroupCommit, type HubDatabase, noteRollback } from './database';

/**
 * Group commit for the hub's SQLite database. The changes made in one turn of the event loop share one
 * transaction, each change a savepoint of it (so a failed change undoes only itself); the group commits to
 * the write-ahead log once the turn is over, and one `fdatasync` of the log then makes every commit before
 * it durable. A write is acknowledged only after `sync()`, so concurrent writers share both the log write and
 * the disk flush: the hub pays one of each per batch of requests instead of one per request, and wears its
 * flash storage less. Commits alone (`synchronous = NORMAL`) already survive a killed process.
 */
export class GroupCommit {
  private readonly fd: number;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  /** One transaction function, reused: inside the open group better-sqlite3 makes each call a savepoint. */
  private readonly savepoint: (change: () => unknown) => unknown;
  /** Whether a group this object began is open (other code may hold a transaction of its own). */
  private open = false;
  /** The flush in flight: it may have started before a caller's commit, so it covers none who come now. */
  private running: Promise<void> | null = null;
  /** The next commit and flush, not started yet: it covers everyone who asks before it starts. */
  private next: Promise<void> | null = null;
  /** Flushes started so far (for tests and diagnostics). */
  flushes = 0;
  /** Groups committed so far. */
  commits = 0;
  /** Groups whose commit failed: every change in them was undone, so none of them may be acknowledged. */
  failures = 0;
  /** Changes made so far: a request that sees this move while it runs waits for `sync()` before answering. */
  changes = 0;

  constructor(
    private readonly db: HubDatabase,
    walPath: string,
  ) {
    this.fd = openSync(walPath, 'a');
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.transaction((change: () => unknown) => change());
    attachGroupCommit(db, this);
  }

  /** Runs `change` in the open group, opening one when none is; the caller awaits `sync()` before acknowledging. */
  transact<T>(change: () => T): T {
    this.#join();
    return this.savepoint(change) as T;
  }

  /** {@link transact} for one statement: SQLite undoes a failed statement by itself, so it needs no savepoint. */
  transactStatement<T>(statement: () => T): T {
    this.#join();
    return statement();
  }

  #join(): void {
    this.changes += 1;
    if (!this.db.inTransaction) {
      this.begin.run();
      this.open = true;
      // The group commits after this turn even when nobody awaits it (a timer's write, say); a failure is
      // counted in `failures` and reported to those who do await.
      this.sync().catch(() => undefined);
    }
  }

  /** Resolves once everything written before this call is committed and on disk; rejects if it was undone. */
  sync(): Promise<void> {
    this.next ??= (this.running ?? Promise.resolve())
      // The group before failed to those who awaited it (counted in `failures`); this one only waits for it to end.
      .catch(() => undefined)
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        this.next = null;
        this.commitOpenGroup();
        this.running = this.flush();
        return this.running;
      });
    return this.next;
  }

  /**
   * Commits the open group now. Statements that cannot run inside a transaction (VACUUM) or that copy the
   * database file (backup) call this first.
   */
  commitOpenGroup(): void {
    if (!this.open) return;
    this.open = false;
    try {
      this.commit.run();
      this.commits += 1;
    } catch (error) {
      // A failed COMMIT may leave the transaction open (a deferred constraint) or have rolled it back (I/O).
      if (this.db.inTransaction) this.rollback.run();
      this.failures += 1;
      noteRollback(this.db);
      throw error;
    }
  }

  private flush(): Promise<void> {
    this.flushes += 1;
    return new Promise<void>((resolve, reject) => {
      // fdatasync, as SQLite itself syncs: the log's content and its size, without its timestamps.
      fdatasync(this.fd, (error) => {
        this.running = null;
        if (error) reject(error);
        else resolve();
      });
    });
  }

  /** Commits what is open and closes the log's file descriptor (the database is closed by its owner). */
  close(): void {
    try {
      this.commitOpenGroup();
    } finally {
      closeSync(this.fd);
    }
  }
}
