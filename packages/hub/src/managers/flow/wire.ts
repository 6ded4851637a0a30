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

/** A card's own item URI, as the ecosystem's card lists carry it: `homey:flowcard<type>:<fully qualified id>`. */
const CARD_ITEM_URI = /^homey:flowcard(trigger|condition|action):(.+)$/;

/** `{uri, id}` of a fully qualified id `<owner uri>:<card id>`, or `null` when it names no owner. */
function splitQualified(id: string): { uri: string; id: string } | null {
  const split = id.lastIndexOf(':');
  if (!id.startsWith('homey:') || split <= 'homey:'.length || split === id.length - 1) return null;
  return { uri: id.slice(0, split), id: id.slice(split + 1) };
}

/**
 * `{uri, id}` of a card given as `{uri, id}`, as a full id `<owner uri>:<card id>` (how card lists name it), as
 * both together, or with the card's own item URI (`homey:flowcardaction:<full id>`) as `uri`, as the ecosystem's
 * clients copy it from a card list; all name the same card. A card of a `type` is expected in the slot `field`.
 */
export function cardRef(
  field: string,
  card: { uri?: string; id: string },
  type?: 'trigger' | 'condition' | 'action',
): { uri: string; id: string } {
  const item = card.uri === undefined ? null : CARD_ITEM_URI.exec(card.uri);
  if (item) {
    if (type && item[1] !== type) throw invalidParameter(`${field}.uri`, `${card.uri} is not a ${type} card`);
    const named = splitQualified(item[2] as string);
    if (!named) throw invalidParameter(`${field}.uri`, `${card.uri} names no card`);
    if (card.id !== item[2] && card.id !== named.id)
      throw invalidParameter(`${field}.id`, `${card.id} is not the card ${item[2]} its uri names`);
    return named;
  }
  if (card.uri !== undefined) {
    const id = ownId(card.uri, card.id);
    if (id === null) throw invalidParameter(`${field}.id`, `${card.id} is not a card of ${card.uri}`);
    return { uri: card.uri, id };
  }
  const named = splitQualified(card.id);
  if (!named) throw new HearthError('missing_parameter', `Missing Parameter: ${field}.uri`);
  return named;
}

/**
 * The nodes of an advanced flow with their cards' ids without owner (a node carries its owner in `ownerUri`); a
 * card node given only a fully qualified id, as the ecosystem's clients may write it, gets its owner from it.
 */
export function normaliseNodes<Node extends AdvancedFlowNode>(cards: Record<string, Node>): Record<string, Node> {
  return Object.fromEntries(
    Object.entries(cards).map(([key, node]) => {
      if (node.id === undefined || !CARD_NODE_TYPES.has(node.type)) return [key, node];
      // A node naming neither its owner nor a qualified id stays as given: stored, and broken.
      if (node.ownerUri === undefined && !splitQualified(node.id)) return [key, node];
      const card = cardRef(`cards.${key}`, { uri: node.ownerUri, id: node.id }, node.type as 'trigger');
      return [key, { ...node, ownerUri: card.uri, id: card.id }];
    }),
  );
}

const CARD_NODE_TYPES = new Set(['trigger', 'condition', 'action']);

/** Applies the defaults of the seed (condition group1 not inverted, action group then, no duration or delay). */
export function normaliseCards(body: Pick<FlowCreateBody, 'trigger' | 'conditions' | 'actions'>) {
  // A delay or duration the hub could not hold (over a year) is refused when the flow is saved, not when it runs.
  for (const [index, action] of body.actions.entries()) {
    delayMs(action.delay, `actions.${index}.delay`);
    delayMs(action.duration, `actions.${index}.duration`);
  }
  return {
    trigger: {
      ...cardRef('trigger', body.trigger, 'trigger'),
      args: body.trigger.args ?? {},
      droptoken: body.trigger.droptoken ?? null,
    },
    conditions: body.conditions.map((c, index) => ({
      ...cardRef(`conditions.${index}`, c, 'condition'),
      args: c.args ?? {},
      droptoken: c.droptoken ?? null,
      group: c.group ?? 'group1',
      inverted: c.inverted ?? false,
    })),
    actions: body.actions.map((a, index) => ({
      ...cardRef(`actions.${index}`, a, 'action'),
      args: a.args ?? {},
      droptoken: a.droptoken ?? null,
      group: a.group ?? 'then',
      duration: a.duration ?? null,
      delay: a.delay ?? null,
    })),
  };
}
