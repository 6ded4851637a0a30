import type { StoredFlow } from '../health';
import type { FlowRegistry } from '../registry';
import { delayMs } from './args';
import { cardName, conditionResult, errorMessage, type Run, runCard } from './run';
import type { RunStatus } from './traces';

type Action = StoredFlow['actions'][number];
const GROUPS = ['group1', 'group2', 'group3'] as const;

export interface StandardFlowDeps {
  readonly registry: FlowRegistry;
  /** Holds a delayed action until it is due; answers when it is due and what holds it. */
  delay(run: Run, action: Action, index: number, ms: number): { dueAt: number; jobId: string };
}

/**
 * Runs a standard flow whose trigger fired: its conditions are an OR of AND groups (all cards of any one group
 * pass; an inverted card passes when it does not), checked group by group in order, each group's cards in order,
 * stopping at a group's first failing card; a card that throws stops the flow. Then the then-column (some group
 * passed, or there are no conditions) or the else-column runs: every action of it starts at once, one failing
 * does not stop the others, and an action with a delay is held by `deps.delay` (the scheduler) instead.
 */
export async function runStandardFlow(
  run: Run,
  flow: Pick<StoredFlow, 'conditions' | 'actions'>,
  deps: StandardFlowDeps,
): Promise<RunStatus> {
  let passed = flow.conditions.length === 0;
  for (const group of GROUPS) {
    const cards = flow.conditions.map((card, index) => ({ card, index })).filter(({ card }) => card.group === group);
    if (cards.length === 0) continue;
    let groupPassed = true;
    for (const { card, index } of cards) {
      const started = performance.now();
      let result: boolean;
      try {
        const { value, args } = await runCard(deps.registry, 'condition', card, run.scope, {
          state: run.state,
          source: run.source,
        });
        result = conditionResult(value) !== card.inverted;
        run.step({
          kind: 'condition',
          card: cardName(card),
          group,
          index,
          inverted: card.inverted,
          outcome: result ? 'passed' : 'failed',
          message: result
            ? 'The card passed'
            : card.inverted
              ? 'The inverted card did not pass: its condition holds'
              : 'The card did not pass: its condition does not hold',
          args,
          ms: Math.round(performance.now() - started),
        });
      } catch (error) {
        run.step({ kind: 'condition', card: cardName(card), group, index, outcome: 'error', message: errorMessage(error) });
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
  const column = passed ? 'then' : 'else';
  const actions = flow.actions.map((action, index) => ({ action, index })).filter(({ action }) => action.group === column);
  if (!passed && actions.length === 0) return 'conditions_failed';
  const outcomes = await Promise.all(actions.map(({ action, index }) => runAction(run, action, index, column, deps)));
  return outcomes.includes('scheduled') ? 'waiting' : 'completed';
}

/** Runs one action now, or hands it to the scheduler when it has a delay. */
export async function runAction(
  run: Run,
  action: Action,
  index: number,
  column: string,
  deps: StandardFlowDeps,
): Promise<'done' | 'error' | 'scheduled' | 'stopped'> {
  const card = cardName(action);
  let delay: number | null;
  let duration: number | null;
  try {
    delay = delayMs(action.delay, `actions.${index}.delay`);
    duration = delayMs(action.duration, `actions.${index}.duration`);
  } catch (error) {
    run.step({ kind: 'action', card, group: column, index, outcome: 'error', message: errorMessage(error) });
    return 'error';
  }
  if (delay !== null && delay > 0) {
    const { dueAt, jobId } = deps.delay(run, action, index, delay);
    run.step({
      kind: 'delay',
      card,
      group: column,
      index,
      outcome: 'scheduled',
      dueAt,
      jobId,
      message: `Runs after ${delay / 1000} s`,
    });
    return 'scheduled';
  }
  return runActionNow(run, action, index, column, duration, deps.registry);
}

/** Runs an action card at once (also a delayed one whose time came), recording it in the run's trace. */
export async function runActionNow(
  run: Run,
  action: Action,
  index: number,
  column: string,
  duration: number | null,
  registry: FlowRegistry,
): Promise<'done' | 'error' | 'stopped'> {
  if (run.stopped) return 'stopped';
  const card = cardName(action);
  const started = performance.now();
  run.step({ kind: 'action', card, group: column, index, outcome: 'started' });
  try {
    const { value, args } = await runCard(registry, 'action', action, run.scope, {
      state: run.state,
      duration,
      source: run.source,
    });
    run.step({
      kind: 'action',
      card,
      group: column,
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
      group: column,
      index,
      outcome: 'error',
      message: errorMessage(error),
      ms: Math.round(performance.now() - started),
    });
    return 'error';
  }
}
