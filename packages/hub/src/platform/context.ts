import type { Implementation, LimitStore, Principal } from '@hearth/contract/fastify';
import type { CloudClaim } from '../cloudlink/claim';
import type { CloudLink } from '../cloudlink/client';
import type { CloudEntitlements } from '../cloudlink/entitlements';
import type { HubConfig } from '../config';
import type { DomainBus } from '../core/bus';
import type { Clock } from '../core/clock';
import type { Scheduler } from '../core/scheduler';
import type { HubServices } from '../runtime/services';
import type { HubDatabase, Migration } from '../store/database';
import type { SettingStore } from '../store/settings';
import type { HubEvents } from './events';
import type { SessionStore } from './identity/sessions';
import type { UserRole, UserStore } from './identity/users';
import type { Journal } from './journal';

/** The caller of a hub operation. */
export interface HubPrincipal extends Principal {
  readonly sessionId: string;
  readonly userId: string;
  readonly sessionType: 'OAUTH' | 'APP' | 'PAT';
  /** The role of the session's user; it caps the session's scopes. */
  readonly role: UserRole;
}

/** What every manager may use. Built once by the composition root. */
export interface HubContext {
  readonly config: HubConfig;
  readonly db: HubDatabase;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly settings: SettingStore;
  /** Wire events for realtime (entity changes as clients see them). */
  readonly events: HubEvents;
  /** Domain events between the hub's parts (see `core/bus.ts`). */
  readonly bus: DomainBus;
  /** Every part reads time and sets timers through it; tests pass a fake one. */
  readonly clock: Clock;
  /** Waiting work that survives a restart (see `core/scheduler.ts`). */
  readonly scheduler: Scheduler;
  /** The hub's system journal: warnings, errors and notable events for diagnostic reports. */
  readonly journal: Journal;
  /** Counters behind the hub's rate limits and sign-in throttle (in process, on the hub's clock). */
  readonly limits: LimitStore;
  /** The hub's authenticated link to the cloud (its client credentials), when it has a cloud. */
  readonly cloud: CloudLink;
  /** What the owner's subscriptions unlock on the hub (its tier, cloud backups), as the cloud last said. */
  readonly entitlements: CloudEntitlements;
  /** While nobody owns the hub: the short code that claims it, shown on its web page and in its log. */
  readonly claim: CloudClaim;
  readonly startedAt: Date;
}

/** One manager as it runs on one hub: its served operations and, for managers with background work, `start`/`stop`. */
export interface ManagerInstance {
  readonly implementations: Implementation<HubPrincipal>[];
  /** Begins background work; called once every manager is created, in the managers' order. */
  start?(): Promise<void> | void;
  /** Undoes exactly what `start` did; called in reverse order when the hub stops. */
  stop?(): Promise<void> | void;
}

/**
 * One hub manager: its migrations and how it is created for a hub. `create` gets what the manager may use (the
 * hub's context and the services of the device runtime) and does nothing observable: no timers, no listeners,
 * no writes; those belong in `start`. Adding a manager means writing one of these in `managers/<name>/index.ts`
 * and adding it to the list in `managers/index.ts`.
 */
export interface HubManager {
  readonly name: string;
  readonly migrations?: readonly Migration[];
  /**
   * Names of this manager's operations whose body is multipart/form-data (an uploaded archive): the hub serves
   * them in their own scope with the multipart parser, so no other route accepts multipart bodies.
   */
  readonly multipartOperations?: readonly string[];
  create(context: HubContext, services: HubServices): ManagerInstance;
}
