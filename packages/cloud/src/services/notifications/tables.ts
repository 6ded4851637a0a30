import type { Kysely, Migration } from 'kysely';

export interface PushKeysTable {
  id: string;
  /** VAPID key pair (P-256), base64url as web-push takes them. */
  public_key: string;
  private_key: string;
}

export interface NotificationsTables {
  push_keys: PushKeysTable;
}

/** The cloud's VAPID key pair: made once, the same for every node (browsers subscribed with its public key). */
export const pushKeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('push_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .execute();
  },
};
