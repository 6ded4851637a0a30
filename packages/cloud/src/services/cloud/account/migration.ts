import { type Kysely, type Migration, sql } from 'kysely';

/**
 * What the account pages need: verified e-mail addresses (accounts that existed before count as verified: the
 * platform vouched for them), two-factor sign-in (the TOTP secret, the last step used, recovery codes), data on
 * one-time tokens (the address a verification link is for) and household invitations.
 */
export const accountPagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('email_verified_at', 'timestamptz')
      .addColumn('totp_secret', 'text')
      .addColumn('totp_pending_secret', 'text')
      .addColumn('totp_enabled_at', 'timestamptz')
      .addColumn('totp_last_step', 'integer')
      .execute();
    await (db as unknown as Kysely<{ users: { email_verified_at: Date | null; created_at: Date } }>)
      .updateTable('users')
      .set({ email_verified_at: sql`created_at` })
      .execute();
    await db.schema.alterTable('one_time_tokens').addColumn('data', 'jsonb').execute();
    await db.schema.createIndex('one_time_tokens_user').on('one_time_tokens').column('user_id').execute();

    await db.schema
      .createTable('recovery_codes')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
      .execute();

    await db.schema
      .createTable('hub_invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hub_id', 'text', (c) => c.notNull().references('hubs.id').onDelete('cascade'))
      .addColumn('inviter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('accepted_at', 'timestamptz')
      .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('hub_invites_hub').on('hub_invites').column('hub_id').execute();
    await db.schema.createIndex('hubs_claim_token').on('hubs').column('claim_token_hash').execute();
  },
};
