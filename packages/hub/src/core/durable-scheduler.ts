import { randomUUID } from 'node:crypto';
import { type HubDatabase, type Migration, transact } from '../store/database';
import { Statements } from '../store/statements';
import type { Clock } from './clock';
import type { JobHandler, JobRequest, MisfirePolicy, MissedJob, ScheduledJob, Scheduler } from './scheduler';

export const schedulerMigrations: Migration[] = [
  {
    id: 'core-001-scheduled-job',
    up: (db) =>
      db.exec(`CREATE TABLE scheduled_job (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        owner TEXT NOT NULL,
        due_at INTEGER NOT NULL,
        payload TEXT NOT NULL,
        misfire TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX scheduled_job_due ON scheduled_job (due_at);
      CREATE INDEX scheduled_job_owner ON scheduled_job (owner);
      CREATE TABLE missed_job (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        owner TEXT NOT NULL,
        due_at INTEGER NOT NULL,
        late_by INTEGER NOT NULL,
        payload TEXT NOT NULL,
        recorded_at INTEGER NOT NULL
      );
      CREATE INDEX missed_job_recorded ON missed_job (recorded_at)`),
  },
];

interface JobRow {
  id: string;
  kind: string;
  owner: string;
  due_at: number;
  payload: string;
  misfire: string;
  created_at: number;
}

const RUN_LATE: MisfirePolicy = { kind: 'run-late' };
/** The longest the scheduler sleeps before looking again: Node's timers overflow past 2^31 ms. */
const MAX_SLEEP_MS = 3_600_000;
/** Missed jobs kept for inspection. */
const MISSED_KEPT = 500;

const toJob = (row: JobRow): ScheduledJob => ({
  id: row.id,
  kind: row.kind,
  owner: row.owner,
  dueAt: row.due_at,
  payload: JSON.parse(row.payload),
  misfire: JSON.parse(row.misfire) as MisfirePolicy,
  createdAt: row.created_at,
});

/**
 * The hub's scheduler over SQLite (`scheduled_job`). One clock timer waits for the earliest job. Taking a job off
 * the table and the handler's synchronous writes share one transaction of the hub's group commit, so a job whose
 * effects were made durable is gone for good and a job whose effects were lost with a killed process runs again
 * after the restart: each job takes effect once. What a handler does after its first `await` runs at most once.
 */
