import { randomUUID } from 'node:crypto';
import { HearthError } from '@hearth/contract';
import type { ChangeSource } from '../../../core/bus';
import type { ScheduledJob } from '../../../core/scheduler';
import type { HubContext } from '../../../platform/context';
import type { Notifier } from '../../notifications/store';
import type { StoredFlow } from '../health';
import type { FlowRegistry, FlowTriggerEvent } from '../registry';
import { AdvancedFlowRun } from './advanced';
import { prepareArgs } from './args';
import { type AnyFlow, DEFAULT_MAX, DEFAULT_MODE, type FlowCatalog, flowKey, type TriggerEntry } from './catalog';
import { LoopGuard } from './loop-guard';
import { cardName, conditionResult, Run, RunScope, runCard } from './run';
import { type PlannedAction, planAction, planStandardFlow, runActionNow, runStandardFlow, type StandardPlan } from './standard';
import { type FlowTrace, type FlowType, type RunStatus, type TraceStep, type TraceStore, traceToWire } from './traces';

const READ_SCOPE = 'homey.flow.readonly';
/** A delayed action found later than this after a restart is recorded as missed instead of run. */
export const DELAY_GRACE_MS = 15 * 60_000;
const ACTION_JOB = 'flow.action';
const NODE_JOB = 'flow.node';

type Action = StoredFlow['actions'][number];
interface ActionJob {
  flowId: string;
  runId: string;
  index: number;
  column: string;
  action: Action;
  local: Record<string, unknown>;
  state: Record<string, unknown>;
}
interface NodeJob {
  flowId: string;
  runId: string;
  node: string;
  local: Record<string, unknown>;
  nodes: Record<string, unknown>;
  state: Record<string, unknown>;
}

type CardInput = { uri: string; id: string; args: Record<string, unknown>; droptoken?: string | null };

/** What started a run: a trigger card that fired, or a call (`manual`). */
interface Cause {
  readonly uri: string;
  readonly id: string;
  readonly tokens: Readonly<Record<string, unknown>>;
  readonly state: Readonly<Record<string, unknown>>;
  readonly source: ChangeSource | null;
}

/**
 * What the engine works out once per flow and keeps until the flow or the card registry changes: why it is
 * broken, its trigger arguments (by trigger node), and for a standard flow its plan.
 */
interface FlowPlan {
  readonly flow: AnyFlow['flow'];
  readonly version: number;
  readonly problems: string[];
  readonly triggerArgs: Map<string, Record<string, unknown>>;
  readonly standard: StandardPlan | null;
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});
const isEmpty = (values: object) => {
  for (const _ in values) return false;
  return true;
};
/** A frozen copy, shared by the run's trace, its cards and its delayed parts. */
const frozen = (values: Readonly<Record<string, unknown>>) => (isEmpty(values) ? EMPTY : Object.freeze({ ...values }));

/** A run in memory: its run, the advanced graph it walks, the delayed jobs it waits for. */
interface ActiveRun {
  readonly run: Run;
  readonly graph: AdvancedFlowRun | null;
  readonly jobs: Set<string>;
  /** Its immediate part finished (what is left waits in the scheduler). */
  settled: boolean;
}

export interface FlowEngineDeps {
  readonly context: HubContext;
  readonly registry: FlowRegistry;
  readonly catalog: FlowCatalog;
  readonly traces: TraceStore;
  readonly notifications: Notifier;
  /** Whether the flow is broken now, and why. */
  problems(entry: AnyFlow): string[];
  /** Switches a flow off (the loop guard pauses a flow that keeps starting itself). */
  disable(type: FlowType, id: string): void;
}

/**
 * The automation engine: runs the flows whose trigger fired, following each flow's run mode, keeps a trace of
 * every run, holds delayed actions and advanced-flow delays as durable scheduler jobs, and pauses a flow that keeps
 * starting itself.
 */
export class FlowEngine {
  readonly #active = new Map<string, Set<ActiveRun>>();
  readonly #runs = new Map<string, ActiveRun>();
  readonly #queues = new Map<string, (() => void)[]>();
  readonly #plans = new Map<string, FlowPlan>();
  readonly #guard: LoopGuard;
  readonly #stops: (() => void)[] = [];
  #running = false;

