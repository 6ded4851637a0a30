import type { ChangeSource } from '../../core/bus';

export type FlowCardType = 'trigger' | 'condition' | 'action';
export type FlowTokenType = 'string' | 'number' | 'boolean' | 'image';

export interface FlowCardTokenDefinition {
  id: string;
  title: string;
  hint?: string;
  type: FlowTokenType;
  example?: string | number | boolean;
}

export interface FlowCardArgDefinition {
  name: string;
  type: string;
  title?: string;
  placeholder?: string;
  values?: { id: string; title: string }[];
  /** Bounds of a `number` or `range` argument. */
  min?: number;
  max?: number;
  step?: number;
  /** Which devices a `device` argument accepts, e.g. `class=socket|light` or `capabilities=onoff`. */
  filter?: string;
  /** An argument that may be left empty. */
  required?: boolean;
}

/** One flow card a part of the hub (a manager now, apps later) offers. */
export interface FlowCardDefinition {
  type: FlowCardType;
  /** Owner uri, e.g. `homey:manager:flow` or `homey:app:com.example`. */
  uri: string;
  id: string;
  title: string;
  hint?: string;
  highlight?: boolean;
  deprecated?: boolean;
  advanced?: boolean;
  /** Token types this card accepts as a drop token, or `null`. */
  droptoken?: FlowTokenType[] | null;
  /** Whether an action card accepts a duration. */
  duration?: boolean;
  args?: FlowCardArgDefinition[];
  /** Tokens a trigger or action card provides to the cards after it. */
  tokens?: FlowCardTokenDefinition[];
  /**
   * Runs an action (answers its result tokens), a condition (answers true/false), or, for a trigger, decides
   * whether a flow with these `args` runs for the firing described by `state` (answers true/false; a trigger
   * without `run` starts every flow using it).
   */
  run?: (input: {
    args: Record<string, unknown>;
    tokens: Record<string, unknown>;
    state: Record<string, unknown>;
    /** The value of the card's drop token, when it has one. */
    droptoken?: unknown;
    /** An action's duration in milliseconds, when the flow gives one. */
    duration?: number;
    /** Who runs the card: the flow's run, for the changes it makes. */
    source?: ChangeSource;
  }) => Promise<unknown> | unknown;
  /**
   * Why the card's arguments no longer make sense (the variable or zone they name is gone), or `null`: a flow
   * with such a card is broken.
   */
  argProblem?: (args: Record<string, unknown>) => string | null;
  /** Suggestions for an autocomplete argument. */
  autocomplete?: (input: { name: string; query: string; args: Record<string, unknown> }) => Promise<unknown[]> | unknown[];
}

/** A card as flows name it: its type, owner uri and id. */
export interface FlowCardRef {
  readonly type: FlowCardType;
  readonly uri: string;
  readonly id: string;
}

/** A value a flow can use: a variable, a device capability, an app's token. */
export interface FlowTokenEntry {
  uri: string;
  id: string;
  title: string;
  type: FlowTokenType;
  value: string | number | boolean | null;
}

export interface FlowTokenProvider {
  uri: string;
  list(): FlowTokenEntry[];
}

/**
 * Cards that belong to many owners of one kind, made on demand instead of registered one by one: the device
 * cards of every device (`homey:device:<id>`) come from the devices' capabilities.
 */
export interface FlowCardProvider {
  /** The owner uris it answers for start with this, e.g. `homey:device:`. */
  readonly uriPrefix: string;
  card(type: FlowCardType, uri: string, id: string): FlowCardDefinition | undefined;
  list(type: FlowCardType): FlowCardDefinition[];
  /**
   * The card (and its arguments) that replaces a retired card id of this owner, where there is one the owner
   * offers, for the once-over of stored flows; `null` when the card stays as it is.
   */
  replacement?(type: FlowCardType, uri: string, id: string, args: Record<string, unknown>): CardReplacement | null;
  /** The name a person knows the owner by (a device's name), for traces. */
  ownerName?(uri: string): string | undefined;
}

