import { Emitter } from '../core/emitter';
import { APIError } from '../core/errors';
import type { CapabilityEvent } from './events';
import type { Manager } from './Manager';

/** Seed section 4: a device refresh runs 1000 ms after its trigger, if the device was last updated over 2500 ms ago. */
export const DEVICE_REFRESH = { delay: 1000, staleAfter: 2500 } as const;

export type ItemData = { id: string } & Record<string, unknown>;

/** The key of an item among its kind: its id, or `<ownerUri>:<id>` for items owned by another (flow cards, tokens). */
export function itemKey(type: string, data: { id: string; uri?: unknown }): string {
  return typeof data.uri === 'string' && data.uri !== `homey:${type}:${data.id}` ? `${data.uri}:${data.id}` : data.id;
}

/**
 * An item of a hub manager (device, zone, flow, …): its data as the hub answers it, plus events. Its `uri` is
 * `homey:<type>:<id>`, the URI its own realtime events use, unless the hub gives the item an owner `uri` (flow
 * cards and tokens); its `key` is then the owner URI plus the id, colon separated.
 *
 * Events: `update` (the item after a change), `delete`; devices also `capability`.
 */
export class Item extends Emitter {
  declare readonly id: string;
  readonly #manager: Manager;
  readonly #type: string;
  /** Epoch ms of the last data this item received. */
  lastUpdated = Date.now();

  declare uri: string;

  constructor(manager: Manager, type: string, data: ItemData) {
    super();
    this.#manager = manager;
    this.#type = type;
    Object.assign(this, data);
    this.uri ??= `homey:${type}:${data.id}`;
  }

  /** The item's type in URIs: `device`, `zone`, `flow`, … */
  get itemType(): string {
    return this.#type;
  }

  /** The item's key among its kind: `id`, or `<ownerUri>:<id>`. */
  get key(): string {
    return itemKey(this.#type, this);
  }

  get manager(): Manager {
    return this.#manager;
  }

  /** Replaces the item's data with fresh data from the hub and emits `update`. */
  update(data: ItemData): this {
    for (const key of Object.keys(this))
      if (!(key in data) && key !== 'lastUpdated') delete (this as Record<string, unknown>)[key];
    Object.assign(this, data);
    this.uri ??= `homey:${this.#type}:${data.id}`;
    this.lastUpdated = Date.now();
    this.emit('update', this);
    return this;
  }

  /** The item's data without the library's additions. */
  toJSON(): ItemData {
    const { lastUpdated: _, ...data } = this as unknown as Record<string, unknown>;
    return data as ItemData;
  }
}

interface CapabilityState {
  value?: unknown;
  lastUpdated?: string | number;
  [key: string]: unknown;
}

/** A device's events: `capability` (as the contract declares it), `update` and `delete` with the device. */
export interface Device {
  on(event: 'capability', listener: (event: CapabilityEvent) => void): this;
  on(event: 'update' | 'delete', listener: (device: this) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  off(event: 'capability', listener?: (event: CapabilityEvent) => void): this;
  off(event: string, listener?: (...args: never[]) => void): this;
}

/** A device: capability values kept current from its realtime `capability` events. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only types the events the class emits
export class Device extends Item {
  declare capabilitiesObj?: Record<string, CapabilityState>;
  #unsubscribe: (() => void) | null = null;
  #refreshTimer: ReturnType<typeof setTimeout> | null = null;

  /** Subscribes to `homey:device:<id>`: capability values update in place and emit `capability`. */
  async connect(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = await this.manager.hub.realtime.subscribe(`homey:device:${this.id}`, (event, data) =>
      this.handleEvent(event, data),
    );
  }

  disconnect(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#refreshTimer) clearTimeout(this.#refreshTimer);
    this.#refreshTimer = null;
  }

  /** @internal Applies one event of the device's own URI. */
  handleEvent(event: string, data: unknown): void {
    if (event === 'capability') {
      const { capabilityId, value, transactionTime } = data as CapabilityEvent;
      const state = this.capabilitiesObj?.[capabilityId];
      if (state) {
        state.value = value;
        state.lastUpdated = transactionTime ?? Date.now();
      } else {
        // A capability we do not know: our copy is out of date.
        this.scheduleRefresh();
      }
      this.emit('capability', data);
    } else if (event === 'update') {
      this.update(data as ItemData);
    } else if (event === 'delete') {
      this.emit('delete', this);
    }
  }

