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
 * How a client named a card, so a flow is answered as it was written (the ecosystem's clients compare what they
 * sent with what they read): absent for the owner `uri` and a short `id` (Hearth's own clients), `qualified` for a
 * fully qualified `id` alone (the ecosystem's current Web API), `both` for the owner and the qualified id together.
 * The hub itself always works with the owner and the short id.
 */
export type GivenForm = 'qualified' | 'both';

/** The form a card was written in (a stored card keeps the form it was first given). */
function givenForm(card: { uri?: string; id: string; givenForm?: GivenForm }): { givenForm?: GivenForm } {
  if (card.givenForm) return { givenForm: card.givenForm };
  if (card.uri !== undefined && CARD_ITEM_URI.test(card.uri)) return {};
  if (card.uri === undefined) return { givenForm: 'qualified' };
  return card.id.startsWith('homey:') ? { givenForm: 'both' } : {};
}

/** A stored card (owner `uri`, short `id`) as the flow's writer named it. */
export function answerCard<Card extends { uri: string; id: string; givenForm?: GivenForm }>(card: Card) {
  const { givenForm: form, uri, id, ...rest } = card;
  if (form === 'qualified') return { id: `${uri}:${id}`, ...rest };
  if (form === 'both') return { uri, id: `${uri}:${id}`, ...rest };
  return { uri, id, ...rest };
}

/** An advanced flow's node (owner in `ownerUri`, short `id`) as the flow's writer named it. */
export function answerNode<Node extends AdvancedFlowNode & { givenForm?: GivenForm }>(node: Node) {
  const { givenForm: form, ...rest } = node;
  if (!form || rest.id === undefined || rest.ownerUri === undefined) return rest;
  const { ownerUri, ...withoutOwner } = rest;
  const id = `${ownerUri}:${rest.id}`;
  return form === 'qualified' ? { ...withoutOwner, id } : { ...rest, id };
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
      const given = { uri: node.ownerUri, id: node.id, givenForm: (node as { givenForm?: GivenForm }).givenForm };
      const card = cardRef(`cards.${key}`, given, node.type as 'trigger');
      return [key, { ...node, ownerUri: card.uri, id: card.id, ...givenForm(given) }];
    }),
  );
}

const CARD_NODE_TYPES = new Set(['trigger', 'condition', 'action']);

/** Applies the defaults of the seed (condition group1 not inverted, action group then, no duration or delay). */
export function normaliseCards(body: Pick<FlowCreateBody, 'trigger' | 'conditions' | 'actions'>) {
  // A drop token is kept as given (absent, `null` or a token), so the flow reads back as it was written.
  const card = (field: string, given: FlowCreateBody['trigger'], type: 'trigger' | 'condition' | 'action') => ({
    ...cardRef(field, given, type),
    ...givenForm(given),
    args: given.args ?? {},
    ...(given.droptoken === undefined ? {} : { droptoken: given.droptoken }),
  });
  // A delay or duration the hub could not hold (over a year) is refused when the flow is saved, not when it runs.
  for (const [index, action] of body.actions.entries()) {
    delayMs(action.delay, `actions.${index}.delay`);
    delayMs(action.duration, `actions.${index}.duration`);
  }
  return {
    trigger: card('trigger', body.trigger, 'trigger'),
    conditions: body.conditions.map((c, index) => ({
      ...card(`conditions.${index}`, c, 'condition'),
      group: c.group ?? 'group1',
      inverted: c.inverted ?? false,
    })),
    actions: body.actions.map((a, index) => ({
      ...card(`actions.${index}`, a, 'action'),
      group: a.group ?? 'then',
      duration: a.duration ?? null,
      delay: a.delay ?? null,
    })),
  };
}
