import type { StoredFlow } from '../health';
import type { FlowRegistry } from '../registry';
import { delayMs } from './args';
import { callCard, conditionResult, errorMessage, type PreparedCard, prepareCard, type Run } from './run';
import type { RunStatus } from './traces';

type Action = StoredFlow['actions'][number];
const GROUPS = ['group1', 'group2', 'group3'] as const;

export interface PlannedCondition {
  readonly prepared: PreparedCard;
  readonly index: number;
  readonly inverted: boolean;
}

export interface PlannedAction {
  readonly action: Action;
  readonly prepared: PreparedCard;
  readonly index: number;
  readonly column: 'then' | 'else';
  /** Milliseconds, or `null` for none. */
  readonly delay: number | null;
  readonly duration: number | null;
  /** Why the delay or duration cannot be read, if so. */
  readonly timingError: unknown;
}

/**
 * A standard flow made ready to run, once for as long as neither the flow nor the card registry changes: its
 * conditions by group, its then- and else-columns, each card looked up with its fixed arguments checked.
 */
export interface StandardPlan {
  readonly groups: readonly { readonly group: string; readonly cards: readonly PlannedCondition[] }[];
  /** The then-column (`then` itself would make a plan look like a promise). */
  readonly thenActions: readonly PlannedAction[];
  readonly elseActions: readonly PlannedAction[];
}

export function planStandardFlow(registry: FlowRegistry, flow: Pick<StoredFlow, 'conditions' | 'actions'>): StandardPlan {
  const groups = GROUPS.map((group) => ({
    group,
    cards: flow.conditions.flatMap((card, index) =>
      card.group === group ? [{ prepared: prepareCard(registry, 'condition', card), index, inverted: card.inverted }] : [],
    ),
  })).filter((group) => group.cards.length > 0);
  const column = (name: 'then' | 'else') =>
    flow.actions.flatMap((action, index) => (action.group === name ? [planAction(registry, action, index)] : []));
  return { groups, thenActions: column('then'), elseActions: column('else') };
}

/** One action of a flow, ready to run (also a delayed one whose time came). */
export function planAction(registry: FlowRegistry, action: Action, index: number): PlannedAction {
  let delay: number | null = null;
  let duration: number | null = null;
  let timingError: unknown = null;
  try {
    delay = delayMs(action.delay, `actions.${index}.delay`);
    duration = delayMs(action.duration, `actions.${index}.duration`);
  } catch (error) {
    timingError = error;
  }
  return { action, prepared: prepareCard(registry, 'action', action), index, column: action.group, delay, duration, timingError };
}

export interface StandardFlowDeps {
  /** Holds a delayed action until it is due; answers when it is due and what holds it. */
  delay(run: Run, planned: PlannedAction): { dueAt: number; jobId: string };
}

/**
 * Runs a standard flow whose trigger fired: its conditions are an OR of AND groups (all cards of any one group
 * pass; an inverted card passes when it does not), checked group by group in order, each group's cards in order,
 * stopping at a group's first failing card; a card that throws stops the flow. Then the then-column (some group
 * passed, or there are no conditions) or the else-column runs: every action of it starts at once, one failing
 * does not stop the others, and an action with a delay is held by `deps.delay` (the scheduler) instead.
 */
export async function runStandardFlow(run: Run, plan: StandardPlan, deps: StandardFlowDeps): Promise<RunStatus> {
  let passed = plan.groups.length === 0;
  for (const { group, cards } of plan.groups) {
    let groupPassed = true;
    for (const { prepared, index, inverted } of cards) {
      const started = performance.now();
      let result: boolean;
      try {
        const { value, args } = await callCard('condition', prepared, run.scope, { state: run.state, source: run.source });
        result = conditionResult(value) !== inverted;
        run.step({
          kind: 'condition',
          card: prepared.name,
          title: prepared.title,
          group,
          index,
          inverted,
          outcome: result ? 'passed' : 'failed',
          message: result
            ? 'The card passed'
            : inverted
              ? 'The inverted card did not pass: its condition holds'
              : 'The card did not pass: its condition does not hold',
          args,
          ms: Math.round(performance.now() - started),
        });
      } catch (error) {
        run.step({
          kind: 'condition',
          card: prepared.name,
          title: prepared.title,
          group,
          index,
          outcome: 'error',
          message: errorMessage(error),
        });
        return 'failed';
      }
      if (run.stopped) return run.stopped;
      if (!result) {
        groupPassed = false;
        break;
      }
    }
    run.step({
      kind: 'group',
      group,
      outcome: groupPassed ? 'passed' : 'failed',
      message: groupPassed ? `Every card of ${group} passed` : `A card of ${group} did not pass`,
    });
    if (groupPassed) {
      passed = true;
      break;
    }
  }
  const actions = passed ? plan.thenActions : plan.elseActions;
  if (!passed && actions.length === 0) return 'conditions_failed';
  // One action (the usual flow) needs no gathering of outcomes.
  const outcomes =
    actions.length === 1
      ? [await runAction(run, actions[0] as PlannedAction, deps)]
      : await Promise.all(actions.map((planned) => runAction(run, planned, deps)));
  return outcomes.includes('scheduled') ? 'waiting' : 'completed';
}

/** Runs one action now, or hands it to the scheduler when it has a delay. */
function runAction(
  run: Run,
  planned: PlannedAction,
  deps: StandardFlowDeps,
): 'error' | 'scheduled' | ReturnType<typeof runActionNow> {
  const { prepared, column, index, delay } = planned;
  if (planned.timingError) {
    run.step({
      kind: 'action',
      card: prepared.name,
      title: prepared.title,
      group: column,
      index,
      outcome: 'error',
      message: errorMessage(planned.timingError),
    });
    return 'error';
  }
  if (delay !== null && delay > 0) {
    const { dueAt, jobId } = deps.delay(run, planned);
    run.step({
      kind: 'delay',
      card: prepared.name,
      title: prepared.title,
      group: column,
      index,
      outcome: 'scheduled',
      dueAt,
      jobId,
      message: `Runs after ${delay / 1000} s`,
    });
    return 'scheduled';
  }
  return runActionNow(run, planned);
}

/** Runs an action card at once (also a delayed one whose time came), recording it in the run's trace. */
export async function runActionNow(run: Run, planned: PlannedAction): Promise<'done' | 'error' | 'stopped'> {
  if (run.stopped) return 'stopped';
  const { prepared, column: group, index } = planned;
  const card = prepared.name;
  const title = prepared.title;
  const started = performance.now();
  run.step({ kind: 'action', card, title, group, index, outcome: 'started' });
  try {
    const { value, args } = await callCard('action', prepared, run.scope, {
      state: run.state,
      duration: planned.duration,
      source: run.source,
    });
    run.step({
      kind: 'action',
      card,
      title,
      group,
      index,
      outcome: 'done',
      args,
      result: value ?? null,
      ms: Math.round(performance.now() - started),
    });
    return 'done';
  } catch (error) {
    run.step({
      kind: 'action',
      card,
      title,
      group,
      index,
      outcome: 'error',
      message: errorMessage(error),
      ms: Math.round(performance.now() - started),
    });
    return 'error';
  }
}
