import { type FlowCreateBody, HearthError } from '@hearth/contract';
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

/** `{uri, id}` of a card given as `{uri, id}` or as a full id `<owner uri>:<card id>` (how card lists name it). */
export function cardRef(field: string, card: { uri?: string; id: string }): { uri: string; id: string } {
  if (card.uri !== undefined) return { uri: card.uri, id: card.id };
  const split = card.id.lastIndexOf(':');
  if (!card.id.startsWith('homey:') || split <= 'homey:'.length)
    throw new HearthError('missing_parameter', `Missing Parameter: ${field}.uri`);
  return { uri: card.id.slice(0, split), id: card.id.slice(split + 1) };
}

/** Applies the defaults of the seed (condition group1 not inverted, action group then, no duration or delay). */
export function normaliseCards(body: Pick<FlowCreateBody, 'trigger' | 'conditions' | 'actions'>) {
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
