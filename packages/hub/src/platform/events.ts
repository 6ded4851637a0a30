import { EventEmitter } from 'node:events';
import {
  eventSchema,
  hubEvents,
  type ItemEventData,
  type ItemEventType,
  type ManagerEventData,
  type ManagerEventName,
} from '@hearth/contract';
import { Value } from 'typebox/value';

/** Who an event is delivered to: enough to decide what of it they may see. */
export interface EventViewer {
  readonly userId: string;
  readonly role: string;
}

/** The data of an event as `viewer` may see it, or `undefined` to withhold the event from them. */
export type EventView = (viewer: EventViewer) => unknown;

/**
 * A wire event as realtime delivers it: to the sockets subscribed to `uri` whose scopes cover `scope`. The hub's
 * parts publish them through {@link HubEvents}' typed methods, which take the event names and payloads the
 * contract declares (`hubEvents` in `packages/contract`).
 */
export interface HubEvent {
  /** `homey:manager:<manager>` or `homey:<type>:<id>`; the socket event name. */
  readonly uri: string;
  /** `<type>.create`, `<type>.update`, `<type>.delete` on a manager URI; `capability`, `update`, `delete` on an item URI. */
  readonly event: string;
  readonly data: unknown;
  /** Scope a session needs to receive it (the readonly scope of the entity), or `null` for everyone. */
  readonly scope: string | null;
  /**
   * What each session may see of it, where that depends on who they are (another user's private properties, a
   * notification for some roles only); without it every session in scope receives `data`. Internal listeners
   * always get `data`.
   */
  readonly viewFor?: EventView;
}

type Wire = typeof hubEvents;
/** The managers that publish wire events. */
export type WireManager = keyof Wire & string;
type EntityAction = 'create' | 'update' | 'delete';
/** The managers that declare the wire event `E` (`option.update`: those with options). */
export type ManagersWithEvent<E extends string> = {
  [M in WireManager]: E extends ManagerEventName<Wire[M]> ? M : never;
}[WireManager];

/** Thrown (in checking mode) for an event the contract does not declare, or whose payload does not match it. */
export class UndeclaredWireEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndeclaredWireEvent';
  }
}

/** An event whose data is made when first read (a class: cheaper than a property defined on every event). */
class LazyEvent implements HubEvent {
  readonly uri: string;
  readonly event: string;
  readonly scope: string | null;
  #make: (() => unknown) | null;
  #data: unknown;

  constructor(event: Omit<HubEvent, 'data'>, make: () => unknown) {
    this.uri = event.uri;
    this.event = event.event;
    this.scope = event.scope;
    this.#make = make;
  }

  get data(): unknown {
    if (this.#make) {
      this.#data = this.#make();
      this.#make = null;
    }
    return this.#data;
  }
}

/**
 * The hub's wire events: what clients see change, on `homey:manager:<manager>` and on items' own URIs. Every event
 * is one the contract declares, with its payload's type; with `check` set (the hub's tests) each payload is also
 * checked against its schema as it is published. Listeners are removed by the function `on` returns, so a
 * stopped part leaves nothing behind.
 */
export class HubEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  /**
   * What checking found wrong, kept as well as thrown: an event published from a domain bus listener fails inside
   * the bus, which reports listener errors without passing them on. Tests assert it stays empty.
   */
  readonly violations: string[] = [];
  constructor(private readonly options: { readonly check?: boolean } = {}) {}

  /** Publishes `event` with its payload on `homey:manager:<manager>`. */
  manager<M extends WireManager, E extends ManagerEventName<Wire[M]>>(
    manager: M,
    event: E,
    data: ManagerEventData<Wire[M], E>,
    scope: string | null,
    viewFor?: EventView,
  ): void {
    this.#check(manager, null, event, data);
    this.publish({ uri: `homey:manager:${manager}`, event, data, scope, viewFor });
  }

  /** Publishes `<type>.<action>` with the item (or `{id}` for a delete) on `homey:manager:<manager>`. */
  entity<M extends WireManager, T extends string, A extends EntityAction>(
    manager: M,
    type: T,
    action: A,
    data: ManagerEventData<Wire[M], `${T}.${A}`>,
    scope: string | null,
    viewFor?: EventView,
  ): void {
    const event = `${type}.${action}`;
    this.#check(manager, null, event, data);
    this.publish({ uri: `homey:manager:${manager}`, event, data, scope, viewFor });
  }

  /**
   * Publishes `event` on `homey:manager:<manager>` with a payload made only if someone reads it (a socket
   * subscribed to the URI, a listener that looks): a device's full view on every capability write costs more than
   * the write when nobody watches.
   */
  managerLazy<M extends WireManager, E extends ManagerEventName<Wire[M]>>(
    manager: M,
    event: E,
    data: () => ManagerEventData<Wire[M], E>,
    scope: string | null,
  ): void {
    this.#publishLazy({ uri: `homey:manager:${manager}`, event, scope }, this.#checking(manager, null, event, data));
  }

  /** Publishes `event` on the own URI `homey:<type>:<id>` of an item of `manager`. */
  item<M extends WireManager, T extends ItemEventType<Wire[M]>, E extends string>(
    manager: M,
    type: T,
    id: string,
    event: E,
    data: ItemEventData<Wire[M], T, E>,
    scope: string | null,
  ): void {
    this.#check(manager, type, event, data);
    this.publish({ uri: `homey:${type}:${id}`, event, data, scope });
  }

  /** {@link item} with a payload made only if someone reads it. */
  itemLazy<M extends WireManager, T extends ItemEventType<Wire[M]>, E extends string>(
    manager: M,
    type: T,
    id: string,
    event: E,
    data: () => ItemEventData<Wire[M], T, E>,
    scope: string | null,
  ): void {
    this.#publishLazy({ uri: `homey:${type}:${id}`, event, scope }, this.#checking(manager, type, event, data));
  }

  /** Hands `event` to every listener: what the typed methods above end in. */
  private publish(event: HubEvent): void {
    this.emitter.emit('event', event);
  }

  on(listener: (event: HubEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  #publishLazy(event: Omit<HubEvent, 'data'>, data: () => unknown): void {
    this.publish(new LazyEvent(event, data));
  }

  #checking<T>(manager: string, itemType: string | null, event: string, data: () => T): () => T {
    if (!this.options.check) return data;
    return () => {
      const value = data();
      this.#check(manager, itemType, event, value);
      return value;
    };
  }

  #check(manager: string, itemType: string | null, event: string, data: unknown): void {
    if (!this.options.check) return;
    const where = `${itemType === null ? `homey:manager:${manager}` : `homey:${itemType}:…`} ${event}`;
    const schema = eventSchema(
      Object.hasOwn(hubEvents, manager) ? hubEvents[manager as WireManager] : undefined,
      itemType,
      event,
    );
    let problem: string | undefined;
    if (!schema) problem = `The contract declares no wire event ${where}`;
    else if (!Value.Check(schema, data)) {
      const errors = [...Value.Errors(schema, data)].slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
      problem = `Wire event ${where} does not match its declaration: ${errors.join('; ')}`;
    }
    if (problem === undefined) return;
    this.violations.push(problem);
    throw new UndeclaredWireEvent(problem);
  }
}
