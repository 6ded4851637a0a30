import type { AdvancedNode } from './engine/advanced';
import { tokenReferences } from './engine/args';
import type { FlowCardType, FlowRegistry } from './registry';
import { answerCard, answerNode, type GivenForm } from './wire';

/** The programmatic trigger ("This flow is started"): flows that start with it can be triggered by a call. */
export const PROGRAMMATIC_TRIGGER = { uri: 'homey:manager:flow', id: 'programmatic_trigger' } as const;

type Delay = { multiplier: 1 | 60; number: string } | null;

interface CardRef {
  uri: string;
  id: string;
  givenForm?: GivenForm;
  args?: Record<string, unknown>;
  droptoken?: string | null;
}

/** How a flow treats a trigger that arrives while it runs (see the contract's `runModeFields`). */
export type RunMode = 'single' | 'restart' | 'queued' | 'parallel';

export interface StoredFlow {
  id: string;
  name: string;
  enabled: boolean;
  folder: string | null;
  order: number;
  mode?: RunMode;
  max?: number;
  trigger: CardRef;
  conditions: (CardRef & { group: 'group1' | 'group2' | 'group3'; inverted: boolean })[];
  actions: (CardRef & { group: 'then' | 'else'; duration: Delay; delay: Delay })[];
}

export interface StoredAdvancedFlow {
  id: string;
  name: string;
  enabled: boolean;
  folder: string | null;
  order: number;
  mode?: RunMode;
  max?: number;
  cards: Record<string, AdvancedNode>;
}

/**
 * What makes a flow broken: each card that is not in the registry, each card whose arguments name something
 * that is gone (a deleted variable or zone), and each token its arguments or drop token refer to that no longer
 * exists. A reference is a full token id (`<uri>|<id>`), the id of a token of the flow's own trigger card
 * (optionally written `trigger::<id>`), or, in advanced flows, a node's token (`trigger::<node>::<id>`,
 * `action::<node>::<id>`, `card::<node>::error`) of a node the flow has.
 */
export function flowProblems(
  registry: FlowRegistry,
  cards: { type: FlowCardType; card: CardRef }[],
  localTokens: readonly string[],
  nodes: Readonly<Record<string, AdvancedNode>> = {},
): string[] {
  const problems: string[] = [];
  for (const { type, card } of cards) {
    const definition = registry.card(type, card.uri, card.id);
    if (!definition) problems.push(`missing ${type} card ${card.uri}:${card.id}`);
    const argProblem = definition?.argProblem?.(card.args ?? {});
    if (argProblem) problems.push(`${type} card ${card.uri}:${card.id}: ${argProblem}`);
    const references = tokenReferences(card.args ?? {});
    if (card.droptoken) references.push(card.droptoken);
    for (const reference of references) {
      if (reference.includes('|') ? registry.token(reference) : isLocal(reference, localTokens, nodes)) continue;
      problems.push(`missing token ${reference}`);
    }
  }
  return problems;
}

function isLocal(reference: string, localTokens: readonly string[], nodes: Readonly<Record<string, AdvancedNode>>): boolean {
  const node = /^(trigger|action|card)::([^:]+)::(.+)$/.exec(reference);
  if (node) return nodes[node[2] as string] !== undefined;
  const local = reference.startsWith('trigger::') ? reference.slice('trigger::'.length) : reference;
  return localTokens.includes(local);
}

/** The cards of a standard flow, for the health checks. */
function standardCards(flow: StoredFlow) {
  return [
    { type: 'trigger' as const, card: flow.trigger },
    ...flow.conditions.map((card) => ({ type: 'condition' as const, card })),
    ...flow.actions.map((card) => ({ type: 'action' as const, card })),
  ];
}

const CARD_NODES = new Set(['trigger', 'condition', 'action']);

/** The card nodes of an advanced flow, for the health checks. */
function advancedCards(flow: StoredAdvancedFlow) {
  return Object.values(flow.cards).flatMap((card) =>
    CARD_NODES.has(card.type) && card.id
      ? [
          {
            type: card.type as FlowCardType,
            card: { uri: card.ownerUri ?? '', id: card.id, args: card.args ?? {}, droptoken: card.droptoken ?? null },
          },
        ]
      : [],
  );
}

/** Every card a flow uses (standard or advanced), with the arguments it holds. */
export function flowCardUses(
  entry: { type: 'flow'; flow: StoredFlow } | { type: 'advancedflow'; flow: StoredAdvancedFlow },
): { type: FlowCardType; card: CardRef }[] {
  return entry.type === 'flow' ? standardCards(entry.flow) : advancedCards(entry.flow);
}

export function standardFlowProblems(registry: FlowRegistry, flow: StoredFlow): string[] {
  const trigger = registry.card('trigger', flow.trigger.uri, flow.trigger.id);
  return flowProblems(
    registry,
    standardCards(flow),
    (trigger?.tokens ?? []).map((t) => t.id),
  );
}

export function advancedFlowProblems(registry: FlowRegistry, flow: StoredAdvancedFlow): string[] {
  const cards = advancedCards(flow);
  const localTokens = cards
    .filter((r) => r.type === 'trigger')
    .flatMap((r) => registry.card('trigger', r.card.uri, r.card.id)?.tokens ?? [])
    .map((t) => t.id);
  return flowProblems(registry, cards, localTokens, flow.cards);
}

/** A standard flow as it is answered: its cards as they were written, with its health. */
export function describeFlow(registry: FlowRegistry, flow: StoredFlow) {
  return {
    ...flow,
    trigger: answerCard(flow.trigger),
    conditions: flow.conditions.map(answerCard),
    actions: flow.actions.map(answerCard),
    broken: standardFlowProblems(registry, flow).length > 0,
    triggerable: flow.trigger.uri === PROGRAMMATIC_TRIGGER.uri && flow.trigger.id === PROGRAMMATIC_TRIGGER.id,
  };
}

/** An advanced flow as it is answered: its nodes as they were written, with its health. */
export function describeAdvancedFlow(registry: FlowRegistry, flow: StoredAdvancedFlow) {
  return {
    ...flow,
    cards: Object.fromEntries(Object.entries(flow.cards).map(([key, node]) => [key, answerNode(node)])),
    broken: advancedFlowProblems(registry, flow).length > 0,
    // Started by a call from its start card, or by the programmatic trigger.
    triggerable: Object.values(flow.cards).some(
      (card) =>
        card.type === 'start' ||
        (card.type === 'trigger' && card.ownerUri === PROGRAMMATIC_TRIGGER.uri && card.id === PROGRAMMATIC_TRIGGER.id),
    ),
  };
}
