import type { HubDatabase, Migration } from './database';
import { Statements } from './statements';

export const settingMigrations: Migration[] = [
  {
    id: 'settings-001-create',
    up: (db) => db.exec('CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)'),
  },
];

/** Key-value settings of the hub (options of the managers, the hub's name), stored as JSON. */
export class SettingStore {
  readonly #statements: Statements;

  constructor(db: HubDatabase) {
    this.#statements = new Statements(db);
  }

  get<T>(key: string, fallback: T): T {
    const row = this.#statements.get('SELECT value FROM setting WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? fallback : (JSON.parse(row.value) as T);
  }

  has(key: string): boolean {
    return this.#statements.get('SELECT 1 FROM setting WHERE key = ?').get(key) !== undefined;
  }

  set(key: string, value: unknown): void {
    this.#statements
      .get('INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.#statements.get('DELETE FROM setting WHERE key = ?').run(key);
  }
}
