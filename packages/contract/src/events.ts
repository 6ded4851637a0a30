import { type Static, type TSchema, Type } from 'typebox';

/**
 * The realtime (wire) events of one hub manager, declared once beside its operations. The hub publishes only
 * these (its publisher is typed from them, and its tests check every payload against them); the client library
 * types `manager.on('device.update', …)` and an item's `on('capability', …)` from them.
 *
 * A socket that subscribed to a URI receives each event on it as the socket event named by the URI, with two
 * arguments: the event's name and its payload (wire-protocol.md, Realtime).
 */
export interface ManagerEvents<
  E extends Record<string, TSchema> = Record<string, TSchema>,
  I extends Record<string, Record<string, TSchema>> = Record<string, Record<string, TSchema>>,
> {
  readonly manager: string;
  /** Events on `homey:manager:<manager>` by name: `<type>.create`, `<type>.update` (the item), `<type>.delete` and others. */
  readonly events: E;
  /**
   * Events on an item's own URI `homey:<type>:<id>`, by item type then name. The name {@link ANY_EVENT} stands
   * for every other name (events an app sends its own clients).
   */
  readonly items: I;
}

/** The event name that stands for every name not declared (an app's own realtime events, a pair session's views). */
export const ANY_EVENT = '*';

/** What a `<type>.delete` event carries: at least the item's id. */
export const DeletedItem = Type.Object({ id: Type.String() }, { additionalProperties: true });

/** `<type>.create`, `<type>.update` with the item and `<type>.delete` with its id, for one item type of a manager. */
export function entityEvents<const T extends string, S extends TSchema>(
  type: T,
  item: S,
): { [K in `${T}.create` | `${T}.update`]: S } & { [K in `${T}.delete`]: typeof DeletedItem } {
  return {
    [`${type}.create`]: item,
    [`${type}.update`]: item,
    [`${type}.delete`]: DeletedItem,
  } as { [K in `${T}.create` | `${T}.update`]: S } & { [K in `${T}.delete`]: typeof DeletedItem };
}

/** `option.update` of a manager with `/option/<name>` settings: the option's name as `id`, and its value. */
export const optionEvents = {
  'option.update': Type.Object({ id: Type.String(), value: Type.Unknown() }),
} as const;

/** Declares the wire events of one hub manager. */
export function managerEvents<
  const E extends Record<string, TSchema> = Record<never, TSchema>,
  const I extends Record<string, Record<string, TSchema>> = Record<never, Record<string, TSchema>>,
>(manager: string, declaration: { events?: E; items?: I }): ManagerEvents<E, I> {
  return Object.freeze({
    manager,
    events: (declaration.events ?? {}) as E,
    items: (declaration.items ?? {}) as I,
  });
}

type AnyManagerEvents = ManagerEvents<Record<string, TSchema>, Record<string, Record<string, TSchema>>>;

/** The payload schema of `event` in `events`, or that of {@link ANY_EVENT} when it stands for undeclared names. */
type EventSchema<Events, E> = E extends keyof Events
  ? Events[E]
  : typeof ANY_EVENT extends keyof Events
    ? Events[typeof ANY_EVENT]
    : never;

/** Names of the events a manager publishes on `homey:manager:<manager>`. */
export type ManagerEventName<D extends AnyManagerEvents> = keyof D['events'] & string;

/** The payload of a manager event (`never` for a name the manager does not declare). */
export type ManagerEventData<D extends AnyManagerEvents, E extends string> =
  EventSchema<D['events'], E> extends infer S extends TSchema ? Static<S> : never;

/** Item types with events on their own URI `homey:<type>:<id>`. */
export type ItemEventType<D extends AnyManagerEvents> = keyof D['items'] & string;

/** Names of the events on the own URI of an item of `type`. */
export type ItemEventName<D extends AnyManagerEvents, T extends ItemEventType<D>> = keyof D['items'][T] & string;

/** The payload of an item event (`never` for a name the item type does not declare). */
export type ItemEventData<D extends AnyManagerEvents, T extends ItemEventType<D>, E extends string> =
  EventSchema<D['items'][T], E> extends infer S extends TSchema ? Static<S> : never;

/** The payload schema of an event, for checking what is sent; `undefined` when nothing declares it. */
export function eventSchema(
  declaration: AnyManagerEvents | undefined,
  itemType: string | null,
  event: string,
): TSchema | undefined {
  if (!declaration) return undefined;
  const events: Record<string, TSchema> | undefined =
    itemType === null ? declaration.events : Object.hasOwn(declaration.items, itemType) ? declaration.items[itemType] : undefined;
  if (!events) return undefined;
  if (Object.hasOwn(events, event)) return events[event];
  return Object.hasOwn(events, ANY_EVENT) ? events[ANY_EVENT] : undefined;
}
