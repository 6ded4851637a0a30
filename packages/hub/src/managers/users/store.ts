import { randomUUID } from 'node:crypto';
import type { HubDatabase, Migration } from '../../store/database';

export type UserRole = 'owner' | 'manager' | 'user' | 'guest';

export interface HubUser {
  id: string;
  name: string;
  athomId: string | null;
  role: UserRole;
  enabled: boolean;
  verified: boolean;
  present: boolean;
  asleep: boolean;
  properties: Record<string, unknown>;
}

export const userMigrations: Migration[] = [
  {
    id: 'users-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE user (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        athom_id TEXT UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'user', 'guest')),
        enabled INTEGER NOT NULL DEFAULT 1,
        verified INTEGER NOT NULL DEFAULT 1,
        present INTEGER NOT NULL DEFAULT 0,
        asleep INTEGER NOT NULL DEFAULT 0,
        properties TEXT NOT NULL DEFAULT '{}'
      )`),
  },
];

interface UserRow {
  id: string;
  name: string;
  athom_id: string | null;
  role: UserRole;
  enabled: number;
  verified: number;
  present: number;
  asleep: number;
  properties: string;
}

const toUser = (row: UserRow): HubUser => ({
  id: row.id,
  name: row.name,
  athomId: row.athom_id,
  role: row.role,
  enabled: row.enabled === 1,
  verified: row.verified === 1,
  present: row.present === 1,
  asleep: row.asleep === 1,
  properties: JSON.parse(row.properties) as Record<string, unknown>,
});

export class UserStore {
  constructor(private readonly db: HubDatabase) {}

  get(id: string): HubUser | undefined {
    const row = this.db.prepare('SELECT * FROM user WHERE id = ?').get(id) as UserRow | undefined;
    return row && toUser(row);
  }

  owner(): HubUser | undefined {
    const row = this.db.prepare("SELECT * FROM user WHERE role = 'owner' LIMIT 1").get() as UserRow | undefined;
    return row && toUser(row);
  }

  /** The owner, created on first start so a hub is usable without any cloud. */
  ensureOwner(name: string, athomId: string | null): HubUser {
    const existing = this.owner();
    if (existing) return existing;
    const id = randomUUID();
    this.db.prepare("INSERT INTO user (id, name, athom_id, role) VALUES (?, ?, ?, 'owner')").run(id, name, athomId);
    return this.get(id) as HubUser;
  }
}
