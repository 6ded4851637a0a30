import type { Answer, Choice, Collected, StepId, TreeDefinition } from '../types';

const STEP_TYPES = new Set(['plain', 'action', 'final']);

export interface FormState {
  answers: Answer[];
}

/**
 * The decision tree as a pure state machine. A step is revealed with the steps still queued after it;
 * choosing on an action step replaces everything after it with the steps of the chosen action, and
 * continuing a plain step reveals the next queued step. Answers after a changed step are discarded.
 */
export function createEngine(tree: TreeDefinition, log: Pick<Console, 'error'> = console) {
  /** Reveals `queue[0]`; a step with an unknown type is a configuration error and is not shown. */
  function reveal(queue: readonly StepId[]): Answer | null {
    const [step, ...remaining] = queue;
    if (!step) return null;
    const definition = tree.steps[step];
    if (!definition || !STEP_TYPES.has(definition.type)) {
      log.error(`Support form configuration error: step "${step}" has invalid type "${definition?.type}"`);
      return null;
    }
    return { step, value: null, action: null, data: {}, remaining };
  }

  function initial(first: StepId = 'mainCategory'): FormState {
    const answer = reveal([first]);
    return { answers: answer ? [answer] : [] };
  }

  function choose(state: FormState, index: number, choice: Choice): FormState {
    const current = state.answers[index];
    if (!current) return state;
    if (tree.steps[current.step].type !== 'action') {
      log.error(`Support form configuration error: step "${current.step}" takes no choice`);
      return state;
    }
    const queue = tree.actions[choice.action];
    if (!queue) {
      log.error(`Support form configuration error: unknown action "${choice.action}"`);
      return state;
    }
    const answered: Answer = {
      ...current,
      value: choice.value,
      action: choice.action,
      data: { ...choice.data, path: [choice.label] },
    };
    const next = reveal(queue);
    return { answers: [...state.answers.slice(0, index), answered, ...(next ? [next] : [])] };
  }

  /** Continues a plain step: reveals the next queued step (once). */
  function proceed(state: FormState, index: number): FormState {
    const current = state.answers[index];
    if (!current || tree.steps[current.step].type !== 'plain') return state;
    const next = reveal(current.remaining);
    return { answers: [...state.answers.slice(0, index), { ...current, value: 'continue' }, ...(next ? [next] : [])] };
  }

  /** Updates what a step collected (message, subject, files, …) without touching the steps around it. */
  function update(state: FormState, index: number, data: Partial<Collected>): FormState {
    const current = state.answers[index];
    if (!current) return state;
    const answers = [...state.answers];
    answers[index] = { ...current, data: { ...current.data, ...data } };
    return { answers };
  }

  return { reveal, initial, choose, proceed, update };
}

/**
 * Everything collected by the answers up to and including `index`: tags accumulate (unique), the path
 * grows, and other keys take the latest value (so the knowledge base shows the articles of the last choice).
 */
export function collectedUpTo(answers: readonly Answer[], index = answers.length - 1): Collected {
  const result: Collected = { articles: [], tags: [], path: [] };
  for (const answer of answers.slice(0, index + 1)) {
    const { tags, path, articles, ...rest } = answer.data;
    Object.assign(result, rest);
    if (articles) result.articles = [...articles];
    if (tags) result.tags = [...new Set([...result.tags, ...tags])];
    if (path) result.path = [...result.path, ...path];
  }
  return result;
}

/** The choice for an option of the tree: its action, articles and tags, plus what the step collected. */
export function choiceOf(
  option: { value: string; label: string; action: string; articles: readonly string[]; tags: readonly string[] },
  data: Partial<Collected> = {},
): Choice {
  return {
    value: option.value,
    label: option.label,
    action: option.action,
    data: { articles: [...option.articles], tags: [...option.tags], ...data },
  };
}
