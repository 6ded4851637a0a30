import type { HubDatabase, Migration } from '../../store/database';

export const flowMigrations: Migration[] = [
  {
    id: 'flow-001-create',
    up: (db) => {
      for (const table of ['flow_flow', 'flow_advanced', 'flow_folder', 'flow_share']) {
        db.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)`);
      }
    },
  },
];

export type FlowTable = 'flow_flow' | 'flow_advanced' | 'flow_folder' | 'flow_share';

/** Entities of the flow manager, stored as JSON documents (their shape is validated by the contract). */
export class DocumentStore<T extends { id: string }> {
  constructor(
    private readonly db: HubDatabase,
    private readonly table: FlowTable,
  ) {}

  list(): T[] {
    return (this.db.prepare(`SELECT data FROM ${this.table} ORDER BY created_at, id`).pluck().all() as string[]).map(
      (data) => JSON.parse(data) as T,
    );
  }

  get(id: string): T | undefined {
    const data = this.db.prepare(`SELECT data FROM ${this.table} WHERE id = ?`).pluck().get(id) as string | undefined;
    return data === undefined ? undefined : (JSON.parse(data) as T);
  }

  insert(entity: T): T {
    this.db
      .prepare(`INSERT INTO ${this.table} (id, data, created_at) VALUES (?, ?, ?)`)
      .run(entity.id, JSON.stringify(entity), new Date().toISOString());
    return entity;
  }

  save(entity: T): T {
    this.db.prepare(`UPDATE ${this.table} SET data = ? WHERE id = ?`).run(JSON.stringify(entity), entity.id);
    return entity;
  }

  delete(id: string): boolean {
    return this.db.prepare(`DELETE FROM ${this.table} WHERE id = ?`).run(id).changes > 0;
  }
}