  /**
   * Fetches the device again 1000 ms from now, unless it was updated in the last 2500 ms or a refresh is
   * already scheduled: a burst of triggers costs one request.
   */
  scheduleRefresh(): boolean {
    if (this.#refreshTimer || Date.now() - this.lastUpdated <= DEVICE_REFRESH.staleAfter) return false;
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = null;
      this.manager
        .fetchItem(this.itemType, this.id)
        .then((data) => this.update(data))
        .catch((error: Error) => this.emit('error', error));
    }, DEVICE_REFRESH.delay);
    return true;
  }

  /**
   * Calls `listener` with each new value of one capability, and sets it. Connects the device to realtime.
   */
  makeCapabilityInstance(capabilityId: string, listener: (value: unknown) => void): CapabilityInstance {
    return new CapabilityInstance(this, capabilityId, listener);
  }

  /** Sets one capability through the device's driver (`devices.setCapabilityValue`); answers once it confirmed. */
  async setCapabilityValue(capabilityId: string, value: unknown, opts?: object): Promise<void> {
    await call(this, 'setCapabilityValue', { deviceId: this.id, capabilityId, value, ...(opts ? { opts } : {}) });
  }
}

/** Calls an operation of the item's manager by name: the thin item methods below are these calls. */
function call(item: Item, operation: string, args: object): Promise<unknown> {
  const method = (item.manager as unknown as Record<string, ((args: object) => Promise<unknown>) | undefined>)[operation];
  if (typeof method !== 'function') throw new APIError(`Not Supported: ${operation}`, 400, 'not_supported');
  return method.call(item.manager, args);
}

/** One capability of a device, followed live. */
export class CapabilityInstance {
  readonly #device: Device;
  readonly #onCapability: (event: CapabilityEvent) => void;

  constructor(
    device: Device,
    readonly id: string,
    listener: (value: unknown) => void,
  ) {
    this.#device = device;
    this.#onCapability = (event) => {
      if (event.capabilityId === id) listener(event.value);
    };
    device.on('capability', this.#onCapability);
    void device.connect().catch((error: Error) => device.emit('error', error));
  }

  get value(): unknown {
    return this.#device.capabilitiesObj?.[this.id]?.value;
  }

  async setValue(value: unknown, opts?: object): Promise<void> {
    const devices = this.#device.manager as unknown as {
      setCapabilityValue(args: { deviceId: string; capabilityId: string; value: unknown; opts?: object }): Promise<unknown>;
    };
    await devices.setCapabilityValue({ deviceId: this.#device.id, capabilityId: this.id, value, opts });
  }

  destroy(): void {
    this.#device.off('capability', this.#onCapability);
  }
}

/** A card a flow uses: `uri` (or `ownerUri` in advanced flows) and `id`, with arguments that may use tokens. */
interface CardRef {
  id?: string;
  uri?: string;
  ownerUri?: string;
  type?: string;
  args?: Record<string, unknown>;
  droptoken?: string | null;
}

/** A card as the hub lists it (`id` alone or already `<ownerUri>:<id>`); trigger cards name the tokens they give. */
export interface KnownCard {
  id: string;
  ownerUri?: string;
  uri?: string;
  tokens?: { id: string }[];
}

/** Every `[[token]]` reference inside a card's arguments, however deep. */
function tokenReferences(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') for (const match of value.matchAll(/\[\[([^\]]+)\]\]/g)) found.push(match[1] as string);
  else if (Array.isArray(value)) for (const item of value) tokenReferences(item, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) tokenReferences(item, found);
  return found;
}

/** `<ownerUri>:<id>`, however the card spells it. */
const cardKey = (owner: string | undefined, id: string | undefined): string =>
  owner && id && !id.startsWith(`${owner}:`) ? `${owner}:${id}` : (id ?? '');

/**
 * Seed section 4: a flow (or advanced flow) is broken when a card it uses no longer exists, or a token its
 * cards use no longer exists. Tokens are `<uri>|<id>` (the hub's flow tokens), or the id of a token its own
 * trigger card gives (optionally written `trigger::<id>`).
 */
export function isFlowBroken(
  flow: { trigger?: CardRef; conditions?: CardRef[]; actions?: CardRef[]; cards?: Record<string, CardRef> },
  cards: Iterable<KnownCard>,
  tokens: Iterable<{ id: string }>,
): boolean {
  const known = new Map<string, KnownCard>();
  for (const card of cards) known.set(cardKey(card.ownerUri ?? card.uri, card.id), card);
  const knownTokens = new Set([...tokens].map((token) => token.id));
  const advancedCards = Object.values(flow.cards ?? {}).filter((card) => card.id);
  const triggers = flow.trigger ? [flow.trigger] : advancedCards.filter((card) => card.type === 'trigger');
  const used = [...(flow.trigger ? [flow.trigger] : []), ...(flow.conditions ?? []), ...(flow.actions ?? []), ...advancedCards];
  const localTokens = new Set(
    triggers.flatMap((card) => known.get(cardKey(card.uri ?? card.ownerUri, card.id))?.tokens ?? []).map((token) => token.id),
  );
  for (const card of used) {
    if (!known.has(cardKey(card.uri ?? card.ownerUri, card.id)) && !known.has(card.id ?? '')) return true;
    const references = tokenReferences(card.args ?? {});
    if (card.droptoken) references.push(card.droptoken);
    for (const reference of references) {
      const local = reference.startsWith('trigger::') ? reference.slice('trigger::'.length) : reference;
      if (!(reference.includes('|') ? knownTokens.has(reference) : localTokens.has(local))) return true;
    }
  }
  return false;
}

/** Starts a flow now, with the state (tokens) its trigger would give; answers the run's trace. */
export type StartFlow = (state?: Record<string, unknown>) => Promise<unknown>;

/**
 * A standard flow's data has a `trigger` (its trigger card) and people call `flow.trigger()` to start it: the one
 * name is both. The card is kept here (the item's constructor sets it before the class's own fields exist) and
 * `trigger` reads as a function that starts the flow and carries the card's fields (`flow.trigger.uri`).
 */
const triggerCards = new WeakMap<Flow, { card: unknown; start: StartFlow & Partial<CardRef> }>();

/** `Flow` or `AdvancedFlow`, as the manager's operations name them. */
const flowKind = (flow: Item) => (flow.itemType === 'advancedflow' ? 'AdvancedFlow' : 'Flow');
/** `triggerFlow` / `triggerAdvancedFlow` of this flow (a function made before the flow's own fields exist). */
const starter =
  (flow: Item): StartFlow =>
  (state) =>
    call(flow, `trigger${flowKind(flow)}`, { id: flow.id, ...(state ? { state } : {}) });

/** A flow (also advanced flows): started, switched on and off, and knows whether it is broken. */
export class Flow extends Item {
  declare enabled?: boolean;

