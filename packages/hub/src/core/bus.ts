/**
 * The hub's typed domain bus: what happened inside the hub, for the parts that react to it (insights, energy,
 * realtime, the flow engine, apps). It is not the wire: the realtime layer maps these events to the wire events
 * `packages/contract` declares. Payloads carry ids and the values that changed; a listener that needs more asks
 * the owning manager's service.
 *
 * Adding an event: add its name and payload to `DomainEvents` below, emit it from the part that owns the change.
 */

/** Who caused a change. Flows use it to tell their own writes from others' (loop guard, traces). */
export type ChangeSource =
  | { readonly kind: 'api'; readonly sessionId: string; readonly userId: string }
  | { readonly kind: 'app'; readonly appId: string }
  | { readonly kind: 'flow'; readonly flowId: string; readonly runId: string }
  | { readonly kind: 'mood'; readonly moodId: string }
  | { readonly kind: 'alarm'; readonly alarmId: string }
  | { readonly kind: 'simulation' }
  /** The hub itself: restoring state at start, a migration, a group device following its members. */
  | { readonly kind: 'system' };

export type CapabilityValue = string | number | boolean | null;

/** Every domain event and its payload. */
export interface DomainEvents {
  /** A capability's value was stored (it may equal the previous one: a button press, a repeated report). */
  'device.capability': {
    readonly deviceId: string;
    readonly capabilityId: string;
    readonly value: CapabilityValue;
    readonly previous: CapabilityValue;
    /** Epoch ms the value was stored at. */
    readonly at: number;
    /** The caller's transactionId on the value it set; the device's reactions get fresh ones. */
    readonly transactionId: string;
    readonly source: ChangeSource;
  };
  'device.added': { readonly deviceId: string; readonly appId: string; readonly zoneId: string };
  'device.removed': { readonly deviceId: string; readonly appId: string; readonly zoneId: string };
  /**
   * The device's record was written, or its availability followed its app's run state: `changed` names the fields
   * whose value differs (`name`, `zone`, `available`, `settings`, `data`, `capabilities`, …); empty when a write
   * changed nothing (clients are told all the same).
   */
  'device.updated': { readonly deviceId: string; readonly changed: readonly string[] };
  'zone.added': { readonly zoneId: string };
  'zone.removed': { readonly zoneId: string };
  /** A zone became active (motion or contact in it) or inactive. */
  'zone.active': { readonly zoneId: string; readonly active: boolean };
  'presence.changed': {
    readonly userId: string;
    readonly present: boolean;
    readonly previous: boolean;
    /** Flow triggers fire even when the value did not change (`opts.forceFlowTrigger`). */
    readonly forced: boolean;
    readonly source: ChangeSource;
  };
  'user.asleep': {
    readonly userId: string;
    readonly asleep: boolean;
    readonly previous: boolean;
    readonly forced: boolean;
    readonly source: ChangeSource;
  };
  'user.removed': { readonly userId: string };
  'variable.added': { readonly variableId: string };
  'variable.changed': {
    readonly variableId: string;
    readonly name: string;
    readonly type: string;
    readonly value: CapabilityValue;
    readonly previous: CapabilityValue;
    readonly source: ChangeSource;
  };
  'variable.removed': { readonly variableId: string };
  /** An alarm went off (at `at`, its scheduled time; later when it ran late after a restart). */
  'alarm.due': { readonly alarmId: string; readonly name: string; readonly at: number };
  'mood.set': { readonly moodId: string; readonly zoneId: string | null; readonly source: ChangeSource };
  /** An app's run state changed (`stopped`, `starting`, `running`, `stopping`), or it crashed. */
  'app.state': {
    readonly appId: string;
    readonly state: 'stopped' | 'starting' | 'running' | 'stopping';
    readonly previous: 'stopped' | 'starting' | 'running' | 'stopping';
    readonly crashed: boolean;
  };
  'app.installed': { readonly appId: string };
  /** An app's setting was set (`removed: false`) or unset, by anyone: a client, the app itself. */
  'app.setting': { readonly appId: string; readonly name: string; readonly value: unknown; readonly removed: boolean };
  'app.uninstalled': { readonly appId: string };
  /** `GET /logic/webhook/{event}` was called (or the cloud delivered a webhook); `id` and `receivedAt` as stored. */
  'webhook.received': { readonly id: string; readonly event: string; readonly tag: string | null; readonly receivedAt: string };
  /**
   * The cloud delivered a call of a webhook this hub registered for (checked and seen once): for the app or manager
   * that registered `webhookId`, which also checks `data` is its own registration's.
   */
  'cloud.webhook': {
    readonly deliveryId: string;
    readonly webhookId: string;
    readonly data: Readonly<Record<string, unknown>>;
    readonly query: Readonly<Record<string, string>>;
    readonly body: unknown;
    readonly headers: Readonly<Record<string, string>>;
  };
  /** Through the cloud's connect relay: a person answered a push notification the hub sent (`choice`). */
  'cloud.pushConfirmed': { readonly pushId: string; readonly choice: string };
  /**
   * Through the cloud's connect relay: an OAuth2 provider answered a sign-in the hub (an app) started; `token`
   * names the waiting sign-in, `code` is the provider's authorization code. Kept off the wire: the code is a secret.
   */
  'cloud.oauth2Callback': { readonly code: string | null; readonly token: string | null };
  'notification.created': { readonly notificationId: string; readonly ownerUri: string; readonly excerpt: string };
  /** The hub finished starting: every manager runs. Restoring state before this fires no flow triggers. */
  'hub.started': { readonly at: number };
  /** A part needs the hub stopped and started again (a backup to restore replaces its database): `main` does it. */
  'hub.restartRequested': { readonly reason: string };
}

export type DomainEventName = keyof DomainEvents;
export type DomainListener<K extends DomainEventName> = (payload: DomainEvents[K]) => void;

/**
 * A synchronous typed event bus. Listeners are registered under an owner (a manager's name, a flow id) so a part
 * that stops removes exactly its own with `off(owner)`; `on` also answers a remover for one listener.
 * A listener that throws is reported to `onListenerError` and does not stop the others.
 */
export class DomainBus {
  readonly #listeners = new Map<DomainEventName, Map<DomainListener<never>, string>>();

  constructor(private readonly onListenerError: (error: unknown, event: DomainEventName) => void = () => {}) {}

  on<K extends DomainEventName>(event: K, owner: string, listener: DomainListener<K>): () => void {
    let listeners = this.#listeners.get(event);
    if (!listeners) {
      listeners = new Map();
      this.#listeners.set(event, listeners);
    }
    listeners.set(listener as DomainListener<never>, owner);
    return () => {
      this.#listeners.get(event)?.delete(listener as DomainListener<never>);
    };
  }

  /** Removes every listener `owner` registered. */
  off(owner: string): void {
    for (const listeners of this.#listeners.values()) {
      for (const [listener, listenerOwner] of listeners) if (listenerOwner === owner) listeners.delete(listener);
    }
  }

  emit<K extends DomainEventName>(event: K, payload: DomainEvents[K]): void {
    const listeners = this.#listeners.get(event);
    if (!listeners) return;
    for (const listener of [...listeners.keys()]) {
      try {
        (listener as DomainListener<K>)(payload);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }

  /** Listeners registered, for the lifecycle test (a stopped hub leaves none). */
  get size(): number {
    let size = 0;
    for (const listeners of this.#listeners.values()) size += listeners.size;
    return size;
  }
}
