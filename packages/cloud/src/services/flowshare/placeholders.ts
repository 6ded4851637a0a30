/**
 * What sharing takes out of a flow: the household's own ids. Devices are named by their owner uri
 * (`homey:device:<id>`), by `device` arguments and in tokens (`homey:device:<id>|<capability>`); variables, zones,
 * people, flows, alarms and moods by the hub's arguments of those names (`{id, name}` as their autocomplete
 * answered) and variables also in tokens (`homey:manager:logic|<id>`). Each becomes a placeholder `{{<kind>:<n>}}`
 * (the same id, the same placeholder), and names go with the ids: the importer maps each placeholder to one of
 * their own.
 */

type CardType = 'trigger' | 'condition' | 'action';
type Json = Record<string, unknown>;

/** Argument names whose `{id}` value names something of the household's. */
const PERSONAL_ARGUMENTS = new Set(['device', 'variable', 'zone', 'user', 'flow', 'alarm', 'mood']);
const DEVICE_URI = /^homey:device:([^|\]]+)$/;
const DEVICE_TOKEN = /homey:device:([^|\]\s]+)\|/g;
const VARIABLE_TOKEN = /homey:manager:logic\|([^\]\s]+)/g;

export interface Placeholder {
  placeholder: string;
  kind: string;
  usedBy: string[];
}

class Placeholders {
  readonly #byId = new Map<string, Placeholder>();
  readonly #counts = new Map<string, number>();

  for(kind: string, id: string, card: string): string {
    const key = `${kind}\u0000${id}`;
    let found = this.#byId.get(key);
    if (!found) {
      const n = (this.#counts.get(kind) ?? 0) + 1;
      this.#counts.set(kind, n);
      found = { placeholder: `{{${kind}:${n}}}`, kind, usedBy: [] };
      this.#byId.set(key, found);
    }
    if (!found.usedBy.includes(card)) found.usedBy.push(card);
    return found.placeholder;
  }

  list(): Placeholder[] {
    return [...this.#byId.values()];
  }

  /** A text with the ids in its tokens replaced. */
  text(value: string, card: string): string {
    return value
      .replace(DEVICE_TOKEN, (_match, id: string) => `homey:device:${this.for('device', id, card)}|`)
      .replace(VARIABLE_TOKEN, (_match, id: string) => `homey:manager:logic|${this.for('variable', id, card)}`);
  }

  /** Arguments with what they name replaced: personal `{id}` values, and ids in tokens anywhere in them. */
  args(args: Json, card: string): Json {
    return Object.fromEntries(
      Object.entries(args).map(([name, value]) => {
        const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
        if (PERSONAL_ARGUMENTS.has(name) && typeof id === 'string') return [name, { id: this.for(name, id, card) }];
        if (PERSONAL_ARGUMENTS.has(name) && name === 'device' && typeof value === 'string')
          return [name, { id: this.for('device', value, card) }];
        return [name, this.deep(value, card)];
      }),
    );
  }

  deep(value: unknown, card: string): unknown {
    if (typeof value === 'string') return this.text(value, card);
    if (Array.isArray(value)) return value.map((item) => this.deep(item, card));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.deep(item, card)]));
    return value;
  }

  uri(uri: string, card: string): string {
    const device = DEVICE_URI.exec(uri);
    return device ? `homey:device:${this.for('device', device[1] as string, card)}` : uri;
  }
}

/** A card of a standard flow in the seed's form: owner `uri` and `id` (a full `<uri>:<id>` is split). */
function seedForm(card: Json): Json {
  if (typeof card.uri === 'string' || typeof card.id !== 'string') return card;
  const split = card.id.lastIndexOf(':');
  return split > 0 ? { ...card, uri: card.id.slice(0, split), id: card.id.slice(split + 1) } : card;
}

/** The shared form of a flow (standard or advanced): placeholders for what it names, and the cards it uses. */
export function shareable(data: Json): {
  type: 'flow' | 'advancedflow';
  flow: Json;
  cards: { type: CardType; id: string }[];
  placeholders: Placeholder[];
} {
  const places = new Placeholders();
  const cards = new Map<string, { type: CardType; id: string }>();
  const card = (type: CardType, raw: Json, uriField: 'uri' | 'ownerUri'): Json => {
    const uri = places.uri(String(raw[uriField] ?? ''), String(raw.id));
    const id = `${uri}:${String(raw.id)}`;
    cards.set(`${type} ${id}`, { type, id });
    const shared: Json = { ...raw, [uriField]: uri };
    if (raw.args && typeof raw.args === 'object') shared.args = places.args(raw.args as Json, String(raw.id));
    if (typeof raw.droptoken === 'string') shared.droptoken = places.text(`${raw.droptoken}`, String(raw.id));
    return shared;
  };
  if ('cards' in data) {
    const nodes = Object.fromEntries(
      Object.entries(data.cards as Record<string, Json>).map(([key, node]) => [
        key,
        ['trigger', 'condition', 'action'].includes(String(node.type)) && typeof node.id === 'string'
          ? card(node.type as CardType, node, 'ownerUri')
          : { ...node, args: node.args ? places.deep(node.args, String(node.type)) : node.args },
      ]),
    );
    return { type: 'advancedflow', flow: { ...data, cards: nodes }, cards: [...cards.values()], placeholders: places.list() };
  }
  const flow = {
    ...data,
    trigger: card('trigger', seedForm(data.trigger as Json), 'uri'),
    conditions: (data.conditions as Json[]).map((c) => card('condition', seedForm(c), 'uri')),
    actions: (data.actions as Json[]).map((a) => card('action', seedForm(a), 'uri')),
  };
  return { type: 'flow', flow, cards: [...cards.values()], placeholders: places.list() };
}
