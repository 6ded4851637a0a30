import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { HearthError } from '@hearth/contract';
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { BoundedWaitDialect } from './bounded-wait';
import type { CloudSchema } from './schema';

export type DatabaseKind = 'postgres' | 'pglite';

export interface CloudDatabase {
  /** Queries through this instance address the tables of `schema`. */
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
  /**
   * An already open PGlite database to use instead of opening `dataDir` (tests share one per file, each cloud
   * in its own schema). It is left open on close.
   */
  pglite?: PGlite;
  /**
   * How long a query waits for a connection before it fails with `503 unavailable` (default
   * {@link CONNECTION_WAIT_MS}).
   */
  connectionWaitMs?: number;
}

/**
 * How long a query waits for a connection by default: far beyond any request's or transaction's own time here (a
 * busy moment queues for milliseconds), so that reaching it means a query that can never get one.
 */
export const CONNECTION_WAIT_MS = 30_000;

/**
 * Opens the cloud's database: PostgreSQL when a URL is given, otherwise embedded PGlite. Both run the same
 * migrations and queries through Kysely; every table reference is qualified with the schema (no reliance on
 * `search_path`, so several schemas can share one PGlite session).
 */
export async function openDatabase(options: DatabaseOptions, migrations: Record<string, Migration>): Promise<CloudDatabase> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
  const waitMs = options.connectionWaitMs ?? CONNECTION_WAIT_MS;
  let root: Kysely<CloudSchema>;
  let kind: DatabaseKind;
  if (options.databaseUrl) {
    kind = 'postgres';
    // JIT compilation costs more than it saves for the short queries of a web service (a few hundred milliseconds
    // for a query whose estimated cost crosses jit_above_cost, such as a broad app search); PGlite has none.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      options: `-c search_path=${schema} -c jit=off`,
    });
    root = new Kysely<CloudSchema>({ dialect: new BoundedWaitDialect(new PostgresDialect({ pool }), waitMs) });
  } else {
    kind = 'pglite';
    let client: PGlite;
    if (options.pglite) {
      const shared = options.pglite;
      // The dialect closes its client on destroy; a shared database must stay open for the others.
      client = {
        query: (...args: Parameters<PGlite['query']>) => shared.query(...args),
        close: async () => {},
      } as unknown as PGlite;
    } else {
      if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
      client = await PGlite.create(options.dataDir);
    }
    root = new Kysely<CloudSchema>({ dialect: new BoundedWaitDialect(new PGliteDialect(client), waitMs) });
  }
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(root);
  const db = root.withSchema(schema);
  const migrator = new Migrator({
    db,
    migrationTableSchema: schema,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await root.destroy();
    throw error;
  }
  return { db, kind, schema, close: () => root.destroy() };
}

/** How long a health check waits for the database before it answers 503: monitors must hear within a second. */
export const HEALTH_PROBE_MS = 800;

/**
 * A round trip to the database that answers within `withinMs` or throws `503 unavailable` naming the database, so
 * a health check says what failed instead of hanging with it. The probe's query, if it is still queued, runs later
 * and is dropped.
 */
export async function probeDatabase(database: CloudDatabase, withinMs = HEALTH_PROBE_MS): Promise<number> {
  const began = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HearthError('unavailable', `database: no answer within ${withinMs} ms`)), withinMs);
  });
  const query = sql`SELECT 1`.execute(database.db);
  // Raced below: a query that fails after the deadline has already been answered for.
  query.catch(() => {});
  try {
    await Promise.race([query, late]);
  } catch (error) {
    if (error instanceof HearthError) throw error;
    throw new HearthError('unavailable', `database: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  return performance.now() - began;
}
