/**
 * A standard flow as the editor holds it while a person changes it, and the way between that and the hub's wire
 * form (`FlowCreate` of the contract): cards named by owner `uri` and `id`, conditions in `group1`..`group3`
 * with `inverted`, actions in `then`/`else` with `delay`/`duration` as `{number: "<decimal>", multiplier}`.
 */
import type { FlowCreateBody } from '@hearth/contract';

export type CardType = 'trigger' | 'condition' | 'action';
export type TokenType = 'string' | 'number' | 'boolean' | 'image';
export type ConditionGroup = 'group1' | 'group2' | 'group3';
export type ActionGroup = 'then' | 'else';
export const CONDITION_GROUPS: readonly ConditionGroup[] = ['group1', 'group2', 'group3'];

/** One argument a card declares (the hub's card lists). */
export interface CardArg {
  name: string;
  type: string;
  title?: string;
  placeholder?: string;
  values?: { id: string; title: string }[];
  min?: number;
  max?: number;
  step?: number;
  filter?: string;
  required?: boolean;
}

export interface TokenDef {
  id: string;
  title: string;
  type: TokenType;
}

/** A card as the hub lists it: `id` is `<owner uri>:<card id>`. */
export interface CardDef {
  id: string;
  ownerUri: string;
  title: string;
  hint?: string | null;
  deprecated?: boolean;
  args?: CardArg[];
  tokens?: TokenDef[];
  droptoken?: TokenType[] | null;
  duration?: boolean;
  uriObj?: { type: string; id: string; name: string };
}

/** A global flow token as `GET /flowtoken` lists it (`id` is `<owner uri>|<token id>`). */
export interface GlobalToken {
  id: string;
  ownerUri: string;
  title: string;
  type: TokenType;
  uriObj?: { type: string; id: string; name: string };
}

export interface Delay {
  number: string;
  multiplier: 1 | 60;
}

export interface DraftCard {
  /** The editor's own key for the card (stable while editing; never sent). */
  key: string;
  type: CardType;
  uri: string;
  id: string;
  args: Record<string, unknown>;
  droptoken: string | null;
  group?: ConditionGroup | ActionGroup;
  inverted?: boolean;
  delay?: Delay | null;
  duration?: Delay | null;
}

export interface Draft {
  name: string;
  folder: string | null;
  trigger: DraftCard | null;
  conditions: DraftCard[];
  /** Then and else actions in one list, in the order they are sent (refusals name them by that index). */
  actions: DraftCard[];
}

/** A stored flow as `GET /flow/:id` answers it. */
export interface WireFlow {
  id: string;
  name: string;
  folder: string | null;
  broken?: boolean;
  trigger: WireCard;
  conditions: (WireCard & { group?: string; inverted?: boolean })[];
  actions: (WireCard & { group?: string; delay?: Delay | null; duration?: Delay | null })[];
}
/** A card as a flow answers it: the owner `uri` and the card's own `id`, a fully qualified `id` alone, or both. */
interface WireCard {
  uri?: string;
  id: string;
  args?: Record<string, unknown>;
  droptoken?: string | null;
}

let nextKey = 1;
const newKey = () => `c${nextKey++}`;

/**
 * The owner uri and the card's own id, however a flow names the card: `{uri, id}` (Hearth's clients), a fully
 * qualified `id` `<owner uri>:<card id>` alone (the ecosystem's clients), or both together.
 */
export function ownedCard(uri: string | undefined, id: string): { uri: string; id: string } {
  if (uri) return { uri, id: id.startsWith(`${uri}:`) ? id.slice(uri.length + 1) : id };
  const split = id.lastIndexOf(':');
  return id.startsWith('homey:') && split > 0 ? { uri: id.slice(0, split), id: id.slice(split + 1) } : { uri: '', id };
}

export const cardKeyOf = (card: { uri?: string; id: string }) => {
  const owned = ownedCard(card.uri, card.id);
  return `${owned.uri}:${owned.id}`;
};

export const emptyDraft = (): Draft => ({ name: '', folder: null, trigger: null, conditions: [], actions: [] });

export function fromFlow(flow: WireFlow): Draft {
  const card = (type: CardType, wire: WireCard): DraftCard => ({
    key: newKey(),
    type,
    ...ownedCard(wire.uri, wire.id),
    args: { ...(wire.args ?? {}) },
    droptoken: wire.droptoken ?? null,
  });
  return {
    name: flow.name,
    folder: flow.folder ?? null,
    trigger: card('trigger', flow.trigger),
    conditions: flow.conditions.map((c) => ({
      ...card('condition', c),
      group: (CONDITION_GROUPS as readonly string[]).includes(c.group ?? '') ? (c.group as ConditionGroup) : 'group1',
      inverted: c.inverted === true,
    })),
    actions: flow.actions.map((a) => ({
      ...card('action', a),
      group: a.group === 'else' ? 'else' : 'then',
      delay: a.delay ?? null,
      duration: a.duration ?? null,
    })),
  };
}

