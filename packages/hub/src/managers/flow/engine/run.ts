import { HearthError } from '@hearth/contract';
import type { ChangeSource } from '../../../core/bus';
import type { Clock } from '../../../core/clock';
import type { FlowCardDefinition, FlowCardType, FlowRegistry } from '../registry';
import { prepareArgs, resolveToken, type TokenScope, tokenReferences } from './args';
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
  /** Who this run is, for the changes its cards make (device writes name it; the loop guard follows it). */
  readonly source: ChangeSource;

  constructor(
    readonly trace: FlowTrace,
    readonly scope: RunScope,
    /** What fired the trigger; cards read it, none changes it. */
    readonly state: Readonly<Record<string, unknown>>,
    private readonly clock: Clock,
    /** Hears each step as it happens (a test run streams them to the tester). */
    private readonly onStep?: (step: TraceStep) => void,
  ) {
    this.source = { kind: 'flow', flowId: trace.flowId, runId: trace.id };
  }

  get id(): string {
    return this.trace.id;
  }

  /** Records a step; `step` is the caller's own new object, which becomes the trace's entry. */
  step(step: Omit<TraceStep, 'at'>): void {
    const entry = step as TraceStep & { at: number };
    entry.at = this.clock.now();
    this.trace.steps.push(entry);
    this.onStep?.(entry);
  }
}

/** A title in the ecosystem's inversion syntax (`Is turned !{{on|off}}`) as it reads for a card (not) inverted. */
export const plainTitle = (title: string, inverted: boolean): string =>
  title.replace(/!\{\{([^|}]*)\|([^}]*)\}\}/g, (_all, plain: string, negated: string) => (inverted ? negated : plain));

/** `<owner uri>:<card id>`, as card lists and traces name a card. */
export const cardName = (card: { uri: string; id: string }) => `${card.uri}:${card.id}`;

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A card of a flow with what stays the same from run to run worked out once: its definition and, when its
 * arguments hold no token, those arguments checked against their types (frozen: every run shares them).
 */
export interface PreparedCard {
  readonly card: CardRef;
  /** `<owner uri>:<card id>`. */
  readonly name: string;
  /** What a person reads in a trace: the card's title (inversion worked out) and its owner's name, "Turn on — Hallway light". */
  readonly title: string;
  readonly definition: FlowCardDefinition | undefined;
  /** The checked arguments, or `null` when they hold tokens (checked at each run) or did not fit (`argsError`). */
  readonly args: Readonly<Record<string, unknown>> | null;
  readonly argsError: unknown;
}

export function prepareCard(registry: FlowRegistry, type: FlowCardType, card: CardRef): PreparedCard {
  const definition = registry.card(type, card.uri, card.id);
  let args: Readonly<Record<string, unknown>> | null = null;
  let argsError: unknown = null;
  if (definition && tokenReferences(card.args ?? {}).length === 0) {
    try {
      args = Object.freeze(prepareArgs(definition.args, card.args ?? {}, NO_TOKENS));
    } catch (error) {
      argsError = error;
    }
  }
  const title = definition ? plainTitle(definition.title, (card as { inverted?: boolean }).inverted === true) : cardName(card);
  const owner = registry.ownerName(card.uri);
  return { card, name: cardName(card), title: owner ? `${title} — ${owner}` : title, definition, args, argsError };
}

const NO_TOKENS: TokenScope = { local: {}, global: () => undefined };

/**
 * Runs one card of a flow: its arguments (tokens replaced, each checked against its type) and its drop token,
 * then the card itself. A missing card or token, an argument that does not fit, or the card's own failure
 * rejects with the reason.
 */
export async function callCard(
  type: FlowCardType,
  prepared: PreparedCard,
  scope: TokenScope,
  input: { state: Readonly<Record<string, unknown>>; duration?: number | null; source?: ChangeSource },
): Promise<{ value: unknown; args: Readonly<Record<string, unknown>> }> {
  const { definition, card } = prepared;
  if (!definition) throw new HearthError('not_found', `The ${type} card ${prepared.name} is missing`);
  if (prepared.argsError) throw prepared.argsError;
  const args = prepared.args ?? prepareArgs(definition.args, card.args ?? {}, scope);
  const problem = definition.argProblem?.(args);
  if (problem) throw new HearthError('conflict', problem);
  let droptoken: unknown;
  if (card.droptoken) {
    const found = resolveToken(card.droptoken, scope);
    if (!found) throw new HearthError('conflict', `The token ${card.droptoken} is missing`);
    droptoken = found.value;
  }
  if (!definition.run) throw new HearthError('not_implemented', `The ${type} card ${prepared.name} cannot run`);
  // Cards read the run's tokens and state and change neither: both are handed over as they are.
  const value = await definition.run({
    args: args as Record<string, unknown>,
    tokens: scope.local as Record<string, unknown>,
    state: input.state as Record<string, unknown>,
    ...(card.droptoken ? { droptoken } : {}),
    ...(input.duration != null ? { duration: input.duration } : {}),
    ...(input.source ? { source: input.source } : {}),
  });
  return { value, args };
}

/** Runs a card given by reference, looked up now (a card run on its own, an advanced flow's node). */
export function runCard(
  registry: FlowRegistry,
  type: FlowCardType,
  card: CardRef,
  scope: TokenScope,
  input: { state: Readonly<Record<string, unknown>>; duration?: number | null; source?: ChangeSource },
): Promise<{ value: unknown; args: Readonly<Record<string, unknown>> }> {
  return callCard(type, prepareCard(registry, type, card), scope, input);
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
