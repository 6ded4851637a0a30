import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { CloudSchema } from './schema';

export type DatabaseKind = 'postgres' | 'pglite';

export interface CloudDatabase {
  readonly db: Kysely<CloudSchema>;
  readonly kind: DatabaseKind;
  /** The PostgreSQL schema holding Hearth's tables (tests isolate themselves by schema). */
  readonly schema: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, an embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string | null;
  /** Directory of the embedded PGlite database, or `memory://` for a throw-away one. */
  dataDir: string;
  schema?: string;
}

/**
 * Opens the cloud's database: PostgreSQL when a URL is given, otherwise embedded PGlite. Both run the same
 * migrations and queries through Kysely.
 */
export async function openDatabase(options: DatabaseOptions, migrations: Record<string, Migration>): Promise<CloudDatabase> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
  let db: Kysely<CloudSchema>;
  let kind: DatabaseKind;
  if (options.databaseUrl) {
    kind = 'postgres';
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, options: `-c search_path=${schema}` });
    db = new Kysely<CloudSchema>({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'pglite';
    if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
    const pglite = await PGlite.create(options.dataDir);
    db = new Kysely<CloudSchema>({ dialect: new PGliteDialect(pglite) });
  }
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  if (kind === 'pglite') await sql`SET search_path TO ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db,
    migrationTableSchema: schema,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return { db, kind, schema, close: () => db.destroy() };
}
