import type { AdvancedFlowNode } from '@hearth/contract';
import type { FlowRegistry } from '../registry';
import { delayMs } from './args';
import { cardName, conditionResult, errorMessage, type Run, resultTokens, runCard } from './run';
import type { RunStatus } from './traces';

/** A node of an advanced flow, keyed by a uuid in the flow's `cards` map; edges live on their source node. */
export type AdvancedNode = AdvancedFlowNode;

type Port = 'success' | 'error' | 'true' | 'false';
const PORTS: [Port, 'outputSuccess' | 'outputError' | 'outputTrue' | 'outputFalse'][] = [
  ['success', 'outputSuccess'],
  ['error', 'outputError'],
  ['true', 'outputTrue'],
  ['false', 'outputFalse'],
];

/** `<key>::outputSuccess` and `<key>::success` name the same edge end. */
const normaliseInput = (input: string): string =>
  input.replace(/::output(\w)(\w*)$/, (_match, first: string, rest: string) => `::${first.toLowerCase()}${rest}`);

export interface AdvancedFlowDeps {
  readonly registry: FlowRegistry;
  /** Holds the run at a delay node until it is due; answers when and what holds it. */
  delay(run: Run, nodeKey: string, ms: number): { dueAt: number; jobId: string };
}

/**
 * One run of an advanced flow through its graph. From the node that started it (the trigger that fired, or a
 * start node), each node passes on along its outputs: a condition along `outputTrue` or `outputFalse`, an action
 * along `outputSuccess` with its result tokens (later cards read them as `[[action::<node>::<token>]]`) or along
 * `outputError` with `[[card::<node>::error]]`; `any` goes on with the first branch that arrives, `all` waits for
 * every input; a delay node holds the run in the scheduler. Branches run side by side.
 */
export class AdvancedFlowRun {
  readonly #arrivals = new Map<string, Set<string>>();
  readonly #anyPassed = new Set<string>();
  #actions = 0;
  #falseConditions = 0;
  #failed = false;
  /** Delay nodes this run waits at. */
  #waiting = 0;

  constructor(
    readonly run: Run,
    private readonly nodes: Readonly<Record<string, AdvancedNode>>,
    private readonly deps: AdvancedFlowDeps,
  ) {}

