import type { HubDatabase } from '../store/database';

/**
 * Entities stored as JSON documents in a table `(id, data, created_at)` of their manager; their shape is
 * validated by the contract before they get here.
 */
export class DocumentStore<T extends { id: string }> {
  constructor(
    private readonly db: HubDatabase,
    private readonly table: string,
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
