import { type ColumnType, type Kysely, type Migration, type RawBuilder, sql } from 'kysely';

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
  /** While a node runs the sweep: until when its claim holds (a node that dies mid-run frees it then). */
  running_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** How many times the sweep has run, on any node (what an operator, or a soak test, reads). */
  runs: ColumnType<number, number | undefined, number | RawBuilder<number>>;
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

/**
 * A sweep's run is claimed by a lease in its row instead of a session lock: a session lock lives on one connection,
 * which the run would hold while its queries wait for another (embedded PGlite has only one).
 */
export const sweepLeaseMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sweep_runs').addColumn('running_until', 'timestamptz').execute();
    await db.schema
      .alterTable('sweep_runs')
      .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('sweep_runs').dropColumn('runs').execute();
    await db.schema.alterTable('sweep_runs').dropColumn('running_until').execute();
  },
};
