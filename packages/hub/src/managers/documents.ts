import { type Clock, isoNow } from '../core/clock';
import type { HubDatabase } from '../store/database';
import { Statements } from '../store/statements';

/**
 * Entities stored as JSON documents in a table `(id, data, created_at)` of their manager; their shape is
 * validated by the contract before they get here.
 */
export class DocumentStore<T extends { id: string }> {
  readonly #statements: Statements;

  constructor(
    db: HubDatabase,
    private readonly table: string,
    private readonly clock: Clock,
  ) {
    this.#statements = new Statements(db);
  }

  list(): T[] {
    return (this.#statements.get(`SELECT data FROM ${this.table} ORDER BY created_at, id`).pluck().all() as string[]).map(
      (data) => JSON.parse(data) as T,
    );
  }

  count(): number {
    return this.#statements.get(`SELECT COUNT(*) FROM ${this.table}`).pluck().get() as number;
  }

  get(id: string): T | undefined {
    const data = this.#statements.get(`SELECT data FROM ${this.table} WHERE id = ?`).pluck().get(id) as string | undefined;
    return data === undefined ? undefined : (JSON.parse(data) as T);
  }

  insert(entity: T): T {
    this.#statements
      .get(`INSERT INTO ${this.table} (id, data, created_at) VALUES (?, ?, ?)`)
      .run(entity.id, JSON.stringify(entity), isoNow(this.clock));
    return entity;
  }

  save(entity: T): T {
    this.#statements.get(`UPDATE ${this.table} SET data = ? WHERE id = ?`).run(JSON.stringify(entity), entity.id);
    return entity;
  }

  delete(id: string): boolean {
    return this.#statements.get(`DELETE FROM ${this.table} WHERE id = ?`).run(id).changes > 0;
  }
}
