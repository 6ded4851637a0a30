/**
 * The hub's durable scheduler: work that waits (an alarm, a flow's delayed action, a pair session's expiry, an
 * app's restart back-off) is a job in SQLite, so it survives a restart and tests move time with a fake clock.
 * The implementation lives beside this interface; parts only see this.
 */

/** What to do with a job that fell due while the hub was down (found overdue at start by more than its grace). */
export type MisfirePolicy =
  /** Run it as soon as the hub is up, once, however late. */
  | { readonly kind: 'run-late' }
  /** Run it when it is at most `graceMs` late; otherwise record it as missed and call the handler's `missed`. */
  | { readonly kind: 'drop'; readonly graceMs: number };

export interface JobRequest<P> {
  /** The handler that runs it, e.g. `flow.delay`, `alarm.due`, `pairsession.expire`. */
  readonly kind: string;
  /** Epoch ms it is due. */
  readonly dueAt: number;
  /** JSON-serialisable data the handler gets back. */
  readonly payload: P;
  /** Who it belongs to, e.g. `flow:<id>`, `alarm:<id>`, `app:<id>`: `cancelOwner` removes all of theirs. */
  readonly owner: string;
  readonly misfire?: MisfirePolicy;
}

export interface ScheduledJob<P = unknown> extends JobRequest<P> {
  readonly id: string;
  readonly createdAt: number;
  /** The request's policy, `run-late` when it gave none. */
  readonly misfire: MisfirePolicy;
}

/** A job a `drop` policy found too late: kept (the newest 500) so people can see what did not run and why. */
export interface MissedJob {
  readonly id: string;
  readonly kind: string;
  readonly owner: string;
  readonly dueAt: number;
  readonly lateByMs: number;
  readonly payload: unknown;
  readonly recordedAt: number;
}

export interface JobHandler<P> {
  run(job: ScheduledJob<P>): Promise<void> | void;
  /** A job found too late under a `drop` policy; it is removed after this. */
  missed?(job: ScheduledJob<P>, lateByMs: number): Promise<void> | void;
}

export interface Scheduler {
  /**
   * Registers what runs jobs of `kind`. Jobs of a kind without a handler wait (an app's handler registers when
   * it starts). Answers the undo.
   */
  handle<P>(kind: string, handler: JobHandler<P>): () => void;
  /** Stores the job (in the caller's transaction, if any) and answers it. It runs once, at or after `dueAt`. */
  schedule<P>(job: JobRequest<P>): ScheduledJob<P>;
  /** Whether the job was still pending. */
  cancel(id: string): boolean;
  /** Cancels every pending job of `owner`; answers how many. */
  cancelOwner(owner: string): number;
  get(id: string): ScheduledJob | undefined;
  list(filter?: { kind?: string; owner?: string }): ScheduledJob[];
  /** Jobs recorded as missed, newest first. */
  missed(limit?: number): MissedJob[];
}
