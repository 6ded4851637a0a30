import { Emitter } from '../core/emitter';
import type { Manager } from './Manager';

/** Seed section 4: a device refresh runs 1000 ms after its trigger, if the device was last updated over 2500 ms ago. */
export const DEVICE_REFRESH = { delay: 1000, staleAfter: 2500 } as const;

export type ItemData = { id: string } & Record<string, unknown>;

/**
 * An item of a hub manager (device, zone, flow, …): its data as the hub answers it, plus events. Its `uri` is
 * the owner URI plus the id, colon separated (`homey:device:<id>`), the URI its own realtime events use.
 *
 * Events: `update` (the item after a change), `delete`; devices also `capability`.
 */
export class Item extends Emitter {
  declare readonly id: string;
  readonly #manager: Manager;
  readonly #type: string;
  /** Epoch ms of the last data this item received. */
  lastUpdated = Date.now();

  constructor(manager: Manager, type: string, data: ItemData) {
    super();
    this.#manager = manager;
    this.#type = type;
    Object.assign(this, data);
  }

  /** The item's type in URIs: `device`, `zone`, `flow`, … */
  get itemType(): string {
    return this.#type;
  }

  /** `homey:<type>:<id>`: the item's realtime URI and its id across the whole hub. */
  get uri(): string {
    return `homey:${this.#type}:${this.id}`;
  }

  get manager(): Manager {
    return this.#manager;
  }

  /** Replaces the item's data with fresh data from the hub and emits `update`. */
  update(data: ItemData): this {
    for (const key of Object.keys(this))
      if (!(key in data) && key !== 'lastUpdated') delete (this as Record<string, unknown>)[key];
    Object.assign(this, data);
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

/** A capability event on `homey:device:<id>`. */
export interface CapabilityEvent {
  capabilityId: string;
  value: unknown;
  transactionId?: string;
  transactionTime?: number;
}

/** A device: capability values kept current from its realtime `capability` events. */
export class Device extends Item {
  declare capabilitiesObj?: Record<string, CapabilityState>;
  #unsubscribe: (() => void) | null = null;
  #refreshTimer: ReturnType<typeof setTimeout> | null = null;

  /** Subscribes to `homey:device:<id>`: capability values update in place and emit `capability`. */
  async connect(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = await this.manager.hub.realtime.subscribe(this.uri, (event, data) => this.handleEvent(event, data));
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

/** A flow card reference inside a flow. */
interface CardRef {
  id?: string;
  uri?: string;
  args?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Tokens (`[[homey:device:abc|measure_temperature]]`) a card's arguments refer to. */
export function tokensOf(card: CardRef): string[] {
  const found: string[] = [];
  const text = JSON.stringify(card.args ?? {});
  for (const match of text.matchAll(/\[\[([^\]]+)\]\]/g)) found.push(match[1] as string);
  return found;
}

/** The full id of a card: `<ownerUri>:<id>` unless it is one already. */
const cardKey = (card: CardRef): string | undefined =>
  card.id === undefined ? undefined : card.uri && !card.id.startsWith(`${card.uri}:`) ? `${card.uri}:${card.id}` : card.id;

/**
 * Seed section 4: a flow is broken when one of its cards no longer exists, or when a card's arguments use a
 * token that no longer exists. `cards` and `tokens` are the ids (`ownerUri:id`) the hub has now.
 */
export function isFlowBroken(
  flow: { trigger?: CardRef; conditions?: CardRef[]; actions?: CardRef[]; cards?: Record<string, CardRef> },
  cards: Iterable<string>,
  tokens: Iterable<string>,
): boolean {
  const knownCards = new Set(cards);
  const knownTokens = new Set(tokens);
  const used = [
    ...(flow.trigger ? [flow.trigger] : []),
    ...(flow.conditions ?? []),
    ...(flow.actions ?? []),
    ...Object.values(flow.cards ?? {}),
  ];
  for (const card of used) {
    const key = cardKey(card);
    if (key !== undefined && !knownCards.has(key) && !(card.id && knownCards.has(card.id))) return true;
    for (const token of tokensOf(card)) {
      const [owner, id] = token.split('|');
      if (!knownTokens.has(token) && !knownTokens.has(`${owner}:${id}`)) return true;
    }
  }
  return false;
}

/** A flow (also advanced flows): knows whether it is broken. */
export class Flow extends Item {
  /** Whether a card or a token this flow uses is missing, judged against the hub's current cards and tokens. */
  async isBroken(): Promise<boolean> {
    const hub = this.manager.hub;
    const cards: string[] = [];
    const flow = hub.manager('flow');
    for (const kind of ['Trigger', 'Condition', 'Action']) {
      const list = flow?.[`getFlowCard${kind}s`];
      if (typeof list !== 'function') continue;
      const answer = (await list()) as Record<string, CardRef> | CardRef[];
      for (const card of Object.values(answer)) {
        const key = cardKey(card);
        if (key) cards.push(key);
      }
    }
    const tokens: string[] = [];
    const flowToken = hub.manager('flowtoken');
    if (typeof flowToken?.getFlowTokens === 'function') {
      const answer = (await flowToken.getFlowTokens()) as Record<string, CardRef> | CardRef[];
      for (const token of Object.values(answer)) {
        const key = cardKey(token);
        if (key) tokens.push(key);
      }
    }
    return isFlowBroken(this as never, cards, tokens);
  }
}

/** The class of each item type; others are plain {@link Item}s. */
export const itemClasses: Record<string, typeof Item> = { device: Device, flow: Flow, advancedflow: Flow };