/** The value an argument starts with when its card is added: what a person would otherwise have to pick first. */
function initialArg(arg: CardArg): unknown {
  if (arg.type === 'checkbox') return false;
  if (arg.type === 'dropdown') return arg.values?.[0]?.id;
  if (arg.type === 'range') return arg.min ?? 0;
  if (arg.type === 'color') return '#ffffff';
  return undefined;
}

export function newCard(type: CardType, def: CardDef, group?: ConditionGroup | ActionGroup): DraftCard {
  const args: Record<string, unknown> = {};
  for (const arg of def.args ?? []) {
    const value = initialArg(arg);
    if (value !== undefined) args[arg.name] = value;
  }
  // A listed card's id is `<owner uri>:<card id>`.
  const id = def.id.startsWith(`${def.ownerUri}:`) ? def.id.slice(def.ownerUri.length + 1) : def.id;
  const card: DraftCard = { key: newKey(), type, uri: def.ownerUri, id, args, droptoken: null };
  if (type === 'condition') return { ...card, group: group ?? 'group1', inverted: false };
  if (type === 'action') return { ...card, group: group ?? 'then', delay: null, duration: null };
  return card;
}

/** The body of `createFlow`/`updateFlow` (only with a trigger: without one there is no flow to send). */
export function toBody(draft: Draft & { trigger: DraftCard }): FlowCreateBody {
  const base = (card: DraftCard) => ({ uri: card.uri, id: card.id, args: card.args, droptoken: card.droptoken });
  return {
    name: draft.name.trim(),
    folder: draft.folder,
    trigger: base(draft.trigger),
    conditions: draft.conditions.map((c) => ({
      ...base(c),
      group: c.group as ConditionGroup,
      inverted: c.inverted === true,
    })),
    actions: draft.actions.map((a) => ({
      ...base(a),
      group: a.group as ActionGroup,
      delay: a.delay ?? null,
      duration: a.duration ?? null,
    })),
  };
}

/** Where an editor's error goes: the flow's name or folder, a card, or one field of a card. */
export type ErrorKey = string;
export const nameKey = 'name';
export const folderKey = 'folder';
export const triggerSlotKey = 'trigger';
export const cardErrorKey = (card: DraftCard) => `card:${card.key}`;
export const fieldErrorKey = (card: DraftCard, field: string) => `card:${card.key}:${field}`;

/** The element id of a card's field (`arg.<name>`, `delay`, `duration`, `group`, `droptoken`), for focus and labels. */
export const fieldId = (card: DraftCard, field: string) => `card-${card.key}-${field.replace(/[^a-z0-9_-]/gi, '-')}`;

/**
 * The hub's refusal of a flow names what it refuses first (`Invalid Parameter: actions.1.delay.number. …`,
 * `Invalid Parameter Type: …`, `Missing Parameter: name`). This finds the field or card the person should look at;
 * `null` when the message names nothing the editor shows (it then stands above the save button).
 */
export function refusalTarget(draft: Draft, message: string): { key: ErrorKey; reason: string } | null {
  const found = /^(?:Invalid Parameter(?: Type)?|Missing Parameter): ([\w.]+?)\.?(?:\s|$)(.*)$/s.exec(message);
  if (!found) return null;
  const [path = '', rest = ''] = [found[1], found[2]];
  const parts = path.split('.');
  const reason = rest.trim() || message;
  if (parts[0] === 'flow') parts.shift();
  const [head, second, third, fourth] = parts;
  if (head === 'name') return { key: nameKey, reason };
  if (head === 'folder') return { key: folderKey, reason };
  let card: DraftCard | null | undefined;
  let rest2: (string | undefined)[];
  if (head === 'trigger') {
    card = draft.trigger;
    rest2 = [second, third];
  } else if (head === 'conditions' || head === 'actions') {
    card = (head === 'conditions' ? draft.conditions : draft.actions)[Number(second)];
    rest2 = [third, fourth];
  } else return null;
  if (!card) return head === 'trigger' ? { key: triggerSlotKey, reason } : null;
  const [field, sub] = rest2;
  if (field === 'delay' || field === 'duration' || field === 'group' || field === 'droptoken')
    return { key: fieldErrorKey(card, field), reason };
  if (field === 'args' && sub) return { key: fieldErrorKey(card, `arg.${sub}`), reason };
  return { key: cardErrorKey(card), reason };
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const ONLY_TOKEN = /^\[\[[^\]]+\]\]$/;
const REFERENCE = /\[\[([^\]]+)\]\]/g;

/** Every `[[token]]` reference an argument value holds. */
export function tokenReferences(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') for (const match of value.matchAll(REFERENCE)) found.push(match[1] as string);
  else if (Array.isArray(value)) for (const item of value) tokenReferences(item, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) tokenReferences(item, found);
  return found;
}

