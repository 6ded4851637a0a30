import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../core/clock';
import type { JobHandler, JobRequest, ScheduledJob, Scheduler } from '../../../core/scheduler';

/**
 * A {@link Scheduler} that keeps its jobs in memory and runs them on a clock. It is not durable: jobs are lost
 * with the process. It stands in where the hub's durable (SQLite) scheduler is not wired yet, and lets tests
 * move time with a fake clock; the process host only sees the `Scheduler` interface.
 */
export class ClockScheduler implements Scheduler {
  readonly #jobs = new Map<string, { job: ScheduledJob; cancel: () => void }>();
  readonly #handlers = new Map<string, JobHandler<unknown>>();

  constructor(private readonly clock: Clock) {}

  handle<P>(kind: string, handler: JobHandler<P>): () => void {
    this.#handlers.set(kind, handler as JobHandler<unknown>);
    // Jobs that waited for their handler and fell due meanwhile run now.
    for (const { job } of this.#jobs.values()) if (job.kind === kind && job.dueAt <= this.clock.now()) this.#arm(job);
    return () => {
      if (this.#handlers.get(kind) === handler) this.#handlers.delete(kind);
    };
  }

  schedule<P>(request: JobRequest<P>): ScheduledJob<P> {
    const job: ScheduledJob<P> = { ...request, id: randomUUID(), createdAt: this.clock.now() };
    this.#arm(job as ScheduledJob);
    return job;
  }

  cancel(id: string): boolean {
    const entry = this.#jobs.get(id);
    if (!entry) return false;
    entry.cancel();
    this.#jobs.delete(id);
    return true;
  }

  cancelOwner(owner: string): number {
    let count = 0;
    for (const { job } of [...this.#jobs.values()]) if (job.owner === owner && this.cancel(job.id)) count++;
    return count;
  }

  get(id: string): ScheduledJob | undefined {
    return this.#jobs.get(id)?.job;
  }

  list(filter: { kind?: string; owner?: string } = {}): ScheduledJob[] {
    return [...this.#jobs.values()]
      .map((e) => e.job)
      .filter(
        (j) => (filter.kind === undefined || j.kind === filter.kind) && (filter.owner === undefined || j.owner === filter.owner),
      )
      .sort((a, b) => a.dueAt - b.dueAt);
  }

  #arm(job: ScheduledJob): void {
    this.#jobs.get(job.id)?.cancel();
    const cancel = this.clock.setTimeout(() => {
      const handler = this.#handlers.get(job.kind);
      if (!handler) return; // waits for its handler (see handle)
      this.#jobs.delete(job.id);
      void Promise.resolve()
        .then(() => handler.run(job))
        .catch(() => {});
    }, job.dueAt - this.clock.now());
    this.#jobs.set(job.id, { job, cancel });
  }
}