  constructor(private readonly deps: FlowEngineDeps) {
    this.#guard = new LoopGuard(deps.context.clock);
  }

  start(): void {
    const { context, registry } = this.deps;
    this.#running = true;
    this.#stops.push(
      registry.onFire((event) => this.#onFire(event)),
      context.scheduler.handle<ActionJob>(ACTION_JOB, {
        run: (job) => this.#runDelayedAction(job),
        missed: (job, late) => this.#missed(job, late),
      }),
      context.scheduler.handle<NodeJob>(NODE_JOB, {
        run: (job) => this.#continueAfterDelay(job),
        missed: (job, late) => this.#missed(job, late),
      }),
    );
  }

  stop(): void {
    this.#running = false;
    for (const stop of this.#stops.splice(0)) stop();
    for (const active of this.#runs.values()) active.run.stopped ??= 'cancelled';
  }

  // --- what the flow manager calls ---

  /**
   * Starts a flow by a call (`POST …/trigger`, the "start a flow" card): its conditions and actions run as if
   * its trigger fired (an advanced flow from its start nodes). Answers the run's trace.
   */
  async trigger(type: FlowType, id: string, state: Record<string, unknown>, source: ChangeSource | null): Promise<FlowTrace> {
    const entry = this.deps.catalog.get(type, id);
    const what = type === 'flow' ? 'Flow' : 'Advanced flow';
    if (!entry) throw new HearthError('not_found', `${what} not found: ${id}`);
    if (!entry.flow.enabled) throw new HearthError('conflict', `${what} ${id} is disabled`);
    const problems = this.deps.problems(entry);
    if (problems.length > 0) throw new HearthError('conflict', `${what} ${id} is broken: ${problems.join('; ')}`);
    let node: string | null = null;
    if (entry.type === 'advancedflow') {
      node = Object.entries(entry.flow.cards).find(([, card]) => card.type === 'start')?.[0] ?? null;
      if (!node) throw new HearthError('conflict', `Advanced flow ${id} has no start card to start it with`);
    }
    const cause: Cause = { uri: 'homey:manager:flow', id: 'manual', tokens: {}, state, source };
    return this.#start({ type, flowId: id, key: flowKey(type, id), node }, cause);
  }

  /**
   * Runs a flow that is not stored (the editor's "test"): every step goes to `onStep` as it happens; its delays are
   * kept in memory only. Answers the trace of its immediate part.
   */
  async test(
    flow: Pick<StoredFlow, 'name' | 'trigger' | 'conditions' | 'actions'>,
    tokens: Record<string, unknown>,
    onStep: (step: TraceStep) => void,
  ): Promise<FlowTrace> {
    const { clock } = this.deps.context;
    const run = new Run(
      this.#newTrace('flow', `test-${randomUUID()}`, flow.name, { ...flow.trigger, tokens, state: {}, source: null }),
      new RunScope(tokens, this.deps.registry),
      {},
      clock,
      onStep,
    );
    const status = await runStandardFlow(run, planStandardFlow(this.deps.registry, flow), {
      delay: (_run, planned) => {
        const ms = planned.delay ?? 0;
        clock.setTimeout(() => void runActionNow(run, planned), ms);
        return { dueAt: clock.now() + ms, jobId: 'test' };
      },
    });
    this.#finish(run.trace, status);
    return run.trace;
  }

  /** The pending delayed actions and advanced-flow delays, soonest first. */
  pending() {
    return [ACTION_JOB, NODE_JOB].flatMap((kind) => this.deps.context.scheduler.list({ kind })).sort((a, b) => a.dueAt - b.dueAt);
  }

  /** Cancels one pending delayed action; the run's trace says so. */
  cancelPending(jobId: string): void {
    const { scheduler } = this.deps.context;
    const job = scheduler.get(jobId);
    if (!job || (job.kind !== ACTION_JOB && job.kind !== NODE_JOB))
      throw new HearthError('not_found', `Pending flow action not found: ${jobId}`);
    scheduler.cancel(jobId);
    this.#jobEnded(job as ScheduledJob<{ runId: string; flowId: string }>, {
      kind: 'delay',
      outcome: 'cancelled',
      jobId,
      message: 'Cancelled before it was due',
    });
  }

