import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** A WebAuthn credential that signs in to an account: its public key (base64url COSE) and signature counter. */
export interface PasskeysTable {
  /** The credential id, base64url, as the authenticator names it. */
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  /** bigint: text from `pg`, a number from PGlite; read it with `Number()`. */
  counter: ColumnType<string | number, number, number>;
  transports: ColumnType<string[], string, string>;
  device_type: string;
  backed_up: boolean;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

/**
 * A challenge handed to a browser for one WebAuthn ceremony, usable once: `user_id` for registering a passkey to that
 * account, `null` for signing in (the passkey says whose it is). Kept in the database, as every node must accept
 * the answer to a challenge another node issued.
 */
export interface WebAuthnChallengesTable {
  challenge: string;
  purpose: 'register' | 'sign_in';
  user_id: string | null;
  expires_at: Timestamp;
}

export interface PasskeyTables {
  passkeys: PasskeysTable;
  webauthn_challenges: WebAuthnChallengesTable;
}

export const passkeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', 'boolean', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_used_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
};
