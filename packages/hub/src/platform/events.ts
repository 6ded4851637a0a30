import { EventEmitter } from 'node:events';

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
}

type Listener = (event: HubEvent) => void;

/** The hub's internal event bus. Listeners are removed by the function `on` returns, so a stopped part leaves nothing behind. */
export class HubEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: HubEvent): void {
    this.emitter.emit('event', event);
  }

  /** Publishes `<type>.<action>` with the full entity on `homey:manager:<manager>`. */
  entity(manager: string, type: string, action: 'create' | 'update' | 'delete', data: unknown, scope: string | null): void {
    this.publish({ uri: `homey:manager:${manager}`, event: `${type}.${action}`, data, scope });
  }

  on(listener: Listener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
