import type { Implementation, Principal } from '@hearth/contract/fastify';
import type { HubConfig } from '../config';
import type { SessionStore } from '../managers/sessions/store';
import type { UserRole, UserStore } from '../managers/users/store';
import type { HubDatabase, Migration } from '../store/database';
import type { SettingStore } from '../store/settings';
import type { HubEvents } from './events';

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
  readonly events: HubEvents;
  readonly startedAt: Date;
}

/**
 * One hub manager: its migrations, its served operations and, for managers with background work,
 * `start`/`stop`. Constructing a manager does nothing; the hub calls `start` once the database is migrated.
 */
export interface HubManager {
  readonly name: string;
  readonly migrations?: readonly Migration[];
  implementations(context: HubContext): Implementation<HubPrincipal>[];
  /**
   * Names of this manager's operations whose body is multipart/form-data (an uploaded archive): the hub serves
   * them in their own scope with the multipart parser, so no other route accepts multipart bodies.
   */
  readonly multipartOperations?: readonly string[];
  start?(context: HubContext): Promise<void> | void;
  stop?(context: HubContext): Promise<void> | void;
}
