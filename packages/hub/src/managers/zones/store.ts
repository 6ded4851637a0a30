import { randomUUID } from 'node:crypto';
import type { HubDatabase, Migration } from '../../store/database';

export interface HubZone {
  id: string;
  name: string;
  order: number;
  parent: string | null;
  active: boolean;
  activeLastUpdated: string | null;
  icon: string;
}

export const zoneMigrations: Migration[] = [
  {
    id: 'zones-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE zone (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        sort_order REAL NOT NULL DEFAULT 0,
        parent TEXT REFERENCES zone (id),
        active INTEGER NOT NULL DEFAULT 0,
        active_last_updated TEXT,
        icon TEXT NOT NULL DEFAULT 'home'
      );
      CREATE INDEX zone_parent ON zone (parent)`),
  },
];

interface ZoneRow {
  id: string;
  name: string;
  sort_order: number;
  parent: string | null;
  active: number;
  active_last_updated: string | null;
  icon: string;
}

const toZone = (row: ZoneRow): HubZone => ({
  id: row.id,
  name: row.name,
  order: row.sort_order,
  parent: row.parent,
  active: row.active === 1,
  activeLastUpdated: row.active_last_updated,
  icon: row.icon,
});

/** The zone tree in SQLite. Tree rules (one root, parents exist, no cycles) are checked by the manager. */
export class ZoneStore {
  constructor(private readonly db: HubDatabase) {}

  get(id: string): HubZone | undefined {
    const row = this.db.prepare('SELECT * FROM zone WHERE id = ?').get(id) as ZoneRow | undefined;
    return row && toZone(row);
  }

  list(): HubZone[] {
    return (this.db.prepare('SELECT * FROM zone ORDER BY parent IS NOT NULL, sort_order, name').all() as ZoneRow[]).map(toZone);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM zone').pluck().get() as number;
  }

  root(): HubZone | undefined {
    const row = this.db.prepare('SELECT * FROM zone WHERE parent IS NULL LIMIT 1').get() as ZoneRow | undefined;
    return row && toZone(row);
  }

  hasChildren(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM zone WHERE parent = ? LIMIT 1').get(id) !== undefined;
  }

  /** The order a new last child of `parent` gets. */
  nextOrder(parent: string | null): number {
    const max = this.db.prepare('SELECT MAX(sort_order) FROM zone WHERE parent IS ?').pluck().get(parent) as number | null;
    return max === null ? 0 : max + 1;
  }

  create(input: { name: string; icon: string; parent: string | null; order: number }): HubZone {
    const id = randomUUID();
    this.db
      .prepare('INSERT INTO zone (id, name, sort_order, parent, icon) VALUES (?, ?, ?, ?, ?)')
      .run(id, input.name, input.order, input.parent, input.icon);
    return this.get(id) as HubZone;
  }

  update(id: string, changes: { name?: string; icon?: string; parent?: string; order?: number }): HubZone | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    this.db
      .prepare('UPDATE zone SET name = ?, icon = ?, parent = ?, sort_order = ? WHERE id = ?')
      .run(next.name, next.icon, next.parent, next.order, id);
    return this.get(id);
  }

  /** Sets whether someone or something is active in the zone (presence and sensors call this). */
  setActive(id: string, active: boolean): HubZone | undefined {
    this.db
      .prepare('UPDATE zone SET active = ?, active_last_updated = ? WHERE id = ?')
      .run(active ? 1 : 0, new Date().toISOString(), id);
    return this.get(id);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM zone WHERE id = ?').run(id).changes > 0;
  }
}