export class DurableScheduler implements Scheduler {
  readonly #statements: Statements;
  readonly #handlers = new Map<string, JobHandler<unknown>>();
  readonly #running = new Set<Promise<void>>();
  #cancelTimer: (() => void) | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #started = false;

  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
    private readonly onError: (error: unknown, job: ScheduledJob) => void = () => {},
  ) {
    this.#statements = new Statements(db);
  }

  /** Begins running due jobs (those that fell due while the hub was down first). */
  start(): void {
    this.#started = true;
    this.#arm();
  }

  /** Stops the timer and waits for the handlers still running. Pending jobs stay in the table. */
  async stop(): Promise<void> {
    this.#started = false;
    this.#disarm();
    await Promise.allSettled([...this.#running]);
  }

  handle<P>(kind: string, handler: JobHandler<P>): () => void {
    this.#handlers.set(kind, handler as JobHandler<unknown>);
    // Jobs of this kind may have waited for it.
    this.#soon();
    return () => {
      if (this.#handlers.get(kind) === handler) this.#handlers.delete(kind);
    };
  }

  schedule<P>(request: JobRequest<P>): ScheduledJob<P> {
    if (!Number.isFinite(request.dueAt)) throw new RangeError('A job needs a finite due time');
    const job: ScheduledJob<P> = {
      id: randomUUID(),
      kind: request.kind,
      owner: request.owner,
      dueAt: Math.round(request.dueAt),
      payload: request.payload,
      misfire: request.misfire ?? RUN_LATE,
      createdAt: this.clock.now(),
    };
    transact(this.db, () =>
      this.#sql(
        'INSERT INTO scheduled_job (id, kind, owner, due_at, payload, misfire, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(
        job.id,
        job.kind,
        job.owner,
        job.dueAt,
        JSON.stringify(job.payload ?? null),
        JSON.stringify(job.misfire),
        job.createdAt,
      ),
    );
    if (job.dueAt < this.#timerAt) this.#arm();
    return job;
  }

  cancel(id: string): boolean {
    return transact(this.db, () => this.#sql('DELETE FROM scheduled_job WHERE id = ?').run(id).changes > 0);
  }

  cancelOwner(owner: string): number {
    return transact(this.db, () => this.#sql('DELETE FROM scheduled_job WHERE owner = ?').run(owner).changes);
  }

  get(id: string): ScheduledJob | undefined {
    const row = this.#sql('SELECT * FROM scheduled_job WHERE id = ?').get(id) as JobRow | undefined;
    return row && toJob(row);
  }

  list(filter: { kind?: string; owner?: string } = {}): ScheduledJob[] {
    const rows = this.#sql(
      `SELECT * FROM scheduled_job WHERE (@kind IS NULL OR kind = @kind) AND (@owner IS NULL OR owner = @owner) ORDER BY due_at, created_at, id`,
    ).all({ kind: filter.kind ?? null, owner: filter.owner ?? null }) as JobRow[];
    return rows.map(toJob);
  }

  missed(limit = 50): MissedJob[] {
    const rows = this.#sql('SELECT * FROM missed_job ORDER BY recorded_at DESC, id LIMIT ?').all(limit) as {
      id: string;
      kind: string;
      owner: string;
      due_at: number;
      late_by: number;
      payload: string;
      recorded_at: number;
    }[];
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      owner: row.owner,
      dueAt: row.due_at,
      lateByMs: row.late_by,
      payload: JSON.parse(row.payload),
      recordedAt: row.recorded_at,
    }));
  }

  #sql(text: string) {
    return this.#statements.get(text);
  }

  /** Runs due jobs on the next turn (after the caller's own work). */
  #soon(): void {
    if (!this.#started) return;
    this.#disarm();
    this.#timerAt = this.clock.now();
    this.#cancelTimer = this.clock.setTimeout(() => this.#fire(), 0);
  }

  #disarm(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  /** Sets the timer for the earliest job that has a handler. */
  #arm(): void {
    if (!this.#started || !this.db.open) return;
    this.#disarm();
    const kinds = [...this.#handlers.keys()];
    if (kinds.length === 0) return;
    const next = this.#sql(`SELECT MIN(due_at) AS due FROM scheduled_job WHERE kind IN (SELECT value FROM json_each(?))`).get(
      JSON.stringify(kinds),
    ) as { due: number | null };
    if (next.due === null) return;
    const now = this.clock.now();
    const wait = Math.min(Math.max(0, next.due - now), MAX_SLEEP_MS);
    this.#timerAt = now + wait;
    this.#cancelTimer = this.clock.setTimeout(() => this.#fire(), wait);
  }

  #fire(): void {
    this.#cancelTimer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
    if (!this.#started || !this.db.open) return;
    const now = this.clock.now();
    const due = (this.#sql('SELECT * FROM scheduled_job WHERE due_at <= ? ORDER BY due_at, created_at, id').all(now) as JobRow[])
      .map(toJob)
      .filter((job) => this.#handlers.has(job.kind));
    for (const job of due) this.#run(job, now);
    this.#arm();
  }

  #run(job: ScheduledJob, now: number): void {
    const handler = this.#handlers.get(job.kind) as JobHandler<unknown>;
    const lateBy = now - job.dueAt;
    const missed = job.misfire.kind === 'drop' && lateBy > job.misfire.graceMs;
    let pending: Promise<void> | void;
    try {
      // Taking the job and the handler's synchronous writes commit together (see the class comment). An async
      // handler's promise is carried out of the transaction in a box: a transaction ends with the handler's
      // synchronous part, and SQLite's transactions refuse a function that answers a promise.
      pending = transact(this.db, (): { pending: Promise<void> | void } => {
        if (this.#sql('DELETE FROM scheduled_job WHERE id = ?').run(job.id).changes === 0) return { pending: undefined };
        if (!missed) return { pending: handler.run(job) };
        this.#sql(
          'INSERT INTO missed_job (id, kind, owner, due_at, late_by, payload, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(job.id, job.kind, job.owner, job.dueAt, lateBy, JSON.stringify(job.payload ?? null), now);
        this.#sql('DELETE FROM missed_job WHERE id NOT IN (SELECT id FROM missed_job ORDER BY recorded_at DESC, id LIMIT ?)').run(
          MISSED_KEPT,
        );
        return { pending: handler.missed?.(job, lateBy) };
      }).pending;
    } catch (error) {
      // A handler that throws undid its own writes; the job is dropped rather than retried at once, forever.
      transact(this.db, () => this.#sql('DELETE FROM scheduled_job WHERE id = ?').run(job.id));
      this.onError(error, job);
      return;
    }
    if (!pending || typeof (pending as Promise<void>).then !== 'function') return;
    const running = (pending as Promise<void>).catch((error) => this.onError(error, job));
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
  }
}
