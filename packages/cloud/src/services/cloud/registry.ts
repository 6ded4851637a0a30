import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';

/**
 * The account service's hub registry as other services read it: a hub's registration by id. Other services ask
 * here instead of querying the account service's tables (the table-ownership test holds them to it).
 */
export interface RegisteredHub {
  readonly id: string;
  readonly name: string;
  readonly model: string;
  readonly platform: 'local' | 'cloud';
  readonly software_version: string;
  readonly owner_user_id: string | null;
  /** The hub's registered local address (for calls the relay cannot carry). */
  readonly local_url: string | null;
}

/** The hub registered under `hubId`, or `undefined`. */
export function registeredHub(db: Kysely<CloudSchema>, hubId: string): Promise<RegisteredHub | undefined> {
  return db
    .selectFrom('hubs')
    .select(['id', 'name', 'model', 'platform', 'software_version', 'owner_user_id', 'local_url'])
    .where('id', '=', hubId)
    .executeTakeFirst();
}
