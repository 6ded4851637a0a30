import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

export interface IconsTable {
  id: string;
  /** SHA-256 of the canonical SVG: the same icon stored twice keeps one id. */
  hash: string;
  /** The checked, canonical SVG, without width and height on its root. */
  svg: string;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface IconsTables {
  icons: IconsTable;
}

/** Stored icons. */
export const iconsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('icons')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('svg', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
