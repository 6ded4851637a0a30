import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../../core/clock';
import type { HubDatabase, Migration } from '../../store/database';
import { SqlStore } from '../../store/statements';
import type { EventViewer, HubEvents } from '../events';
import { intersectedScopes, managesHousehold } from '../roles';
import type { UserRole } from './users';

export type SessionType = 'OAUTH' | 'APP' | 'PAT';

export interface HubSession {
  id: string;
  type: SessionType;
  userId: string;
  name: string;
  clientName: string | null;
  agent: string | null;
  /** Requested scopes; `null` when none were set. */
  scopes: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsed: string | null;
}

export const sessionMigrations: Migration[] = [
  {
    id: 'sessions-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE session (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL CHECK (type IN ('OAUTH', 'APP', 'PAT')),
        user_id TEXT NOT NULL REFERENCES user (id) ON DELETE CASCADE,
        name TEXT NOT NULL DEFAULT '',
        client_name TEXT,
        agent TEXT,
        token_hash TEXT NOT NULL UNIQUE,
        scopes TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        last_used TEXT
      )`),
  },
];

interface SessionRow {
  id: string;
  type: SessionType;
  user_id: string;
  name: string;
  client_name: string | null;
  agent: string | null;
  scopes: string | null;
  created_at: string;
  expires_at: string | null;
  last_used: string | null;
}

const toSession = (row: SessionRow): HubSession => ({
  id: row.id,
  type: row.type,
  userId: row.user_id,
  name: row.name,
  clientName: row.client_name,
  agent: row.agent,
  scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsed: row.last_used,
});

/** A session as the API answers it, never with its token; `role` is its user's, which caps its scopes. */
function sessionView(session: HubSession, role: UserRole = 'guest') {
  return {
    id: session.id,
    type: session.type,
    userId: session.userId,
    name: session.name,
    agent: session.agent,
    clientName: session.clientName,
    scopes: session.scopes,
    intersectedScopes: intersectedScopes(session.scopes, role),
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    lastUsed: session.lastUsed,
  };
}

/** Owners and managers see every session of the household; everyone else only their own. */
export const seesSession = (viewer: EventViewer, session: HubSession): boolean =>
  viewer.userId === session.userId || managesHousehold(viewer.role);

/** Tokens are high-entropy random strings, so a fast hash is enough to keep them unreadable at rest. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface NewSession {
  type: SessionType;
  userId: string;
  name?: string;
  clientName?: string | null;
  agent?: string | null;
  scopes: string[] | null;
  expiresAt?: string | null;
}

export class SessionStore extends SqlStore {
  /**
   * Every change is published on `homey:manager:sessions` to the sessions that may see it; `roleOf` gives a
   * session's user's role, which its answer's `intersectedScopes` depend on.
   */
  constructor(
    db: HubDatabase,
    private readonly clock: Clock,
    private readonly events?: HubEvents,
    private readonly roleOf: (userId: string) => UserRole | undefined = () => undefined,
  ) {
    super(db);
  }

  /** A session as the API answers it (its user's role caps its scopes). */
  view(session: HubSession) {
    return sessionView(session, this.roleOf(session.userId));
  }

  private publish(action: 'create' | 'update' | 'delete', session: HubSession): void {
    const data = action === 'delete' ? { id: session.id } : this.view(session);
    const view = (viewer: EventViewer) => (seesSession(viewer, session) ? data : undefined);
    this.events?.entity('sessions', 'session', action, data, 'homey.user.readonly', view);
  }

  /** Creates a session and answers it with its secret token, which is never stored. */
  create(input: NewSession): { session: HubSession; token: string } {
    const id = randomUUID();
    const prefix = input.type === 'PAT' ? 'hpat' : 'hses';
    const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
    this.statement(
      `INSERT INTO session (id, type, user_id, name, client_name, agent, token_hash, scopes, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      input.type,
      input.userId,
      input.name ?? '',
      input.clientName ?? null,
      input.agent ?? null,
      hashToken(token),
      input.scopes === null ? null : JSON.stringify(input.scopes),
      isoNow(this.clock),
      input.expiresAt ?? null,
    );
    const session = this.get(id) as HubSession;
    this.publish('create', session);
    return { session, token };
  }

  get(id: string): HubSession | undefined {
    const row = this.statement('SELECT * FROM session WHERE id = ?').get(id) as SessionRow | undefined;
    return row && toSession(row);
  }

  /** The live session a token belongs to; `undefined` for unknown or expired tokens. */
  findByToken(token: string): HubSession | undefined {
    const row = this.statement('SELECT * FROM session WHERE token_hash = ?').get(hashToken(token)) as SessionRow | undefined;
    if (!row) return undefined;
    if (row.expires_at !== null && Date.parse(row.expires_at) <= this.clock.now()) return undefined;
    return toSession(row);
  }

  /** Removes a user's personal access tokens of one name (used to replace the printed owner token). */
  revokeNamed(userId: string, name: string): void {
    for (const session of this.listPats(userId)) if (session.name === name) this.delete(session.id);
  }

  /** Live sessions, oldest first; only `userId`'s when given. */
  list(userId?: string): HubSession[] {
    const now = isoNow(this.clock);
    const rows = (
      userId === undefined
        ? this.statement('SELECT * FROM session WHERE expires_at IS NULL OR expires_at > ? ORDER BY created_at').all(now)
        : this.statement(
            'SELECT * FROM session WHERE user_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at',
          ).all(userId, now)
    ) as SessionRow[];
    return rows.map(toSession);
  }

  /** A user's personal access tokens. */
  listPats(userId: string): HubSession[] {
    return this.list(userId).filter((session) => session.type === 'PAT');
  }

  count(): number {
    return this.statement('SELECT COUNT(*) FROM session WHERE expires_at IS NULL OR expires_at > ?')
      .pluck()
      .get(isoNow(this.clock)) as number;
  }

  /** Revokes a session; realtime closes the sockets opened with it (`session.delete` on `homey:manager:sessions`). */
  delete(id: string): boolean {
    const session = this.get(id);
    if (!session) return false;
    this.statement('DELETE FROM session WHERE id = ?').run(id);
    this.publish('delete', session);
    return true;
  }

  /** Records that the session was used now (`lastUsed`). */
  touch(id: string): void {
    this.statement('UPDATE session SET last_used = ? WHERE id = ?').run(isoNow(this.clock), id);
    const session = this.get(id);
    if (session) this.publish('update', session);
  }
}
