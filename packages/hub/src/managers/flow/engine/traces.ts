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
];

/** Runs kept per flow, and for how long at most. */
export const TRACES_PER_FLOW = 20;
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

/** Run traces in SQLite: the newest {@link TRACES_PER_FLOW} per flow, none older than {@link TRACE_DAYS} days. */
export class TraceStore {
  readonly #statements: Statements;

  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
  ) {
    this.#statements = new Statements(db);
  }

  save(trace: FlowTrace): void {
    const sql = (text: string) => this.#statements.get(text);
    transact(this.db, () => {
      sql(
        `INSERT INTO flow_trace (id, flow_id, flow_type, started_at, data) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
      ).run(trace.id, trace.flowId, trace.flowType, trace.startedAt, JSON.stringify(trace));
      sql(
        `DELETE FROM flow_trace WHERE flow_id = @flow AND id NOT IN
           (SELECT id FROM flow_trace WHERE flow_id = @flow ORDER BY started_at DESC, rowid DESC LIMIT @keep)`,
      ).run({ flow: trace.flowId, keep: TRACES_PER_FLOW });
    });
  }

  get(id: string): FlowTrace | undefined {
    const row = this.#statements.get('SELECT data FROM flow_trace WHERE id = ?').get(id) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as FlowTrace) : undefined;
  }

  /** A flow's traces, newest first. */
  list(flowType: FlowType, flowId: string): FlowTrace[] {
    const since = this.clock.now() - TRACE_DAYS * 86_400_000;
    const rows = this.#statements
      .get(
        'SELECT data FROM flow_trace WHERE flow_id = ? AND flow_type = ? AND started_at >= ? ORDER BY started_at DESC, rowid DESC',
      )
      .all(flowId, flowType, since) as { data: string }[];
    return rows.map((row) => JSON.parse(row.data) as FlowTrace);
  }

  deleteFlow(flowId: string): void {
    transact(this.db, () => this.#statements.get('DELETE FROM flow_trace WHERE flow_id = ?').run(flowId));
  }

  /** Removes traces older than {@link TRACE_DAYS} days; answers how many. */
  prune(): number {
    const before = this.clock.now() - TRACE_DAYS * 86_400_000;
    return transact(this.db, () => this.#statements.get('DELETE FROM flow_trace WHERE started_at < ?').run(before).changes);
  }
}
