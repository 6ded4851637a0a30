import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type HubDatabase = Database.Database;

/** One schema migration: applied once, in order, inside a transaction. */
export interface Migration {
  readonly id: string;
  readonly up: (db: HubDatabase) => void;
}

/**
 * Opens the hub's SQLite database in WAL mode. Commits reach the log before the call that made them returns,
 * so a killed process loses nothing committed; durability against power loss comes from the group commit in
 * `durability.ts`, awaited before a write is acknowledged.
 */
export function openDatabase(path: string): HubDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS migration (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  return db;
}

const runners = new WeakMap<HubDatabase, (change: () => unknown) => unknown>();

/**
 * Runs `change` in one transaction (inside another one: a savepoint). Each database keeps one transaction
 * function for this: better-sqlite3 builds a new one per `db.transaction(...)` call, which costs more than a
 * small write itself.
 */
export function transact<T>(db: HubDatabase, change: () => T): T {
  let run = runners.get(db);
  if (!run) {
    run = db.transaction((inner: () => unknown) => inner());
    runners.set(db, run);
  }
  return run(change) as T;
}

/** Applies the migrations not applied yet. Migration ids are global, so each manager prefixes its own. */
export function migrate(db: HubDatabase, migrations: readonly Migration[]): void {
  const applied = new Set(db.prepare('SELECT id FROM migration').pluck().all() as string[]);
  const record = db.prepare('INSERT INTO migration (id, applied_at) VALUES (?, ?)');
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      migration.up(db);
      record.run(migration.id, new Date().toISOString());
    })();
  }
}