  /** A flow was disabled or deleted: its waiting actions and queued runs go, its runs stop. */
  flowStopped(type: FlowType, id: string): void {
    const key = flowKey(type, id);
    for (const job of this.deps.context.scheduler.list({ owner: `flow:${id}` })) {
      this.deps.context.scheduler.cancel(job.id);
      this.#jobEnded(job as ScheduledJob<{ runId: string; flowId: string }>, {
        kind: 'delay',
        outcome: 'cancelled',
        jobId: job.id,
        message: 'The flow was disabled or deleted',
      });
    }
    for (const active of this.#active.get(key) ?? []) active.run.stopped = 'cancelled';
    this.#queues.delete(key);
  }

  /** Runs a condition card on its own (`POST /flowcardcondition/…/run`); answers whether it passed. */
  async runCondition(card: CardInput, tokens: Record<string, unknown>, state: Record<string, unknown>): Promise<boolean> {
    const { value } = await runCard(this.deps.registry, 'condition', card, new RunScope(tokens, this.deps.registry), { state });
    return conditionResult(value);
  }

  /** Runs an action card on its own (`POST /flowcardaction/…/run`); answers its result tokens. */
  async runAction(
    card: CardInput,
    tokens: Record<string, unknown>,
    state: Record<string, unknown>,
    duration: number | null,
    source: ChangeSource,
  ) {
    const { value } = await runCard(this.deps.registry, 'action', card, new RunScope(tokens, this.deps.registry), {
      state,
      duration,
      source,
    });
    return value ?? null;
  }

  // --- triggers ---

  #onFire(event: FlowTriggerEvent): void {
    if (!this.#running) return;
    const triggered = this.deps.catalog.triggered(event.uri, event.id);
    if (triggered.length === 0) return;
    const definition = event.matches ? undefined : this.deps.registry.card('trigger', event.uri, event.id);
    for (const entry of triggered) {
      const found = this.deps.catalog.byKey(entry.key);
      if (!found?.flow.enabled) continue;
      const args = this.#triggerArgs(found, entry);
      const decide = () => {
        if (event.matches) return event.matches(args);
        if (!definition?.run) return true;
        const answer = definition.run({ args, tokens: { ...event.tokens }, state: { ...event.state } });
        return answer instanceof Promise ? answer.then(conditionResult) : conditionResult(answer);
      };
      const cause: Cause = event;
      let decision: boolean | Promise<boolean>;
      try {
        decision = decide();
      } catch {
        continue; // a trigger that cannot judge its arguments starts nothing
      }
      // A run starts after what fired the trigger finished its turn: a flow whose action starts flows (itself,
      // through a device) does not nest runs on one stack.
      if (decision === true)
        queueMicrotask(() => void this.#start(entry, cause).catch((error) => this.#startFailed(entry, error)));
      else if (decision instanceof Promise)
        decision
          .then((yes) => {
            if (yes) return this.#start(entry, cause);
          })
          .catch((error) => this.#startFailed(entry, error));
    }
  }

  /** A run that could not even start (its trace could not be stored, say) is told in the hub's log. */
  #startFailed(entry: TriggerEntry, error: unknown): void {
    this.deps.context.journal.log(`error flow ${entry.key}: starting a run failed: ${(error as Error).message}`);
  }

  /** The trigger card's arguments as the flow holds them, checked against the card (no tokens: it starts the flow). */
  #triggerArgs(found: AnyFlow, entry: TriggerEntry): Record<string, unknown> {
    const { triggerArgs } = this.#planOf(entry.key, found);
    const node = entry.node ?? '';
    let args = triggerArgs.get(node);
    if (!args) {
      args = this.#checkTriggerArgs(found, entry);
      triggerArgs.set(node, args);
    }
    return args;
  }

  #checkTriggerArgs(found: AnyFlow, entry: TriggerEntry): Record<string, unknown> {
    const card = found.type === 'flow' ? found.flow.trigger : found.flow.cards[entry.node ?? ''];
    const raw = (card?.args ?? {}) as Record<string, unknown>;
    const uri = found.type === 'flow' ? found.flow.trigger.uri : (found.flow.cards[entry.node ?? '']?.ownerUri ?? '');
    const id = card?.id ?? '';
    const definition = this.deps.registry.card('trigger', uri, id);
    try {
      return prepareArgs(definition?.args, raw, { local: {}, global: () => undefined });
    } catch {
      return { ...raw };
    }
  }

  // --- runs ---

  #newTrace(flowType: FlowType, flowId: string, flowName: string, cause: Cause): FlowTrace {
    return {
      id: randomUUID(),
      flowId,
      flowType,
      flowName,
      startedAt: this.deps.context.clock.now(),
      finishedAt: null,
      status: 'running',
      trigger: { uri: cause.uri, id: cause.id, tokens: frozen(cause.tokens), source: cause.source },
      steps: [],
    };
  }

  /** Starts a run of a flow, as its run mode and the loop guard allow; answers its trace when its immediate part ended. */
  async #start(entry: TriggerEntry, cause: Cause): Promise<FlowTrace> {
    const { key } = entry;
    const found = this.deps.catalog.byKey(key);
    if (!found) throw new HearthError('not_found', `Flow not found: ${entry.flowId}`);
    const trace = this.#newTrace(entry.type, entry.flowId, found.flow.name, cause);
    const { problems } = this.#planOf(key, found);
    if (problems.length > 0) return this.#skip(trace, `The flow is broken: ${problems.join('; ')}`);
    const loop = this.#guard.check(key, cause.source);
    if (loop.paused) {
      this.deps.disable(entry.type, entry.flowId);
      this.flowStopped(entry.type, entry.flowId);
      this.deps.notifications.notify({
        ownerUri: 'homey:manager:flow',
        excerpt: `The flow **${found.flow.name}** was paused: it started itself ${loop.count} times within 10 seconds. Check its cards, then switch it on again.`,
        priority: 'WARNING',
      });
      return this.#skip(trace, `Paused by the loop guard: it started itself ${loop.count} times within 10 seconds`);
    }
    const mode = found.flow.mode ?? DEFAULT_MODE;
    const max = found.flow.max ?? DEFAULT_MAX;
    const active = this.#active.get(key) ?? new Set<ActiveRun>();
    const busy = active.size + (mode === 'parallel' ? 0 : this.#waitingJobs(entry.flowId, active));
    if (busy > 0) {
      if (mode === 'single') return this.#skip(trace, 'Not run: the flow runs one run at a time (single) and one was running');
      if (mode === 'parallel' && busy >= max)
        return this.#skip(trace, `Not run: ${busy} runs were running, the most this flow allows (parallel, max ${max})`);
      if (mode === 'restart') {
        for (const other of active) other.run.stopped = 'restarted';
        for (const job of this.deps.context.scheduler.list({ owner: `flow:${entry.flowId}` })) {
          this.deps.context.scheduler.cancel(job.id);
          this.#jobEnded(job as ScheduledJob<{ runId: string; flowId: string }>, {
            kind: 'delay',
            outcome: 'cancelled',
            jobId: job.id,
            message: 'A newer run restarted the flow',
          });
        }
        trace.mode = `restart: replaced ${busy} running run(s)`;
      }
      if (mode === 'queued') {
        const queue = this.#queues.get(key) ?? [];
        if (queue.length >= max)
          return this.#skip(trace, `Not run: ${queue.length} runs were already queued (queued, max ${max})`);
        trace.mode = `queued behind ${busy} run(s)`;
        this.#queues.set(key, queue);
        return new Promise<FlowTrace>((resolve) => queue.push(() => resolve(this.#execute(found, entry, trace, cause))));
      }
    }
    return this.#execute(found, entry, trace, cause);
  }

  /** The flow's plan as of the registry's cards and tokens now (kept until the flow or the registry changes). */
  #planOf(key: string, found: AnyFlow): FlowPlan {
    const { registry } = this.deps;
    const cached = this.#plans.get(key);
    if (cached && cached.flow === found.flow && cached.version === registry.version) return cached;
    const plan: FlowPlan = {
      flow: found.flow,
      version: registry.version,
      problems: this.deps.problems(found),
      triggerArgs: new Map(),
      standard: found.type === 'flow' ? planStandardFlow(registry, found.flow) : null,
    };
    this.#plans.set(key, plan);
    return plan;
  }

  /** Runs whose delayed parts wait in the scheduler (also from before a restart) count as running. */
  #waitingJobs(flowId: string, active: Set<ActiveRun>): number {
    const inMemory = new Set([...active].map((a) => a.run.id));
    const runs = new Set(
      this.deps.context.scheduler
        .list({ owner: `flow:${flowId}` })
        .map((job) => (job.payload as { runId: string }).runId)
        .filter((runId) => !inMemory.has(runId)),
    );
    return runs.size;
  }

  #skip(trace: FlowTrace, why: string): FlowTrace {
    trace.steps.push({ at: this.deps.context.clock.now(), kind: 'note', outcome: 'skipped', message: why });
    this.#finish(trace, 'skipped');
    return trace;
  }

  async #execute(found: AnyFlow, entry: TriggerEntry, trace: FlowTrace, cause: Cause): Promise<FlowTrace> {
    const { registry, context } = this.deps;
    const { key } = entry;
    const run = new Run(trace, new RunScope(trace.trigger.tokens, registry), frozen(cause.state), context.clock);
    this.#guard.started(run.id, key, cause.source);
    const graph =
      found.type === 'advancedflow'
        ? new AdvancedFlowRun(run, found.flow.cards, { registry, delay: (r, node, ms) => this.#delayNode(r, node, ms) })
        : null;
    const active: ActiveRun = { run, graph, jobs: new Set(), settled: false };
    this.#track(key, active);
    let status: RunStatus;
    try {
      status = graph
        ? await graph.start(entry.node ? [entry.node] : [])
        : await runStandardFlow(run, this.#planOf(key, found).standard as StandardPlan, {
            delay: (r, planned) => this.#delayAction(r, active, planned),
          });
    } catch (error) {
      run.step({ kind: 'note', outcome: 'error', message: (error as Error).message });
      status = 'failed';
    }
    active.settled = true;
    this.#settle(key, active, status);
    return trace;
  }

  #track(key: string, active: ActiveRun): void {
    let set = this.#active.get(key);
    if (!set) {
      set = new Set();
      this.#active.set(key, set);
    }
    set.add(active);
    this.#runs.set(active.run.id, active);
  }

  /** Ends a run once its immediate part ended and no delayed part waits; then the next queued run may start. */
  #settle(key: string, active: ActiveRun, status: RunStatus): void {
    const waiting = active.jobs.size > 0 && !active.run.stopped;
    this.#finish(active.run.trace, active.run.stopped ?? (waiting ? 'waiting' : status === 'waiting' ? 'completed' : status));
    if (waiting) return;
    this.#active.get(key)?.delete(active);
    if (this.#active.get(key)?.size === 0) this.#active.delete(key);
    this.#runs.delete(active.run.id);
    this.#guard.ended(active.run.id);
    const next = this.#queues.get(key)?.shift();
    if (this.#queues.get(key)?.length === 0) this.#queues.delete(key);
    next?.();
  }

  #finish(trace: FlowTrace, status: RunStatus): void {
    const first = trace.finishedAt === null && trace.status === 'running';
    trace.status = status;
    if (status !== 'waiting') trace.finishedAt = this.deps.context.clock.now();
    if (trace.flowId.startsWith('test-')) return;
    this.deps.traces.save(trace, { first, now: status === 'waiting' });
    // The trace as clients see it is made only for sockets that follow the flow manager (read as it is published).
    this.deps.context.events.managerLazy('flow', first ? 'trace.create' : 'trace.update', () => traceToWire(trace), READ_SCOPE);
  }

  // --- delays ---

  #delayAction(run: Run, active: ActiveRun, planned: PlannedAction) {
    const { action, index } = planned;
    const job = this.deps.context.scheduler.schedule<ActionJob>({
      kind: ACTION_JOB,
      owner: `flow:${run.trace.flowId}`,
      dueAt: this.deps.context.clock.now() + (planned.delay ?? 0),
      payload: {
        flowId: run.trace.flowId,
        runId: run.id,
        index,
        column: action.group,
        action,
        local: { ...run.scope.local },
        state: { ...run.state },
      },
      misfire: { kind: 'drop', graceMs: DELAY_GRACE_MS },
    });
    active.jobs.add(job.id);
    return { dueAt: job.dueAt, jobId: job.id };
  }

  #delayNode(run: Run, node: string, ms: number) {
    const job = this.deps.context.scheduler.schedule<NodeJob>({
      kind: NODE_JOB,
      owner: `flow:${run.trace.flowId}`,
      dueAt: this.deps.context.clock.now() + ms,
      payload: {
        flowId: run.trace.flowId,
        runId: run.id,
        node,
        local: { ...run.scope.local },
        nodes: { ...run.scope.nodes },
        state: { ...run.state },
      },
      misfire: { kind: 'drop', graceMs: DELAY_GRACE_MS },
    });
    this.#runs.get(run.id)?.jobs.add(job.id);
    return { dueAt: job.dueAt, jobId: job.id };
  }

  /**
   * The run a delayed job belongs to: in memory while the hub kept running, else rebuilt from its stored trace
   * (the hub restarted during the delay).
   */
  #resume(
    flowType: FlowType,
    payload: {
      flowId: string;
      runId: string;
      local: Record<string, unknown>;
      state: Record<string, unknown>;
      nodes?: Record<string, unknown>;
    },
  ): ActiveRun | null {
    const known = this.#runs.get(payload.runId);
    if (known) return known;
    const found = this.deps.catalog.get(flowType, payload.flowId);
    if (!found) return null;
    const trace =
      this.deps.traces.get(payload.flowId, payload.runId) ??
      this.#newTrace(flowType, payload.flowId, found.flow.name, {
        uri: 'homey:manager:flow',
        id: 'resumed',
        tokens: payload.local,
        state: payload.state,
        source: null,
      });
    const run = new Run(
      trace,
      new RunScope(payload.local, this.deps.registry, { ...(payload.nodes ?? {}) }),
      payload.state,
      this.deps.context.clock,
    );
    const graph =
      found.type === 'advancedflow'
        ? new AdvancedFlowRun(run, found.flow.cards, {
            registry: this.deps.registry,
            delay: (r, node, ms) => this.#delayNode(r, node, ms),
          })
        : null;
    const active: ActiveRun = { run, graph, jobs: new Set(), settled: true };
    this.#track(flowKey(flowType, payload.flowId), active);
    return active;
  }

  async #runDelayedAction(job: ScheduledJob<ActionJob>): Promise<void> {
    const active = this.#resume('flow', job.payload);
    if (!active) return;
    active.jobs.delete(job.id);
    const { action, index } = job.payload;
    await runActionNow(active.run, planAction(this.deps.registry, action, index));
    this.#settleIfDone(active, 'completed');
  }

  async #continueAfterDelay(job: ScheduledJob<NodeJob>): Promise<void> {
    const active = this.#resume('advancedflow', job.payload);
    if (!active?.graph) return;
    active.jobs.delete(job.id);
    const status = await active.graph.continueAfter(job.payload.node);
    this.#settleIfDone(active, status);
  }

  #settleIfDone(active: ActiveRun, status: RunStatus): void {
    const key = flowKey(active.run.trace.flowType, active.run.trace.flowId);
    if (active.settled) this.#settle(key, active, status === 'waiting' && active.jobs.size === 0 ? 'completed' : status);
  }

  #missed(job: ScheduledJob<{ runId: string; flowId: string }>, lateBy: number): void {
    this.#jobEnded(job, {
      kind: 'delay',
      outcome: 'missed',
      jobId: job.id,
      message: `Not run: the hub was off when it was due and came back ${Math.round(lateBy / 1000)} s late (more than the ${DELAY_GRACE_MS / 60_000} minutes a delay may run late)`,
    });
  }

  /** A delayed job that will not run (cancelled, missed): its run's trace says why, and the run may end. */
  #jobEnded(job: ScheduledJob<{ runId: string; flowId: string }>, step: Omit<TraceStep, 'at'>): void {
    const flowType: FlowType = job.kind === NODE_JOB ? 'advancedflow' : 'flow';
    const payload = job.payload as unknown as ActionJob & NodeJob;
    const active = this.#resume(flowType, { ...payload, local: payload.local ?? {}, state: payload.state ?? {} });
    if (!active) return;
    active.jobs.delete(job.id);
    active.run.step({
      ...step,
      ...(payload.action ? { card: cardName(payload.action), index: payload.index } : { node: payload.node }),
    });
    this.#settleIfDone(active, 'completed');
  }
}
