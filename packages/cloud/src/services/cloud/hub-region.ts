import type { Kysely, Migration } from 'kysely';

/**
 * Hubs remember the cloud region they registered in (`HEARTH_REGION` of that cloud); clients and the support
 * form read it as the hub's `region`. Hubs registered before learn it at their next start.
 */
export const cloudHubRegionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('hubs').addColumn('region', 'text').execute();
  },
};