  /** Runs from the entry nodes until every branch ended or waits at a delay. */
  async start(entries: readonly string[]): Promise<RunStatus> {
    await Promise.all(entries.map((key) => this.#visit(key, null)));
    return this.#status();
  }

  /** Goes on after a delay node whose time came. */
  async continueAfter(delayNode: string): Promise<RunStatus> {
    this.#waiting = Math.max(0, this.#waiting - 1);
    this.run.step({ kind: 'node', node: delayNode, outcome: 'done', message: 'The delay is over' });
    await this.#follow(delayNode, 'success');
    return this.#status();
  }

  #status(): RunStatus {
    if (this.run.stopped) return this.run.stopped;
    if (this.#waiting > 0) return 'waiting';
    if (this.#failed) return 'failed';
    if (this.#actions === 0 && this.#falseConditions > 0) return 'conditions_failed';
    return 'completed';
  }

  async #follow(key: string, port: Port): Promise<void> {
    const node = this.nodes[key];
    const field = PORTS.find(([name]) => name === port)?.[1] as (typeof PORTS)[number][1];
    const targets = node?.[field] ?? [];
    await Promise.all(targets.map((target) => this.#visit(target, `${key}::${port}`)));
  }

  /** The edges that end at `key`: its declared `input`, or every output of another node that names it. */
  #inputsOf(key: string): Set<string> {
    const declared = this.nodes[key]?.input;
    if (declared && declared.length > 0) return new Set(declared.map(normaliseInput));
    const inputs = new Set<string>();
    for (const [source, node] of Object.entries(this.nodes)) {
      for (const [port, field] of PORTS) if (node[field]?.includes(key)) inputs.add(`${source}::${port}`);
    }
    return inputs;
  }

  async #visit(key: string, from: string | null): Promise<void> {
    if (this.run.stopped) return;
    const node = this.nodes[key];
    if (!node) {
      this.#failed = true;
      this.run.step({ kind: 'node', node: key, outcome: 'error', message: 'An edge leads to a node that does not exist' });
      return;
    }
    switch (node.type) {
      case 'note':
        return;
      case 'start':
      case 'trigger':
        if (node.type === 'trigger') {
          // The trigger's tokens, by node, for later cards: [[trigger::<node>::<token>]].
          for (const [id, value] of Object.entries(this.run.scope.local)) this.run.scope.nodes[`trigger::${key}::${id}`] = value;
        }
        this.run.step({ kind: 'node', node: key, outcome: 'passed', ...(node.id ? { card: cardName(this.#card(node)) } : {}) });
        return this.#follow(key, 'success');
      case 'condition':
        return this.#condition(key, node);
      case 'action':
        return this.#action(key, node);
      case 'delay':
        return this.#delay(key, node);
      case 'any':
        if (this.#anyPassed.has(key)) {
          this.run.step({ kind: 'node', node: key, outcome: 'skipped', message: 'Another branch already went on' });
          return;
        }
        this.#anyPassed.add(key);
        this.run.step({ kind: 'node', node: key, outcome: 'passed', message: 'The first branch arrived' });
        return this.#follow(key, 'success');
      case 'all': {
        const expected = this.#inputsOf(key);
        const arrived = this.#arrivals.get(key) ?? new Set<string>();
        this.#arrivals.set(key, arrived);
        if (from) arrived.add(normaliseInput(from));
        const missing = [...expected].filter((input) => !arrived.has(input)).length;
        if (missing > 0) {
          this.run.step({ kind: 'node', node: key, outcome: 'waiting', message: `Waiting for ${missing} more branch(es)` });
          return;
        }
        this.run.step({ kind: 'node', node: key, outcome: 'passed', message: 'Every branch arrived' });
        return this.#follow(key, 'success');
      }
    }
  }

  #card(node: AdvancedNode) {
    return { uri: node.ownerUri ?? '', id: node.id ?? '', args: node.args ?? {}, droptoken: node.droptoken ?? null };
  }

  async #condition(key: string, node: AdvancedNode): Promise<void> {
    const card = this.#card(node);
    try {
      const { value, args } = await runCard(this.deps.registry, 'condition', card, this.run.scope, {
        state: this.run.state,
        source: this.run.source,
      });
      const passed = conditionResult(value) !== (node.inverted ?? false);
      if (!passed) this.#falseConditions += 1;
      this.run.step({ kind: 'condition', node: key, card: cardName(card), outcome: passed ? 'passed' : 'failed', args });
      return this.#follow(key, passed ? 'true' : 'false');
    } catch (error) {
      return this.#error(key, card, error);
    }
  }

  async #action(key: string, node: AdvancedNode): Promise<void> {
    const card = this.#card(node);
    this.#actions += 1;
    this.run.step({ kind: 'action', node: key, card: cardName(card), outcome: 'started' });
    try {
      const { value, args } = await runCard(this.deps.registry, 'action', card, this.run.scope, {
        state: this.run.state,
        source: this.run.source,
      });
      for (const [id, token] of Object.entries(resultTokens(value))) this.run.scope.nodes[`action::${key}::${id}`] = token;
      this.run.step({ kind: 'action', node: key, card: cardName(card), outcome: 'done', args, result: value ?? null });
      return this.#follow(key, 'success');
    } catch (error) {
      return this.#error(key, card, error);
    }
  }

  /** A card that failed: its error is a token for the error branch; without one the run failed. */
  #error(key: string, card: { uri: string; id: string }, error: unknown): Promise<void> {
    const message = errorMessage(error);
    this.run.scope.nodes[`card::${key}::error`] = message;
    const handled = (this.nodes[key]?.outputError?.length ?? 0) > 0;
    if (!handled) this.#failed = true;
    this.run.step({
      kind: this.nodes[key]?.type === 'condition' ? 'condition' : 'action',
      node: key,
      card: cardName(card),
      outcome: 'error',
      message: handled ? `${message} (the error branch goes on)` : message,
    });
    return this.#follow(key, 'error');
  }

  #delay(key: string, node: AdvancedNode): Promise<void> {
    let ms: number | null;
    try {
      ms = delayMs(node.args?.delay as { number: string; multiplier: 1 | 60 } | undefined, `cards.${key}.args.delay`);
    } catch (error) {
      this.#failed = true;
      this.run.step({ kind: 'node', node: key, outcome: 'error', message: errorMessage(error) });
      return Promise.resolve();
    }
    if (!ms) return this.#follow(key, 'success');
    const { dueAt, jobId } = this.deps.delay(this.run, key, ms);
    this.#waiting += 1;
    this.run.step({ kind: 'delay', node: key, outcome: 'scheduled', dueAt, jobId, message: `Goes on after ${ms / 1000} s` });
    return Promise.resolve();
  }
}
