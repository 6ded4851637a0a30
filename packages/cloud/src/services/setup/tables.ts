import type { SetupStateValue } from '@hearth/contract';
import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type JsonColumn<T> = ColumnType<T, string, string>;

export interface SetupSessionsTable {
  id: string;
  /** `null` while a session a hub opened waits for the account that opens it by id. */
  user_id: string | null;
  hub_id: string | null;
  sn: string | null;
  state: SetupStateValue;
  /** SHA-256 of the hub's credential: the token itself is answered once, to whoever opened the session. */
  hub_token_hash: string;
  data: JsonColumn<Record<string, unknown>>;
  /** The account's delegation token for the hub to sign its owner in with; short-lived, and gone with the session. */
  delegation_token: string | null;
  reset: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: Timestamp;
  expires_at: Timestamp;
}

export interface SetupCommandsTable {
  id: string;
  /** The order the app sent commands in (several may share a millisecond). */
  seq: ColumnType<string | number, never, never>;
  session_id: string;
  manager: string;
  command: string;
  args: JsonColumn<Record<string, unknown>>;
  result: ColumnType<unknown[] | null, string | null, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  answered_at: Timestamp | null;
}

export interface SetupTables {
  setup_sessions: SetupSessionsTable;
  setup_commands: SetupCommandsTable;
}

/** Device setup sessions and the commands the app sends the hub through them. */
export const setupSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('setup_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('hub_id', 'text')
      .addColumn('sn', 'text')
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state IN ('created', 'homey_connected', 'signed_in', 'configured', 'done')`),
      )
      .addColumn('hub_token_hash', 'text', (c) => c.notNull())
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('delegation_token', 'text')
      .addColumn('reset', 'jsonb')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('setup_sessions_user').on('setup_sessions').columns(['user_id', 'expires_at']).execute();
    await db.schema.createIndex('setup_sessions_expiry').on('setup_sessions').column('expires_at').execute();
    await db.schema
      .createTable('setup_commands')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'bigserial', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull().references('setup_sessions.id').onDelete('cascade'))
      .addColumn('manager', 'text', (c) => c.notNull())
      .addColumn('command', 'text', (c) => c.notNull())
      .addColumn('args', 'jsonb', (c) => c.notNull())
      .addColumn('result', 'jsonb')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('answered_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('setup_commands_session').on('setup_commands').columns(['session_id', 'seq']).execute();
  },
};
