// Types only: the realtime events clients listen to, derived from the contract's declarations (`hubEvents`).
// Nothing here reaches a bundle.
import type { hubEvents, ItemEventData, ManagerEventData, ManagerEventName } from '@hearth/contract';
import type { Item } from './items';

type WireEvents = typeof hubEvents;

/** What the library adds to an item's data. */
export type ItemFields = Pick<
  Item,
  'uri' | 'key' | 'itemType' | 'manager' | 'lastUpdated' | 'on' | 'once' | 'off' | 'emit' | 'toJSON'
>;

/** A payload with a string `id` comes as the library's item for it. */
type AsItem<D> = D extends { id: string } ? D & ItemFields : D;

/**
 * What a manager's listener gets for each of its wire events: the item (kept in the manager's cache while it is
 * connected) for `<type>.create`, `<type>.update` and `<type>.delete`, the payload as declared for the others.
 */
export type ManagerEventPayloads<K extends string> = K extends keyof WireEvents
  ? {
      [E in ManagerEventName<WireEvents[K]>]: E extends `${string}.${'create' | 'update' | 'delete'}`
        ? AsItem<ManagerEventData<WireEvents[K], E>>
        : ManagerEventData<WireEvents[K], E>;
    }
  : Record<never, never>;

/** Events every manager emits besides its wire events. */
interface ManagerLifecycle {
  /** The manager follows its events and answers reads from its cache (again after each reconnect's refill). */
  connect: undefined;
  disconnect: undefined;
  /** A refill after a reconnect failed. */
  error: Error;
}

type Listener<D> = [D] extends [undefined] ? () => void : (data: D) => void;

/** `on`, `once` and `off` of a manager, typed by the event name: `devices.on('device.update', (device) => …)`. */
export interface ManagerListeners<K extends string> {
  on<E extends keyof (ManagerEventPayloads<K> & ManagerLifecycle) & string>(
    event: E,
    listener: Listener<(ManagerEventPayloads<K> & ManagerLifecycle)[E]>,
  ): this;
  once<E extends keyof (ManagerEventPayloads<K> & ManagerLifecycle) & string>(
    event: E,
    listener: Listener<(ManagerEventPayloads<K> & ManagerLifecycle)[E]>,
  ): this;
  off<E extends keyof (ManagerEventPayloads<K> & ManagerLifecycle) & string>(
    event: E,
    listener?: Listener<(ManagerEventPayloads<K> & ManagerLifecycle)[E]>,
  ): this;
}

/** A capability value on a device's own URI `homey:device:<id>`, as the contract declares it. */
export type CapabilityEvent = ItemEventData<WireEvents['devices'], 'device', 'capability'>;
