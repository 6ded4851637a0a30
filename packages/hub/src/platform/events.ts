import { EventEmitter } from 'node:events';

/** Who an event is delivered to: enough to decide what of it they may see. */
export interface EventViewer {
  readonly userId: string;
  readonly role: string;
}

/** The data of an event as `viewer` may see it, or `undefined` to withhold the event from them. */
export type EventView = (viewer: EventViewer) => unknown;

/**
 * A change the hub publishes: realtime delivers it to the sockets subscribed to `uri` whose scopes cover
 * `scope`; internal parts (insights, flows) listen to it too.
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

type Listener = (event: HubEvent) => void;

/** The hub's internal event bus. Listeners are removed by the function `on` returns, so a stopped part leaves nothing behind. */
export class HubEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: HubEvent): void {
    this.emitter.emit('event', event);
  }

  /** Publishes `<type>.<action>` with the full entity on `homey:manager:<manager>`. */
  entity(
    manager: string,
    type: string,
    action: 'create' | 'update' | 'delete',
    data: unknown,
    scope: string | null,
    viewFor?: EventView,
  ): void {
    this.publish({ uri: `homey:manager:${manager}`, event: `${type}.${action}`, data, scope, viewFor });
  }

  on(listener: Listener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