/** An argument's value as the editor keeps a number field: a number, or text holding one token reference. */
export function numberFieldValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return NUMBER.test(trimmed) ? Number(trimmed) : text;
}

export interface Problems {
  missingArgument: string;
  notANumber: string;
  atLeast: (min: number) => string;
  atMost: (max: number) => string;
  notADelay: string;
  nameRequired: string;
  triggerRequired: string;
  tooManyCards: string;
}

/**
 * What the hub would refuse, or refuse when the flow runs, checked before anything is sent: the name, a trigger,
 * each declared argument that is required (and numbers within their bounds), delays and durations as numbers of
 * 0 or more. Cards the hub no longer lists are not checked here: they are marked broken instead.
 */
export function draftProblems(
  draft: Draft,
  cardDef: (card: DraftCard) => CardDef | undefined,
  words: Problems,
): Map<ErrorKey, string> {
  const problems = new Map<ErrorKey, string>();
  if (!draft.name.trim()) problems.set(nameKey, words.nameRequired);
  if (!draft.trigger) problems.set(triggerSlotKey, words.triggerRequired);
  if (draft.conditions.length > 100 || draft.actions.length > 100) problems.set(triggerSlotKey, words.tooManyCards);
  const cards = [...(draft.trigger ? [draft.trigger] : []), ...draft.conditions, ...draft.actions];
  for (const card of cards) {
    const def = cardDef(card);
    for (const arg of def?.args ?? []) {
      const value = card.args[arg.name];
      const key = fieldErrorKey(card, `arg.${arg.name}`);
      if (value === undefined || value === null || value === '') {
        if (arg.required !== false) problems.set(key, words.missingArgument);
        continue;
      }
      if (arg.type === 'number' || arg.type === 'range') {
        if (typeof value === 'string') {
          if (!ONLY_TOKEN.test(value.trim())) problems.set(key, words.notANumber);
        } else if (typeof value !== 'number' || !Number.isFinite(value)) problems.set(key, words.notANumber);
        else if (arg.min !== undefined && value < arg.min) problems.set(key, words.atLeast(arg.min));
        else if (arg.max !== undefined && value > arg.max) problems.set(key, words.atMost(arg.max));
      }
    }
    for (const field of ['delay', 'duration'] as const) {
      const delay = card[field];
      if (!delay) continue;
      const number = Number(delay.number);
      if (!NUMBER.test(delay.number.trim()) || !Number.isFinite(number) || number < 0)
        problems.set(fieldErrorKey(card, field), words.notADelay);
    }
  }
  return problems;
}

/**
 * Why a card is broken, as the hub decides it: a card it no longer lists, or a token the card uses that is gone
 * (a reference with `|` names a global token; one without, a token of the flow's trigger).
 */
export function brokenTokens(card: DraftCard, triggerTokens: readonly TokenDef[], globals: ReadonlyMap<string, GlobalToken>) {
  const references = tokenReferences(card.args);
  if (card.droptoken) references.push(card.droptoken);
  return references.filter((reference) =>
    reference.includes('|')
      ? !globals.has(reference)
      : !triggerTokens.some((token) => token.id === reference.replace(/^trigger::/, '')),
  );
}

/** Which devices a `device` argument's filter (`class=socket|light&capabilities=onoff`) lets through. */
export function deviceFilter(filter: string | undefined): (device: { class?: string; capabilities?: string[] }) => boolean {
  if (!filter) return () => true;
  const rules = new URLSearchParams(filter);
  return (device) => {
    for (const [key, wanted] of rules) {
      const options = wanted.split('|');
      if (key === 'class' && !options.includes(device.class ?? '')) return false;
      if (key === 'capabilities' && !options.every((c) => (device.capabilities ?? []).includes(c))) return false;
    }
    return true;
  };
}

/** A `date` argument is `dd-mm-yyyy` on the wire and `yyyy-mm-dd` in a date field. */
export const dateToField = (value: unknown) => {
  const match = typeof value === 'string' ? /^(\d{2})-(\d{2})-(\d{4})$/.exec(value) : null;
  return match ? `${match[3]}-${match[2]}-${match[1]}` : '';
};
export const dateFromField = (value: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : undefined;
};

/** Inserts `[[reference]]` into `text` between `start` and `end` (a selection is replaced). */
export function insertToken(text: string, reference: string, start: number, end: number): { text: string; caret: number } {
  const token = `[[${reference}]]`;
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}

/** Which token types an argument takes: a number field numbers, a checkbox yes/no, text anything. */
export function tokenTypesFor(arg: Pick<CardArg, 'type'>): readonly TokenType[] {
  if (arg.type === 'number' || arg.type === 'range') return ['number'];
  if (arg.type === 'checkbox') return ['boolean'];
  return ['string', 'number', 'boolean'];
}