/** A card id and its arguments that replace a retired card in a stored flow. */
export interface CardReplacement {
  readonly id: string;
  readonly args: Record<string, unknown>;
}

/** A trigger card fired: the flows using it (whose trigger agrees, see `FlowCardDefinition.run`) run. */
export interface FlowTriggerEvent {
  readonly uri: string;
  readonly id: string;
  /** The trigger's local tokens, by id. */
  readonly tokens: Readonly<Record<string, unknown>>;
  /** What happened, for the trigger's `run` to compare with each flow's arguments. */
  readonly state: Readonly<Record<string, unknown>>;
  /** Who caused it (a flow's run, for the loop guard), when known. */
  readonly source: ChangeSource | null;
  /** Decides per flow instead of the card's `run` (an app's run listener). */
  readonly matches?: (args: Record<string, unknown>) => Promise<boolean> | boolean;
}

const cardKey = (type: FlowCardType, uri: string, id: string) => `${type}\u0000${uri}\u0000${id}`;

/**
 * The flow cards and tokens known to one hub. It starts with the hub's own cards; apps register theirs when
 * they start and unregister them when they stop (each `register` answers its undo), so a card that goes away
 * makes the flows using it broken. Listeners hear of every change of cards or tokens.
 */
export class FlowRegistry {
  private readonly cards = new Map<string, FlowCardDefinition>();
  private readonly providers = new Set<FlowTokenProvider>();
  private readonly cardProviders = new Set<FlowCardProvider>();
  private readonly listeners = new Set<() => void>();
  private readonly triggerListeners = new Set<(event: FlowTriggerEvent) => void>();
  private changeScheduled = false;

  /**
   * Calls `listener` after cards or tokens changed, once per turn of the event loop however many changed in it
   * (an app registers all its cards at once). Answers its undo.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Schedules the listeners. Registering and unregistering call it; a token provider calls it when one of its
   * tokens appeared or disappeared (a variable created or deleted).
   */
  changed(): void {
    this.#version += 1;
    if (this.changeScheduled) return;
    this.changeScheduled = true;
    setImmediate(() => {
      this.changeScheduled = false;
      for (const listener of this.listeners) listener();
    });
  }

  #version = 0;

  /** Moves on with every change of cards or tokens (at once, before listeners hear of it): caches compare it. */
  get version(): number {
    return this.#version;
  }

  registerCard(card: FlowCardDefinition): () => void {
    const key = cardKey(card.type, card.uri, card.id);
    this.cards.set(key, card);
    this.changed();
    return () => {
      if (this.cards.get(key) !== card) return;
      this.cards.delete(key);
      this.changed();
    };
  }

  card(type: FlowCardType, uri: string, id: string): FlowCardDefinition | undefined {
    const registered = this.cards.get(cardKey(type, uri, id));
    if (registered) return registered;
    for (const provider of this.cardProviders) if (uri.startsWith(provider.uriPrefix)) return provider.card(type, uri, id);
    return undefined;
  }

  /** What replaces a retired card in a stored flow (see {@link FlowCardProvider.replacement}), or `null`. */
  replacement(type: FlowCardType, uri: string, id: string, args: Record<string, unknown>): CardReplacement | null {
    for (const provider of this.cardProviders)
      if (uri.startsWith(provider.uriPrefix)) return provider.replacement?.(type, uri, id, args) ?? null;
    return null;
  }

  /** The name of a card's owner as its provider knows it (a device's name), for traces; `undefined` if none does. */
  ownerName(uri: string): string | undefined {
    for (const provider of this.cardProviders) if (uri.startsWith(provider.uriPrefix)) return provider.ownerName?.(uri);
    return undefined;
  }

  listCards(type: FlowCardType): FlowCardDefinition[] {
    return [
      ...[...this.cards.values()].filter((c) => c.type === type),
      ...[...this.cardProviders].flatMap((provider) => provider.list(type)),
    ];
  }

  /** Adds cards made on demand (see {@link FlowCardProvider}); answers the undo. */
  registerCardProvider(provider: FlowCardProvider): () => void {
    this.cardProviders.add(provider);
    this.changed();
    return () => {
      if (this.cardProviders.delete(provider)) this.changed();
    };
  }

