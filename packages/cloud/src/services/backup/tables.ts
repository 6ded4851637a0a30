import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** PostgreSQL's bigint arrives as text from `pg` and as a number from PGlite: read it with `Number()`. */
type BigInt = ColumnType<string | number, number, number>;

export interface BackupsTable {
  id: string;
  user_id: string;
  /** No reference to the hub registry: a user's backups outlive the hub they came from (restored to a new one). */
  hub_id: string;
  homey_name: string;
  homey_platform: string;
  homey_platform_version: number | null;
  homey_model: string;
  version: string;
  channel: string;
  /** `pending` until an archive is uploaded, `uploaded` until the hub completes it, then `complete` (listed). */
  state: 'pending' | 'uploaded' | 'complete';
  /** The blob holding the uploaded archive; each upload gets a key of its own, so a blob and its hash never disagree. */
  blob_key: string | null;
  uploaded_size: BigInt | null;
  uploaded_hash: string | null;
  size: BigInt | null;
  hash: string | null;
  meta: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  completed_at: Timestamp | null;
}

export interface BackupTables {
  backups: BackupsTable;
}

/** Backups of hubs: one row per backup, its archive in the blob store. */
export const backupsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('backups')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('hub_id', 'text', (c) => c.notNull())
      .addColumn('homey_name', 'text', (c) => c.notNull())
      .addColumn('homey_platform', 'text', (c) => c.notNull())
      .addColumn('homey_platform_version', 'double precision')
      .addColumn('homey_model', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('pending', 'uploaded', 'complete')`))
      .addColumn('blob_key', 'text')
      .addColumn('uploaded_size', 'bigint')
      .addColumn('uploaded_hash', 'text')
      .addColumn('size', 'bigint')
      .addColumn('hash', 'text')
      .addColumn('meta', 'jsonb')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('completed_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('backups_user_complete').on('backups').columns(['user_id', 'state', 'completed_at']).execute();
    await db.schema.createIndex('backups_hub_complete').on('backups').columns(['hub_id', 'state', 'completed_at']).execute();
    await db.schema.createIndex('backups_incomplete').on('backups').columns(['state', 'created_at']).execute();
  },
};
