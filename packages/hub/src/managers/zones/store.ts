import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { type HubDatabase, type Migration, rollbackEpoch } from '../../store/database';
import { Statements } from '../../store/statements';

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

/** The column of each updatable zone field. */
const columns = { name: 'name', icon: 'icon', parent: 'parent', order: 'sort_order' } as const;

/** The zones of each open database, shared by every `ZoneStore` over it (other managers make their own). */
const caches = new WeakMap<HubDatabase, ZoneCache>();

interface ZoneCache {
  zones: Map<string, HubZone>;
  json?: string;
  /** The database's rollback epoch when read: a group of changes undone since may be in it. */
  epoch: number;
}

/**
 * The zone tree in SQLite. Tree rules (one root, parents exist, no cycles) are checked by the manager. Zones are
 * few and read on every listing, so they are kept in memory too: every write goes through a `ZoneStore`, hits
 * the database first and then refreshes that copy (after a failed write, call `forget`).
 */
export class ZoneStore {
  constructor(private readonly db: HubDatabase) {}

  /** Statements are prepared once per store: preparing costs more than running most of them. */
  #statements: Statements | undefined;

  private statement(sql: string): Statement {
    this.#statements ??= new Statements(this.db);
    return this.#statements.get(sql);
  }

  private cached(): ZoneCache {
    let cached = caches.get(this.db);
    if (!cached || cached.epoch !== rollbackEpoch(this.db)) {
      const rows = this.statement('SELECT * FROM zone ORDER BY parent IS NOT NULL, sort_order, name').all() as ZoneRow[];
      cached = { zones: new Map(rows.map((row) => [row.id, Object.freeze(toZone(row))])), epoch: rollbackEpoch(this.db) };
      caches.set(this.db, cached);
    }
    return cached;
  }

  private all(): Map<string, HubZone> {
    return this.cached().zones;
  }

  /** Every zone keyed by id, as JSON: the `getZones` answer, built once per change rather than per request. */
  listJson(): string {
    const cached = this.cached();
    cached.json ??= JSON.stringify(Object.fromEntries(cached.zones));
    return cached.json;
  }

  private changed(): void {
    caches.delete(this.db);
  }

  /** Puts the stored row of `id` into the in-memory copy, or takes it out when gone (cheaper than a reload). */
  private refresh(id: string): void {
    const cached = caches.get(this.db);
    if (!cached) return;
    const row = this.statement('SELECT * FROM zone WHERE id = ?').get(id) as ZoneRow | undefined;
    if (row) cached.zones.set(id, Object.freeze(toZone(row)));
    else cached.zones.delete(id);
    cached.json = undefined;
  }

  /** Drops the in-memory copy (after a rolled-back write). */
  forget(): void {
    this.changed();
  }

  get(id: string): HubZone | undefined {
    return this.all().get(id);
  }

  list(): HubZone[] {
    return [...this.all().values()];
  }

  count(): number {
    return this.all().size;
  }

  root(): HubZone | undefined {
    for (const zone of this.all().values()) if (zone.parent === null) return zone;
    return undefined;
  }

  hasChildren(id: string): boolean {
    for (const zone of this.all().values()) if (zone.parent === id) return true;
    return false;
  }

  /** The order a new last child of `parent` gets. */
  nextOrder(parent: string | null): number {
    let max: number | null = null;
    for (const zone of this.all().values()) if (zone.parent === parent && (max === null || zone.order > max)) max = zone.order;
    return max === null ? 0 : max + 1;
  }

  create(input: { name: string; icon: string; parent: string | null; order: number }): HubZone {
    const id = randomUUID();
    this.statement('INSERT INTO zone (id, name, sort_order, parent, icon) VALUES (?, ?, ?, ?, ?)').run(
      id,
      input.name,
      input.order,
      input.parent,
      input.icon,
    );
    this.refresh(id);
    return this.get(id) as HubZone;
  }

  update(id: string, changes: { name?: string; icon?: string; parent?: string; order?: number }): HubZone | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const given = Object.entries(changes).filter(([, v]) => v !== undefined) as [keyof typeof columns, unknown][];
    const next = { ...current, ...Object.fromEntries(given) };
    // Only the given columns are written: a rename does not make SQLite check the parent's foreign key.
    if (given.length > 0) {
      this.statement(`UPDATE zone SET ${given.map(([key]) => `${columns[key]} = ?`).join(', ')} WHERE id = ?`).run(
        ...given.map(([, value]) => value),
        id,
      );
    }
    // The stored row is exactly `next`: put it in the in-memory copy without reading it back.
    const cached = caches.get(this.db);
    if (cached) {
      cached.zones.set(id, Object.freeze(next));
      cached.json = undefined;
    }
    return next;
  }

  /** Sets whether someone or something is active in the zone (presence and sensors call this). */
  setActive(id: string, active: boolean, at: number): HubZone | undefined {
    this.statement('UPDATE zone SET active = ?, active_last_updated = ? WHERE id = ?').run(
      active ? 1 : 0,
      new Date(at).toISOString(),
      id,
    );
    this.refresh(id);
    return this.get(id);
  }

  delete(id: string): boolean {
    const deleted = this.statement('DELETE FROM zone WHERE id = ?').run(id).changes > 0;
    this.refresh(id);
    return deleted;
  }
}
