import { HearthError } from '@hearth/contract';
import type { ChangeSource } from '../../../core/bus';
import type { Clock } from '../../../core/clock';
import type { FlowCardType, FlowRegistry } from '../registry';
import { prepareArgs, resolveToken, type TokenScope } from './args';
import type { FlowTrace, TraceStep } from './traces';

/** A card as a flow holds it: its owner, id, arguments and drop token. */
export interface CardRef {
  readonly uri: string;
  readonly id: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly droptoken?: string | null;
}

/** The tokens of one run: the trigger's, and (advanced flows) what each node produced. */
export class RunScope implements TokenScope {
  readonly nodes: Record<string, unknown>;

  constructor(
    readonly local: Readonly<Record<string, unknown>>,
    private readonly registry: FlowRegistry,
    nodes: Record<string, unknown> = {},
  ) {
    this.nodes = nodes;
  }

  global(fullId: string): { value: unknown } | undefined {
    const token = this.registry.token(fullId);
    return token ? { value: token.value } : undefined;
  }
}

/** One run of a flow: its trace, its tokens, and whether something stopped it. */
export class Run {
  /** Set when the run must not go on: a newer run replaced it, or the flow was disabled or deleted. */
  stopped: 'restarted' | 'cancelled' | null = null;

  constructor(
    readonly trace: FlowTrace,
    readonly scope: RunScope,
    readonly state: Readonly<Record<string, unknown>>,
    private readonly clock: Clock,
    /** Hears each step as it happens (a test run streams them to the tester). */
    private readonly onStep?: (step: TraceStep) => void,
  ) {}

  get id(): string {
    return this.trace.id;
  }

  /** Who this run is, for the changes its cards make (device writes name it; the loop guard follows it). */
  get source(): ChangeSource {
    return { kind: 'flow', flowId: this.trace.flowId, runId: this.trace.id };
  }

  step(step: Omit<TraceStep, 'at'>): void {
    const entry = { at: this.clock.now(), ...step };
    this.trace.steps.push(entry);
    this.onStep?.(entry);
  }
}

/** `<owner uri>:<card id>`, as card lists and traces name a card. */
export const cardName = (card: { uri: string; id: string }) => `${card.uri}:${card.id}`;

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs one card of a flow: looks it up, prepares its arguments (tokens replaced, each checked against its type)
 * and its drop token, and calls it. A missing card or token, an argument that does not fit, or the card's own
 * failure rejects with the reason.
 */
export async function runCard(
  registry: FlowRegistry,
  type: FlowCardType,
  card: CardRef,
  scope: TokenScope,
  input: { state: Readonly<Record<string, unknown>>; duration?: number | null; source?: ChangeSource },
): Promise<{ value: unknown; args: Record<string, unknown> }> {
  const definition = registry.card(type, card.uri, card.id);
  if (!definition) throw new HearthError('not_found', `The ${type} card ${cardName(card)} is missing`);
  const args = prepareArgs(definition.args, card.args ?? {}, scope);
  const problem = definition.argProblem?.(args);
  if (problem) throw new HearthError('conflict', problem);
  let droptoken: unknown;
  if (card.droptoken) {
    const found = resolveToken(card.droptoken, scope);
    if (!found) throw new HearthError('conflict', `The token ${card.droptoken} is missing`);
    droptoken = found.value;
  }
  if (!definition.run) throw new HearthError('not_implemented', `The ${type} card ${cardName(card)} cannot run`);
  const value = await definition.run({
    args,
    tokens: { ...scope.local },
    state: { ...input.state },
    ...(card.droptoken ? { droptoken } : {}),
    ...(input.duration != null ? { duration: input.duration } : {}),
    ...(input.source ? { source: input.source } : {}),
  });
  return { value, args };
}

/** What a condition card's answer means: only `true` (or `{result: true}`) passes. */
export function conditionResult(value: unknown): boolean {
  if (value && typeof value === 'object' && 'result' in value) return (value as { result: unknown }).result === true;
  return value === true;
}

/** An action's result tokens: the object it answered, or none. */
export function resultTokens(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
