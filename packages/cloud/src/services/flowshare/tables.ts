import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

export interface SharedFlowsTable {
  id: string;
  type: 'flow' | 'advancedflow';
  /** The flow with placeholders for what it named. */
  flow: ColumnType<unknown, string, never>;
  cards: ColumnType<unknown, string, never>;
  placeholders: ColumnType<unknown, string, never>;
  /** Who shared it: a user, or null for a hub acting with the provider's credentials. */
  shared_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface FlowShareTables {
  shared_flows: SharedFlowsTable;
}

/** Shared flows; they do not change once shared. */
export const flowShareMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shared_flows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('flow', 'jsonb', (c) => c.notNull())
      .addColumn('cards', 'jsonb', (c) => c.notNull())
      .addColumn('placeholders', 'jsonb', (c) => c.notNull())
      .addColumn('shared_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
