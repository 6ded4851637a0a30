import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Secrets every node must share (the sign-in forms' CSRF key): made once by whichever node needs one first. */
export interface SharedSecretsTable {
  name: string;
  value: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** When each background sweep last ran on any node: a node claims a run by moving this forward. */
export interface SweepRunsTable {
  name: string;
  last_run_at: Timestamp;
}

export interface ClusterTables {
  shared_secrets: SharedSecretsTable;
  sweep_runs: SweepRunsTable;
}

/** What several cloud nodes on one database share: secrets and the record of background sweeps. */
export const clusterMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shared_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('sweep_runs')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('last_run_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sweep_runs').execute();
    await db.schema.dropTable('shared_secrets').execute();
  },
};