  #usage: ((type: FlowCardType, uri: string, id: string) => Record<string, unknown>[]) | null = null;
  readonly #usageListeners = new Set<(cards: readonly FlowCardRef[]) => void>();

  /** The flow manager answers which flows use a card (see {@link argumentValues}); answers the undo. */
  serveUsage(lookup: (type: FlowCardType, uri: string, id: string) => Record<string, unknown>[]): () => void {
    this.#usage = lookup;
    return () => {
      if (this.#usage === lookup) this.#usage = null;
    };
  }

  /** The arguments of every flow (and advanced-flow node) using a card, as the flows store them. */
  argumentValues(type: FlowCardType, uri: string, id: string): Record<string, unknown>[] {
    return this.#usage?.(type, uri, id) ?? [];
  }

  /** Tells the listeners that flows using these cards were stored, changed or deleted. */
  usageChanged(cards: readonly FlowCardRef[]): void {
    if (cards.length === 0) return;
    for (const listener of this.#usageListeners) listener(cards);
  }

  /** Hears which cards' flows changed (an app's `FlowCard` emits `update`); answers the undo. */
  onUsageChanged(listener: (cards: readonly FlowCardRef[]) => void): () => void {
    this.#usageListeners.add(listener);
    return () => this.#usageListeners.delete(listener);
  }

  /** Fires a trigger card: the flow engine hears it and runs the flows that use it. */
  fire(event: FlowTriggerEvent): void {
    for (const listener of this.triggerListeners) listener(event);
  }

  /** Hears every trigger fired (the flow engine); answers the undo. */
  onFire(listener: (event: FlowTriggerEvent) => void): () => void {
    this.triggerListeners.add(listener);
    return () => this.triggerListeners.delete(listener);
  }

  registerTokens(provider: FlowTokenProvider): () => void {
    this.providers.add(provider);
    this.changed();
    return () => {
      if (this.providers.delete(provider)) this.changed();
    };
  }

  tokens(): FlowTokenEntry[] {
    return [...this.providers].flatMap((p) => p.list());
  }

  /** A token by its full id `<uri>|<id>`. */
  token(fullId: string): FlowTokenEntry | undefined {
    const split = fullId.lastIndexOf('|');
    if (split < 0) return undefined;
    const uri = fullId.slice(0, split);
    const id = fullId.slice(split + 1);
    for (const provider of this.providers) {
      if (provider.uri !== uri) continue;
      const found = provider.list().find((t) => t.id === id);
      if (found) return found;
    }
    return undefined;
  }
}

/** `{type, id, name}` of an owner uri such as `homey:manager:logic` or `homey:app:com.example`. */
export function uriObject(uri: string): { type: string; id: string; name: string } {
  const [, type = 'unknown', ...rest] = uri.split(':');
  const id = rest.join(':');
  return { type, id, name: id.charAt(0).toUpperCase() + id.slice(1) };
}

/** The wire form of a token: its id carries its owner (`<uri>|<id>`). */
export function tokenToWire(token: FlowTokenEntry) {
  return {
    id: `${token.uri}|${token.id}`,
    ownerUri: token.uri,
    title: token.title,
    type: token.type,
    value: token.value,
    uriObj: uriObject(token.uri),
  };
}

/** Registers several cards at once; answers the undo of them all. */
export function registerCards(registry: FlowRegistry, cards: readonly FlowCardDefinition[]): () => void {
  const undo = cards.map((card) => registry.registerCard(card));
  return () => {
    for (const step of undo) step();
  };
}

/** What an autocomplete argument names: the `id` of the object it answered (or an id given as text). */
export function chosenId(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

/** Autocomplete suggestions: the items whose name holds the query, as `{id, name}` objects. */
export function suggest<T>(items: readonly T[], query: string, toChoice: (item: T) => { id: string; name: string }) {
  const needle = query.trim().toLowerCase();
  return items.map(toChoice).filter((choice) => choice.name.toLowerCase().includes(needle));
}