  /** Starts the flow now (`triggerFlow` / `triggerAdvancedFlow`); a standard flow's trigger card's fields are on it. */
  get trigger(): StartFlow & Partial<CardRef> {
    const kept = triggerCards.get(this);
    if (kept) return kept.start;
    const start = starter(this);
    triggerCards.set(this, { card: undefined, start });
    return start;
  }

  set trigger(card: unknown) {
    const start = starter(this);
    if (card && typeof card === 'object')
      for (const [key, value] of Object.entries(card))
        Object.defineProperty(start, key, { value, enumerable: true, writable: true, configurable: true });
    triggerCards.set(this, { card, start });
  }

  override update(data: ItemData): this {
    if (!('trigger' in data)) triggerCards.delete(this);
    return super.update(data);
  }

  override toJSON(): ItemData {
    const card = triggerCards.get(this)?.card;
    return card === undefined ? super.toJSON() : { ...super.toJSON(), trigger: card };
  }

  /** Switches the flow on. */
  async enable(): Promise<void> {
    await call(this, `update${flowKind(this)}`, {
      id: this.id,
      [flowKind(this) === 'Flow' ? 'flow' : 'advancedflow']: { enabled: true },
    });
  }

  /** Switches the flow off. */
  async disable(): Promise<void> {
    await call(this, `update${flowKind(this)}`, {
      id: this.id,
      [flowKind(this) === 'Flow' ? 'flow' : 'advancedflow']: { enabled: false },
    });
  }

  /** Whether a card or a token this flow uses is missing, judged against the hub's current cards and tokens. */
  async isBroken(): Promise<boolean> {
    const hub = this.manager.hub;
    const flow = hub.manager('flow');
    const cards: KnownCard[] = [];
    for (const kind of ['Trigger', 'Condition', 'Action']) {
      const list = flow?.[`getFlowCard${kind}s`];
      if (typeof list === 'function') cards.push(...Object.values((await list()) as Record<string, KnownCard>));
    }
    const flowToken = hub.manager('flowtoken');
    const tokens =
      typeof flowToken?.getFlowTokens === 'function'
        ? Object.values((await flowToken.getFlowTokens()) as Record<string, { id: string }>)
        : [];
    return isFlowBroken(this as never, cards, tokens);
  }
}

/** The class of each item type; others are plain {@link Item}s. */
export const itemClasses: Record<string, typeof Item> = { device: Device, flow: Flow, advancedflow: Flow };
