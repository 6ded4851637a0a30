import type { ChangeSource } from '../../../core/bus';
import type { Clock } from '../../../core/clock';
import { type HubDatabase, type Migration, transact } from '../../../store/database';
import { Statements } from '../../../store/statements';

export const traceMigrations: Migration[] = [
  {
    id: 'flow-002-trace',
    up: (db) =>
      db.exec(`CREATE TABLE flow_trace (
        id TEXT PRIMARY KEY,
        flow_id TEXT NOT NULL,
        flow_type TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX flow_trace_flow ON flow_trace (flow_id, started_at)`),
  },
  {
    // A ring of slots per flow: a new trace overwrites the flow's oldest in place, so keeping the newest few
    // costs one row write, never an insert into a growing index plus a delete of what fell out of it.
    id: 'flow-003-trace-ring',
    up: (db) =>
      db.exec(`CREATE TABLE flow_trace_ring (
        flow_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        id TEXT NOT NULL,
        flow_type TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (flow_id, slot)
      );
      INSERT INTO flow_trace_ring (flow_id, slot, id, flow_type, started_at, seq, data)
        SELECT flow_id, slot, id, flow_type, started_at, rowid, data FROM (
          SELECT *, rowid, ROW_NUMBER() OVER (PARTITION BY flow_id ORDER BY started_at, rowid) - 1 AS slot,
                 COUNT(*) OVER (PARTITION BY flow_id) AS kept
          FROM flow_trace)
        WHERE slot >= kept - ${TRACES_PER_FLOW_AT_MIGRATION};
      DROP TABLE flow_trace;
      ALTER TABLE flow_trace_ring RENAME TO flow_trace`),
  },
];

/** Runs kept per flow, and for how long at most. */
export const TRACES_PER_FLOW = 20;
/** The ring's size when the ring table was made (the migration must not change with the constant above). */
const TRACES_PER_FLOW_AT_MIGRATION = 20;
export const TRACE_DAYS = 7;

export type FlowType = 'flow' | 'advancedflow';

/**
 * How a run ended: its actions ran (`completed`; some may have failed, see the steps), no condition group passed
 * and there was no else column (`conditions_failed`), a condition threw (`failed`), the run mode did not let it run
 * (`skipped`), a newer run replaced it (`restarted`), or the flow was disabled or deleted while it waited
 * (`cancelled`). `running` until then; a run with delayed actions is `waiting` until they ran.
 */
export type RunStatus =
  | 'running'
  | 'waiting'
  | 'completed'
  | 'conditions_failed'
  | 'failed'
  | 'skipped'
  | 'restarted'
  | 'cancelled';

/** One step of a run, in the order it happened. */
export interface TraceStep {
  /** Epoch ms. */
  readonly at: number;
  readonly kind: 'condition' | 'group' | 'action' | 'delay' | 'node' | 'note';
  /** The card, for card steps: `<owner uri>:<card id>`. */
  readonly card?: string;
  /** Standard flows' card steps: what ran, as a person says it ("Turn on — Hallway light"). */
  readonly title?: string;
  /** Standard flows: the condition's group, or the action's column (`then`, `else`). */
  readonly group?: string;
  /** Standard flows: the card's position in its list; advanced flows: the node's key. */
  readonly index?: number;
  readonly node?: string;
  /** What happened: `passed`, `failed`, `error`, `started`, `done`, `scheduled`, `missed`, `cancelled`, `skipped`. */
  readonly outcome: string;
  /** Why, in words (a failing condition, an error's message, an argument that did not fit). */
  readonly message?: string;
  /** Condition cards: whether the card was inverted. */
  readonly inverted?: boolean;
  /** Action results (tokens) and the args a card ran with. */
  readonly args?: Record<string, unknown>;
  readonly result?: unknown;
  /** Delays: when the delayed action is due (epoch ms) and the scheduler job that holds it. */
  readonly dueAt?: number;
  readonly jobId?: string;
  /** How long the card took, in ms. */
  readonly ms?: number;
}

export interface FlowTrace {
  readonly id: string;
  readonly flowId: string;
  readonly flowType: FlowType;
  readonly flowName: string;
  readonly startedAt: number;
  finishedAt: number | null;
  status: RunStatus;
  /** The trigger that started the run, its tokens and who caused it; `manual` for a call or another flow. */
  readonly trigger: {
    readonly uri: string;
    readonly id: string;
    readonly tokens: Record<string, unknown>;
    readonly source: ChangeSource | null;
  };
  /** What the flow's run mode did with this run (`queued behind 1 run`, `replaced a running run`). */
  mode?: string;
  readonly steps: TraceStep[];
}

/** The wire form: times as ISO strings. */
export function traceToWire(trace: FlowTrace) {
  return {
    ...trace,
    startedAt: new Date(trace.startedAt).toISOString(),
    finishedAt: trace.finishedAt === null ? null : new Date(trace.finishedAt).toISOString(),
    steps: trace.steps.map((step) => ({
      ...step,
      at: new Date(step.at).toISOString(),
      ...(step.dueAt !== undefined ? { dueAt: new Date(step.dueAt).toISOString() } : {}),
    })),
  };
}

