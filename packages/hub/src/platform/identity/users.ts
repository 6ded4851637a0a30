import { createHash, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { type Clock, isoNow } from '../../core/clock';
import { type HubDatabase, type Migration, transact } from '../../store/database';
import { SqlStore } from '../../store/statements';
import type { EventViewer, HubEvents } from '../events';
import { managesHousehold } from '../roles';

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
  {
    id: 'users-002-invites-and-local-credentials',
    up: (db) =>
      db.exec(`ALTER TABLE user ADD COLUMN invite_hash TEXT;
        ALTER TABLE user ADD COLUMN created_at TEXT;
        CREATE TABLE user_credential (
          user_id TEXT PRIMARY KEY REFERENCES user (id) ON DELETE CASCADE,
          username TEXT NOT NULL UNIQUE COLLATE NOCASE,
          password_hash TEXT NOT NULL
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

/** Fields of a user that can change after creation. */
export interface UserChanges {
  name?: string;
  role?: UserRole;
  enabled?: boolean;
  verified?: boolean;
  present?: boolean;
  asleep?: boolean;
  athomId?: string | null;
  properties?: Record<string, unknown>;
}

const columns: Record<keyof UserChanges, string> = {
  name: 'name',
  role: 'role',
  enabled: 'enabled',
  verified: 'verified',
  present: 'present',
  asleep: 'asleep',
  athomId: 'athom_id',
  properties: 'properties',
};

const toColumnValue = (value: unknown): unknown =>
  typeof value === 'boolean' ? (value ? 1 : 0) : typeof value === 'object' && value !== null ? JSON.stringify(value) : value;

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** A user as `viewer` sees them: another user's properties only owners and managers may read. */
export function userView(user: HubUser, viewer: EventViewer | null): HubUser {
  if (!viewer || viewer.userId === user.id || managesHousehold(viewer.role)) return user;
  return { ...user, properties: {} };
}

/** The hub's users. Every change is published as `user.create` / `user.update` / `user.delete` on `homey:manager:users`. */
export class UserStore extends SqlStore {
  constructor(
    private readonly db: HubDatabase,
    private readonly clock: Clock,
    private readonly events?: HubEvents,
  ) {
    super(db);
  }

  /** Announces a changed user; each session receives them as the API would answer that session. */
  private publish(action: 'create' | 'update', user: HubUser): void {
    this.events?.entity('users', 'user', action, user, 'homey.user.readonly', (viewer) => userView(user, viewer));
  }

  get(id: string): HubUser | undefined {
    const row = this.statement('SELECT * FROM user WHERE id = ?').get(id) as UserRow | undefined;
    return row && toUser(row);
  }

  list(): HubUser[] {
    return (this.statement('SELECT * FROM user ORDER BY created_at, rowid').all() as UserRow[]).map(toUser);
  }

  count(): number {
    return this.statement('SELECT COUNT(*) FROM user').pluck().get() as number;
  }

  findByAthomId(athomId: string): HubUser | undefined {
    const row = this.statement('SELECT * FROM user WHERE athom_id = ?').get(athomId) as UserRow | undefined;
    return row && toUser(row);
  }

  owner(): HubUser | undefined {
    const row = this.statement("SELECT * FROM user WHERE role = 'owner' LIMIT 1").get() as UserRow | undefined;
    return row && toUser(row);
  }

  /** The owner, created on first start so a hub is usable without any cloud. */
  ensureOwner(name: string, athomId: string | null): HubUser {
    const existing = this.owner();
    if (existing) return existing;
    return this.create({ name, role: 'owner', athomId });
  }

  create(input: {
    name: string;
    role: UserRole;
    athomId?: string | null;
    enabled?: boolean;
    verified?: boolean;
    properties?: Record<string, unknown>;
    inviteToken?: string;
  }): HubUser {
    const id = randomUUID();
    this.statement(
      `INSERT INTO user (id, name, athom_id, role, enabled, verified, properties, invite_hash, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      input.name,
      input.athomId ?? null,
      input.role,
      input.enabled === false ? 0 : 1,
      input.verified === false ? 0 : 1,
      JSON.stringify(input.properties ?? {}),
      input.inviteToken === undefined ? null : hashSecret(input.inviteToken),
      isoNow(this.clock),
    );
    const user = this.get(id) as HubUser;
    this.publish('create', user);
    return user;
  }

  /** Changes the given fields; answers the updated user, or `undefined` when there is no such user. */
  update(id: string, changes: UserChanges): HubUser | undefined {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof UserChanges, unknown][];
    if (entries.length > 0) {
      const set = entries.map(([key]) => `${columns[key]} = ?`).join(', ');
      this.statement(`UPDATE user SET ${set} WHERE id = ?`).run(...entries.map(([, value]) => toColumnValue(value)), id);
    }
    const user = this.get(id);
    if (user && entries.length > 0) this.publish('update', user);
    return user;
  }

  setPresent(id: string, present: boolean): HubUser | undefined {
    return this.update(id, { present });
  }

  setAsleep(id: string, asleep: boolean): HubUser | undefined {
    return this.update(id, { asleep });
  }

  /** Deletes a user with its sessions and credentials. */
  delete(id: string): boolean {
    const deleted = this.statement('DELETE FROM user WHERE id = ?').run(id).changes > 0;
    if (deleted) this.events?.entity('users', 'user', 'delete', { id }, 'homey.user.readonly');
    return deleted;
  }

  /** Makes `newOwnerId` the owner and the previous owner a manager, atomically. */
  swapOwner(newOwnerId: string): HubUser {
    const previous = this.owner();
    transact(this.db, () => {
      if (previous) this.statement("UPDATE user SET role = 'manager' WHERE id = ?").run(previous.id);
      this.statement("UPDATE user SET role = 'owner' WHERE id = ?").run(newOwnerId);
    });
    const demoted = previous && this.get(previous.id);
    if (demoted) this.publish('update', demoted);
    const owner = this.get(newOwnerId) as HubUser;
    this.publish('update', owner);
    return owner;
  }

  /** The invited, not yet verified user an invitation secret belongs to. */
  findByInvite(inviteToken: string): HubUser | undefined {
    const row = this.statement('SELECT * FROM user WHERE invite_hash = ? AND verified = 0').get(hashSecret(inviteToken)) as
      | UserRow
      | undefined;
    return row && toUser(row);
  }

  /** Binds an invited user to a cloud account; the invitation can be used only once. */
  acceptInvite(id: string, athomId: string, name: string | undefined): HubUser {
    this.statement('UPDATE user SET invite_hash = NULL WHERE id = ?').run(id);
    return this.update(id, { athomId, verified: true, ...(name ? { name } : {}) }) as HubUser;
  }

  /** Sets a user's local username and password (scrypt); throws `conflict` via the caller when the name is taken. */
  async setCredentials(userId: string, username: string, password: string): Promise<'ok' | 'taken'> {
    const taken = this.statement('SELECT user_id FROM user_credential WHERE username = ?').pluck().get(username) as
      | string
      | undefined;
    if (taken !== undefined && taken !== userId) return 'taken';
    const salt = randomBytes(16);
    const hash = await scryptAsync(password, salt, 32);
    this.statement(
      `INSERT INTO user_credential (user_id, username, password_hash) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET username = excluded.username, password_hash = excluded.password_hash`,
    ).run(userId, username, `${salt.toString('base64')}:${hash.toString('base64')}`);
    return 'ok';
  }

  deleteCredentials(userId: string): void {
    this.statement('DELETE FROM user_credential WHERE user_id = ?').run(userId);
  }

  /** The enabled user whose local credentials match, or `undefined`. Always hashes, so timing does not reveal usernames. */
  async verifyCredentials(username: string, password: string): Promise<HubUser | undefined> {
    const row = this.statement('SELECT user_id, password_hash FROM user_credential WHERE username = ?').get(username) as
      | { user_id: string; password_hash: string }
      | undefined;
    const [saltText, hashText] = (row?.password_hash ?? `${randomBytes(16).toString('base64')}:`).split(':');
    const expected = Buffer.from(hashText ?? '', 'base64');
    const actual = await scryptAsync(password, Buffer.from(saltText ?? '', 'base64'), 32);
    if (!row || expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    const user = this.get(row.user_id);
    return user?.enabled ? user : undefined;
  }
}
