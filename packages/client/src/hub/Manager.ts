import type { AnyOperation } from '@hearth/contract';
import { prepareRequest } from '@hearth/contract/client';
import { Emitter } from '../core/emitter';
import type { HubAPI } from './HubAPI';
import { Item, type ItemData, itemClasses, itemKey } from './items';

interface ItemOperations {
  /** Item type in URIs, from the path's first segment: `/device` → `device`. */
  type: string;
  list?: AnyOperation;
  get?: AnyOperation;
}

/** Finds each item type's list (`GET /<type>`) and get (`GET /<type>/:id`) operations in a manager's group. */
function itemOperations(group: Record<string, AnyOperation>): Map<string, ItemOperations> {
  const types = new Map<string, ItemOperations>();
  for (const operation of Object.values(group)) {
    if (operation.method !== 'GET') continue;
    const list = /^\/([a-z]+)$/.exec(operation.path);
    const get = /^\/([a-z]+)\/:id$/.exec(operation.path);
    const type = (list ?? get)?.[1];
    if (!type || type === 'state' || type === 'option') continue;
    const entry = types.get(type) ?? { type };
    if (list && /^get[A-Z]\w*s$/.test(operation.name)) entry.list = operation;
    if (get && /^get[A-Z]\w*$/.test(operation.name)) entry.get = operation;
    types.set(type, entry);
  }
  for (const [type, entry] of types) if (!entry.list) types.delete(type);
  return types;
}

type ListShape = 'map' | 'array';

/**
 * A hub manager: its operations as methods (derived from the contract), and, once connected, a live cache of
 * its items kept fresh by the `<type>.create`, `<type>.update` and `<type>.delete` events of
 * `homey:manager:<name>`. Reads of a connected manager are answered from the cache.
 *
 * Events: `<type>.create`, `<type>.update`, `<type>.delete` with the item; `connect`, `disconnect`.
 */
export class Manager extends Emitter {
  /** `homey:manager:<name>` */
  readonly uri: string;
  readonly #types: Map<string, ItemOperations>;
  readonly #byListOp = new Map<string, ItemOperations>();
  readonly #byGetOp = new Map<string, ItemOperations>();
  readonly #cache = new Map<string, Map<string, Item>>();
  readonly #shape = new Map<string, ListShape>();
  #unsubscribe: (() => void) | null = null;
  #connecting: Promise<void> | null = null;
  /**
   * Keys of the items whose events arrived while their type was being listed. The hub may list before an item
   * changes and answer after it sent the change's event; the socket keeps order, so what those events left in the
   * cache is at least as new as the list's answer.
   */
  readonly #changedWhileListing = new Map<string, Set<string>>();

  constructor(
    readonly hub: HubAPI,
    readonly name: string,
    readonly operations: Record<string, AnyOperation>,
  ) {
    super();
    this.uri = `homey:manager:${name}`;
    this.#types = itemOperations(operations);
    for (const entry of this.#types.values()) {
      if (entry.list) this.#byListOp.set(entry.list.name, entry);
      if (entry.get) this.#byGetOp.set(entry.get.name, entry);
    }
    for (const operation of Object.values(operations)) {
      if (operation.name in this) continue;
      Object.defineProperty(this, operation.name, {
        value: (args?: object) => this.call(operation, args),
        enumerable: false,
      });
    }
  }

  /** Whether this manager follows its realtime events and answers reads from its cache. */
  get isConnected(): boolean {
    return this.#unsubscribe !== null && this.hub.realtime.connected;
  }

