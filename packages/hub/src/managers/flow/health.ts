import type { FlowCardType, FlowRegistry } from './registry';

/** The programmatic trigger ("This flow is started"): flows that start with it can be triggered by a call. */
export const PROGRAMMATIC_TRIGGER = { uri: 'homey:manager:flow', id: 'programmatic_trigger' } as const;

type Delay = { multiplier: 1 | 60; number: string } | null;

interface CardRef {
  uri: string;
  id: string;
  args?: Record<string, unknown>;
  droptoken?: string | null;
}

export interface StoredFlow {
  id: string;
  name: string;
  enabled: boolean;
  folder: string | null;
  order: number;
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
  cards: Record<
    string,
    { type: FlowCardType; x: number; y: number; id?: string; ownerUri?: string; args?: Record<string, unknown> }
  >;
}

/** Every `[[token]]` reference in a card's arguments. */
function tokenReferences(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') for (const match of value.matchAll(/\[\[([^\]]+)\]\]/g)) found.push(match[1] as string);
  else if (Array.isArray(value)) for (const item of value) tokenReferences(item, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) tokenReferences(item, found);
  return found;
}

/**
 * What makes a flow broken: each card that is not in the registry, and each token its arguments or drop token
 * refer to that no longer exists. A reference is a full token id (`<uri>|<id>`), or the id of a token of the
 * flow's own trigger card (optionally written `trigger::<id>`).
 */
export function flowProblems(
  registry: FlowRegistry,
  cards: { type: FlowCardType; card: CardRef }[],
  localTokens: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const { type, card } of cards) {
    if (!registry.card(type, card.uri, card.id)) problems.push(`missing ${type} card ${card.uri}:${card.id}`);
    const references = tokenReferences(card.args ?? {});
    if (card.droptoken) references.push(card.droptoken);
    for (const reference of references) {
      const local = reference.startsWith('trigger::') ? reference.slice('trigger::'.length) : reference;
      if (reference.includes('|') ? registry.token(reference) : localTokens.includes(local)) continue;
      problems.push(`missing token ${reference}`);
    }
  }
  return problems;
}

export function describeFlow(registry: FlowRegistry, flow: StoredFlow) {
  const trigger = registry.card('trigger', flow.trigger.uri, flow.trigger.id);
  const localTokens = (trigger?.tokens ?? []).map((t) => t.id);
  const cards = [
    { type: 'trigger' as const, card: flow.trigger },
    ...flow.conditions.map((card) => ({ type: 'condition' as const, card })),
    ...flow.actions.map((card) => ({ type: 'action' as const, card })),
  ];
  return {
    ...flow,
    broken: flowProblems(registry, cards, localTokens).length > 0,
    triggerable: flow.trigger.uri === PROGRAMMATIC_TRIGGER.uri && flow.trigger.id === PROGRAMMATIC_TRIGGER.id,
  };
}

export function describeAdvancedFlow(registry: FlowRegistry, flow: StoredAdvancedFlow) {
  const refs = Object.values(flow.cards).flatMap((card) =>
    card.id ? [{ type: card.type, card: { uri: card.ownerUri ?? '', id: card.id, args: card.args } }] : [],
  );
  const localTokens = refs
    .filter((r) => r.type === 'trigger')
    .flatMap((r) => registry.card('trigger', r.card.uri, r.card.id)?.tokens ?? [])
    .map((t) => t.id);
  return {
    ...flow,
    broken: flowProblems(registry, refs, localTokens).length > 0,
    triggerable: refs.some(
      (r) => r.type === 'trigger' && r.card.uri === PROGRAMMATIC_TRIGGER.uri && r.card.id === PROGRAMMATIC_TRIGGER.id,
    ),
  };
}
