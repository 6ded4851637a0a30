import { closeSync, fdatasync, openSync } from 'node:fs';

/**
 * Group commit for the hub's SQLite database. Transactions commit to the write-ahead log without waiting for
 * the disk (`synchronous = NORMAL`), which already survives a killed process; before a write is acknowledged
 * the caller awaits `sync()`, one `fdatasync` of the log off the event loop that covers every transaction
 * committed before it started. Concurrent writers share that flush: one starts only after the event loop has
 * taken in the requests that arrived together, so a hub acknowledges many writes per disk flush instead of one.
 */
export class WalDurability {
  private readonly fd: number;
  /** The flush in flight: it may have started before a caller's commit, so it covers none who come now. */
  private running: Promise<void> | null = null;
  /** The next flush, not started yet: it covers everyone who asks before it starts. */
  private next: Promise<void> | null = null;
  /** Flushes started so far (for tests and diagnostics). */
  flushes = 0;

  constructor(walPath: string) {
    this.fd = openSync(walPath, 'a');
  }

  /** Resolves once everything committed before this call is on disk. */
  sync(): Promise<void> {
    this.next ??= (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        this.next = null;
        this.running = this.flush();
        return this.running;
      });
    return this.next;
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

  close(): void {
    closeSync(this.fd);
  }
}
