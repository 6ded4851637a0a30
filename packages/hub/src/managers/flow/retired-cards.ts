import type { StoredAdvancedFlow, StoredFlow } from './health';
import type { FlowCardType, FlowRegistry } from './registry';
import type { DocumentStore } from './store';

interface Card {
  readonly uri: string;
  readonly id: string;
  readonly args?: Record<string, unknown>;
}

/** The card with what replaces it when its id is retired (see `FlowRegistry.replacement`), or `null`. */
function replaced<C extends Card>(registry: FlowRegistry, type: FlowCardType, card: C): C | null {
  const replacement = registry.replacement(type, card.uri, card.id, card.args ?? {});
  return replacement ? { ...card, id: replacement.id, args: replacement.args } : null;
}

function replacedInFlow(registry: FlowRegistry, flow: StoredFlow): StoredFlow | null {
  let changed = false;
  const swap = <C extends Card>(type: FlowCardType, card: C): C => {
    const next = replaced(registry, type, card);
    if (next) changed = true;
    return next ?? card;
  };
  const next = {
    ...flow,
    trigger: swap('trigger', flow.trigger),
    conditions: flow.conditions.map((card) => swap('condition', card)),
    actions: flow.actions.map((card) => swap('action', card)),
  };
  return changed ? next : null;
}

function replacedInAdvanced(registry: FlowRegistry, flow: StoredAdvancedFlow): StoredAdvancedFlow | null {
  let changed = false;
  const cards = Object.fromEntries(
    Object.entries(flow.cards).map(([key, node]) => {
      if (!(node.type === 'trigger' || node.type === 'condition' || node.type === 'action') || !node.ownerUri || !node.id)
        return [key, node];
      const next = replaced(registry, node.type, { uri: node.ownerUri, id: node.id, args: node.args ?? {} });
      if (!next) return [key, node];
      changed = true;
      return [key, { ...node, id: next.id, args: next.args }];
    }),
  );
  return changed ? { ...flow, cards } : null;
}

/**
 * Rewrites the cards of stored flows that name a retired card id (Hearth's own device cards that the ecosystem's
 * do: `onoff_set` with `true` becomes `on`, `dim_set` becomes `dim` with its `dim` argument) into the cards that
 * replace them, so flows saved before keep working and read as the ecosystem's clients write them. A card nothing
 * replaces (a value from a token, a device that is gone) stays. Run at start, before the flows are loaded: a flow
 * rewritten once names no retired card again. Answers how many flows it rewrote.
 */
export function replaceRetiredCards(
  registry: FlowRegistry,
  flows: DocumentStore<StoredFlow>,
  advanced: DocumentStore<StoredAdvancedFlow>,
): number {
  let rewritten = 0;
  for (const flow of flows.list()) {
    const next = replacedInFlow(registry, flow);
    if (next) rewritten += flows.save(next) ? 1 : 0;
  }
  for (const flow of advanced.list()) {
    const next = replacedInAdvanced(registry, flow);
    if (next) rewritten += advanced.save(next) ? 1 : 0;
  }
  return rewritten;
}
