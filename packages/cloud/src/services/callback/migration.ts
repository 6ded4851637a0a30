import { type Kysely, type Migration, sql } from 'kysely';

/** Registered OAuth2 callback addresses. */
export const callbackMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('callback_urls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('callback_url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('callback_urls_user').on('callback_urls').columns(['user_id', 'callback_url']).execute();
  },
};
