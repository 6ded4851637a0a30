import type { HubDatabase, Migration } from './database';

export const settingMigrations: Migration[] = [
  {
    id: 'settings-001-create',
    up: (db) => db.exec('CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)'),
  },
];

/** Key-value settings of the hub (options of the managers, the hub's name), stored as JSON. */
export class SettingStore {
  constructor(private readonly db: HubDatabase) {}

  get<T>(key: string, fallback: T): T {
    const row = this.db.prepare('SELECT value FROM setting WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? fallback : (JSON.parse(row.value) as T);
  }

  has(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM setting WHERE key = ?').get(key) !== undefined;
  }

  set(key: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM setting WHERE key = ?').run(key);
  }
}
