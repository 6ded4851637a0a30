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
 * Opens the hub's SQLite database in WAL mode. A commit reaches the log as it happens, so a killed process
 * loses nothing committed; durability against power loss comes from the group commit in `durability.ts`,
 * awaited before a write is acknowledged.
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

/** What `transact` joins: the hub's group commit over the database (see `durability.ts`). */
interface ChangeGroup {
  transact<T>(change: () => T): T;
  transactStatement<T>(statement: () => T): T;
  commitOpenGroup(): void;
}

const groups = new WeakMap<HubDatabase, ChangeGroup>();
const runners = new WeakMap<HubDatabase, (change: () => unknown) => unknown>();
const rollbacks = new WeakMap<HubDatabase, number>();

/** Makes `transact` on `db` join `group`. */
export function attachGroupCommit(db: HubDatabase, group: ChangeGroup): void {
  groups.set(db, group);
}

/**
 * Runs `change` atomically. On a hub's database it joins the group commit: a savepoint of the transaction
 * that every change of this turn of the event loop shares, made durable before a request's answer. On a
 * database without one (a tool or test that opens it directly) it is a transaction of its own. Either way
 * one transaction function per database is reused: better-sqlite3 builds a new one per
 * `db.transaction(...)` call, which costs more than a small write itself.
 */
export function transact<T>(db: HubDatabase, change: () => T): T {
  const group = groups.get(db);
  if (group) return group.transact(change);
  let run = runners.get(db);
  if (!run) {
    run = db.transaction((inner: () => unknown) => inner());
    runners.set(db, run);
  }
  return run(change) as T;
}

/**
 * {@link transact} for a change that is one statement: it joins the group commit without a savepoint of its own,
 * as SQLite undoes a failed statement by itself (a savepoint would cost two more statements than the write).
 */
export function transactStatement<T>(db: HubDatabase, statement: () => T): T {
  const group = groups.get(db);
  return group ? group.transactStatement(statement) : statement();
}

/** Commits the changes `transact` has gathered so far: before VACUUM, which cannot run inside a transaction. */
export function commitPendingChanges(db: HubDatabase): void {
  groups.get(db)?.commitOpenGroup();
}

/**
 * How many groups of changes were undone after they were made (a failed commit). Whatever a cache read from
 * the database may since be gone, so caches of database content compare this along with their own version.
 */
export function rollbackEpoch(db: HubDatabase): number {
  return rollbacks.get(db) ?? 0;
}

export function noteRollback(db: HubDatabase): void {
  rollbacks.set(db, rollbackEpoch(db) + 1);
}

/** Applies the migrations not applied yet. Migration ids are global, so each manager prefixes its own. */
export function migrate(db: HubDatabase, migrations: readonly Migration[]): void {
  const applied = new Set(db.prepare('SELECT id FROM migration').pluck().all() as string[]);
  const record = db.prepare('INSERT INTO migration (id, applied_at) VALUES (?, ?)');
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      migration.up(db);
      // When the schema changed on this machine (before any clock is made): a wall-time record for people.
      record.run(migration.id, new Date().toISOString());
    })();
  }
}
