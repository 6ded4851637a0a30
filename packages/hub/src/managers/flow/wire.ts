import { type AdvancedFlowNode, type FlowCreateBody, HearthError, invalidParameter } from '@hearth/contract';
import { delayMs } from './engine/args';
import { type FlowCardDefinition, uriObject } from './registry';

export function cardToWire(card: FlowCardDefinition) {
  return {
    id: cardKey(card),
    ownerUri: card.uri,
    uriObj: uriObject(card.uri),
    title: card.title,
    hint: card.hint ?? null,
    highlight: card.highlight ?? false,
    deprecated: card.deprecated ?? false,
    advanced: card.advanced ?? false,
    droptoken: card.droptoken ?? null,
    duration: card.duration ?? false,
    args: card.args ?? [],
    ...(card.type === 'condition' ? {} : { tokens: card.tokens ?? [] }),
  };
}

export const cardKey = (card: FlowCardDefinition) => `${card.uri}:${card.id}`;

/**
 * The card id without its owner: clients may send a card's owner and its fully qualified id together
 * (`{uri: 'homey:manager:flow', id: 'homey:manager:flow:programmatic_trigger'}`), as the ecosystem's do.
 * Answers `null` for a qualified id of another owner than `uri`.
 */
export function ownId(uri: string, id: string): string | null {
  if (!id.startsWith('homey:')) return id;
  return id.startsWith(`${uri}:`) && id.length > uri.length + 1 ? id.slice(uri.length + 1) : null;
}

/**
 * `{uri, id}` of a card given as `{uri, id}`, as a full id `<owner uri>:<card id>` (how card lists name it), or
 * as both together; the three forms name the same card.
 */
export function cardRef(field: string, card: { uri?: string; id: string }): { uri: string; id: string } {
  if (card.uri !== undefined) {
    const id = ownId(card.uri, card.id);
    if (id === null) throw invalidParameter(`${field}.id`, `${card.id} is not a card of ${card.uri}`);
    return { uri: card.uri, id };
  }
  const split = card.id.lastIndexOf(':');
  if (!card.id.startsWith('homey:') || split <= 'homey:'.length)
    throw new HearthError('missing_parameter', `Missing Parameter: ${field}.uri`);
  return { uri: card.id.slice(0, split), id: card.id.slice(split + 1) };
}

/** The nodes of an advanced flow with their cards' ids without owner (a node carries its owner in `ownerUri`). */
export function normaliseNodes<Node extends AdvancedFlowNode>(cards: Record<string, Node>): Record<string, Node> {
  return Object.fromEntries(
    Object.entries(cards).map(([key, node]) => {
      if (node.ownerUri === undefined || node.id === undefined) return [key, node];
      const id = ownId(node.ownerUri, node.id);
      if (id === null) throw invalidParameter(`cards.${key}.id`, `${node.id} is not a card of ${node.ownerUri}`);
      return [key, { ...node, id }];
    }),
  );
}

/** Applies the defaults of the seed (condition group1 not inverted, action group then, no duration or delay). */
export function normaliseCards(body: Pick<FlowCreateBody, 'trigger' | 'conditions' | 'actions'>) {
  // A delay or duration the hub could not hold (over a year) is refused when the flow is saved, not when it runs.
  for (const [index, action] of body.actions.entries()) {
    delayMs(action.delay, `actions.${index}.delay`);
    delayMs(action.duration, `actions.${index}.duration`);
  }
  return {
    trigger: {
      ...cardRef('trigger', body.trigger),
      args: body.trigger.args ?? {},
      droptoken: body.trigger.droptoken ?? null,
    },
    conditions: body.conditions.map((c, index) => ({
      ...cardRef(`conditions.${index}`, c),
      args: c.args ?? {},
      droptoken: c.droptoken ?? null,
      group: c.group ?? 'group1',
      inverted: c.inverted ?? false,
    })),
    actions: body.actions.map((a, index) => ({
      ...cardRef(`actions.${index}`, a),
      args: a.args ?? {},
      droptoken: a.droptoken ?? null,
      group: a.group ?? 'then',
      duration: a.duration ?? null,
      delay: a.delay ?? null,
    })),
  };
}