  /**
   * Calls one operation: reads from the cache while the manager is connected and its socket is up (never from a
   * cache that may have missed events), else over the socket when it is up, else over HTTP.
   */
  async call(operation: AnyOperation, args?: object): Promise<unknown> {
    const request = prepareRequest(operation, args);
    const list = this.#byListOp.get(operation.name);
    const get = this.#byGetOp.get(operation.name);
    if (this.isConnected && list && this.#cache.has(list.type)) return this.#listFromCache(list.type);
    if (this.isConnected && get) {
      const cached = this.#cache.get(get.type)?.get(String((args as { id?: unknown }).id));
      if (cached) return cached;
    }
    const answer = await this.hub.send(this.name, request, (args ?? {}) as Record<string, unknown>);
    if (list) return this.#fill(list.type, answer);
    const type = get?.type ?? this.#itemTypeOf(operation);
    if (type && answer && typeof answer === 'object' && typeof (answer as ItemData).id === 'string') {
      return this.#upsert(type, answer as ItemData);
    }
    return answer;
  }

  /** Fetches one item from the hub, bypassing the cache (device refresh). */
  async fetchItem(type: string, id: string): Promise<ItemData> {
    const get = this.#types.get(type)?.get;
    if (!get) throw new Error(`Manager ${this.name} cannot get a single ${type}`);
    return (await this.hub.send(this.name, prepareRequest(get, { id }), { id })) as ItemData;
  }

  /** Makes a list's answer the cache of `type`, but for the items `newer` names: the cache keeps its own of those. */
  #fill(type: string, answer: unknown, newer?: ReadonlySet<string>): unknown {
    if (!answer || typeof answer !== 'object') return answer;
    const entries = Array.isArray(answer) ? (answer as ItemData[]) : Object.values(answer as Record<string, ItemData>);
    this.#shape.set(type, Array.isArray(answer) ? 'array' : 'map');
    const cache = new Map<string, Item>();
    const previous = this.#cache.get(type);
    for (const data of entries) {
      if (!data || typeof data.id !== 'string') continue;
      const key = itemKey(type, data);
      const existing = previous?.get(key);
      if (!newer?.has(key)) cache.set(key, existing ? existing.update(data) : this.#create(type, data));
      else if (existing) cache.set(key, existing);
    }
    // Made by their events after the hub listed (the ones their events deleted are no longer in the cache).
    for (const key of newer ?? []) {
      const item = previous?.get(key);
      if (item && !cache.has(key)) cache.set(key, item);
    }
    if (this.#unsubscribe) this.#cache.set(type, cache);
    return this.#shapeOf(type, [...cache.values()]);
  }

  #listFromCache(type: string): unknown {
    return this.#shapeOf(type, [...(this.#cache.get(type)?.values() ?? [])]);
  }

  #shapeOf(type: string, items: Item[]): unknown {
    if (this.#shape.get(type) === 'array') return items;
    return Object.fromEntries(items.map((item) => [item.key, item]));
  }

  #create(type: string, data: ItemData): Item {
    const ItemClass = itemClasses[type] ?? Item;
    return new ItemClass(this, type, data);
  }

  /** The item type an operation's answer is, when its path is `/<type>` or `/<type>/:id` of a listed type. */
  #itemTypeOf(operation: AnyOperation): string | undefined {
    const type = /^\/([a-z]+)(\/:id)?$/.exec(operation.path)?.[1];
    return type && this.#types.has(type) ? type : undefined;
  }

  #upsert(type: string, data: ItemData): Item {
    const cache = this.#cache.get(type);
    const existing = cache?.get(itemKey(type, data));
    if (existing) return existing.update(data);
    const item = this.#create(type, data);
    if (this.#unsubscribe) cache?.set(item.key, item);
    return item;
  }

  /** The cached items of `type` (empty until the manager is connected and has listed them). */
  cached(type: string): Item[] {
    return [...(this.#cache.get(type)?.values() ?? [])];
  }

  /**
   * Follows `homey:manager:<name>` and fills the cache of every item type this manager lists, so later reads
   * need no request. After a reconnect the cache is filled again and kept current.
   */
  connect(): Promise<void> {
    this.#connecting ??= (async () => {
      try {
        this.#unsubscribe = await this.hub.realtime.subscribe(this.uri, (event, data) => this.#onEvent(event, data));
        this.hub.realtime.on('reconnect', this.#onReconnect);
        await this.#refill();
        this.emit('connect');
      } catch (error) {
        this.#unsubscribe?.();
        this.#unsubscribe = null;
        this.#connecting = null;
        throw error;
      }
    })();
    return this.#connecting;
  }

  /** Stops following events and empties the cache. */
  disconnect(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#connecting = null;
    this.hub.realtime.off('reconnect', this.#onReconnect);
    this.#cache.clear();
    this.emit('disconnect');
  }

  // Events missed while disconnected are lost: list everything again, then say so (`connect`), so a view of the
  // cache reads it afresh.
  readonly #onReconnect = () => {
    this.#refill().then(
      () => this.emit('connect'),
      (error: Error) => this.emit('error', error),
    );
  };

  async #refill(): Promise<void> {
    for (const entry of this.#types.values()) {
      if (!entry.list) continue;
      if (!this.#cache.has(entry.type)) this.#cache.set(entry.type, new Map());
      const changed = new Set<string>();
      this.#changedWhileListing.set(entry.type, changed);
      try {
        const answer = await this.hub.send(this.name, prepareRequest(entry.list, {}), {});
        this.#fill(entry.type, answer, changed);
      } finally {
        this.#changedWhileListing.delete(entry.type);
      }
    }
  }

  #onEvent(event: string, data: unknown): void {
    const match = /^(\w+)\.(create|update|delete)$/.exec(event);
    if (!match) {
      this.emit(event, data);
      return;
    }
    const [, type, action] = match as unknown as [string, string, string];
    const item = data as ItemData;
    const cache = this.#cache.get(type);
    if (!item || typeof item.id !== 'string' || !cache) {
      this.emit(event, data);
      return;
    }
    this.#changedWhileListing.get(type)?.add(itemKey(type, item));
    if (action === 'delete') {
      const existing = cache.get(itemKey(type, item));
      cache.delete(itemKey(type, item));
      existing?.emit('delete', existing);
      this.emit(event, existing ?? item);
      return;
    }
    const existing = cache.get(itemKey(type, item));
    const result = existing ? existing.update(item) : this.#create(type, item);
    if (!existing) cache.set(result.key, result);
    this.emit(event, result);
  }
}