/**
 * Run traces in SQLite: the newest {@link TRACES_PER_FLOW} per flow, none older than {@link TRACE_DAYS} days. Each
 * flow has a ring of that many slots; a new trace takes the slot after the newest (the oldest, once the ring is
 * full). `seq` orders traces as they were first written.
 */
export class TraceStore {
  readonly #statements: Statements;
  /** Traces saved but not yet written, by id, each as it is at the flush; `fresh` until first written. */
  #pending = new Map<string, { trace: FlowTrace; fresh: boolean }>();
  #cancelFlush: (() => void) | null = null;
  /** Per flow, the slot its next new trace takes (learnt from the table on the flow's first write). */
  readonly #nextSlot = new Map<string, number>();
  #seq = -1;

  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
  ) {
    this.#statements = new Statements(db);
  }

  /**
   * Keeps a trace. Traces are written a moment later, at the end of the event loop's turn, together (one
   * transaction for all the runs of that turn), each as it is then: a trace is worth less than the changes its
   * run made, and a run's own writes go first. Reading writes what waits first. A run that waits for a delay is
   * written at once (`now`), with the scheduler job that holds the delay: a hub restarted during the delay
   * resumes the run from it. `first` says the trace was never saved before (a resumed run's was).
   */
  save(trace: FlowTrace, options: { first: boolean; now?: boolean }): void {
    const waiting = this.#pending.get(trace.id);
    this.#pending.set(trace.id, { trace, fresh: waiting ? waiting.fresh : options.first });
    if (options.now) this.flush();
    else if (!this.#cancelFlush) {
      // Not on the clock: "after this turn" is no time a fake clock would have to move to.
      const timer = setImmediate(() => this.flush());
      this.#cancelFlush = () => clearImmediate(timer);
    }
  }

  /** Writes the traces saved since the last flush. */
  flush(): void {
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#pending.size === 0 || !this.db.open) return;
    const pending = this.#pending;
    this.#pending = new Map();
    transact(this.db, () => {
      for (const { trace, fresh } of pending.values()) {
        const data = JSON.stringify(trace);
        // A trace saved before (a run that waited) is updated where it is, unless newer runs took its slot since.
        if (
          !fresh &&
          this.#sql('UPDATE flow_trace SET data = ? WHERE flow_id = ? AND id = ?').run(data, trace.flowId, trace.id).changes > 0
        )
          continue;
        this.#sql(
          `INSERT INTO flow_trace (flow_id, slot, id, flow_type, started_at, seq, data) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (flow_id, slot) DO UPDATE SET id = excluded.id, flow_type = excluded.flow_type,
             started_at = excluded.started_at, seq = excluded.seq, data = excluded.data`,
        ).run(trace.flowId, this.#takeSlot(trace.flowId), trace.id, trace.flowType, trace.startedAt, this.#nextSeq(), data);
      }
    });
  }

  #sql(text: string) {
    return this.#statements.get(text);
  }

  #takeSlot(flowId: string): number {
    let slot = this.#nextSlot.get(flowId);
    if (slot === undefined) {
      const newest = this.#sql('SELECT slot FROM flow_trace WHERE flow_id = ? ORDER BY seq DESC LIMIT 1').pluck().get(flowId) as
        | number
        | undefined;
      slot = newest === undefined ? 0 : (newest + 1) % TRACES_PER_FLOW;
    }
    this.#nextSlot.set(flowId, (slot + 1) % TRACES_PER_FLOW);
    return slot;
  }

  #nextSeq(): number {
    if (this.#seq < 0) this.#seq = (this.#sql('SELECT MAX(seq) FROM flow_trace').pluck().get() as number | null) ?? 0;
    this.#seq += 1;
    return this.#seq;
  }

  /** A run's trace, by its flow and id. */
  get(flowId: string, id: string): FlowTrace | undefined {
    this.flush();
    const data = this.#sql('SELECT data FROM flow_trace WHERE flow_id = ? AND id = ?').pluck().get(flowId, id) as
      | string
      | undefined;
    return data === undefined ? undefined : (JSON.parse(data) as FlowTrace);
  }

  /** A flow's traces, newest first. */
  list(flowType: FlowType, flowId: string): FlowTrace[] {
    this.flush();
    const since = this.clock.now() - TRACE_DAYS * 86_400_000;
    const rows = this.#sql(
      'SELECT data FROM flow_trace WHERE flow_id = ? AND flow_type = ? AND started_at >= ? ORDER BY started_at DESC, seq DESC',
    )
      .pluck()
      .all(flowId, flowType, since) as string[];
    return rows.map((data) => JSON.parse(data) as FlowTrace);
  }

  deleteFlow(flowId: string): void {
    this.flush();
    this.#nextSlot.delete(flowId);
    transact(this.db, () => this.#sql('DELETE FROM flow_trace WHERE flow_id = ?').run(flowId));
  }

  /** Removes traces older than {@link TRACE_DAYS} days; answers how many. */
  prune(): number {
    const before = this.clock.now() - TRACE_DAYS * 86_400_000;
    return transact(this.db, () => this.#sql('DELETE FROM flow_trace WHERE started_at < ?').run(before).changes);
  }
}
