import { HUB_LOGIC_WEBHOOK_ID } from '@hearth/contract';
import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

type Json<T> = ColumnType<T, string, string>;
type Created = ColumnType<Date, Date | string | undefined, never>;

export interface WebhooksTable {
  id: string;
  /** The developer who owns it; `null` for the provider's own (the hubs' flow webhook). */
  user_id: string | null;
  name: string;
  fn: string;
  key_path: string;
  created_at: Created;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface WebhookClientsTable {
  webhook_id: string;
  hub_id: string;
  data: Json<Record<string, unknown>>;
  /** `data.$key` as text, indexed: what a call's key is looked up by. */
  match_key: string | null;
  callback_url: string | null;
  registered_at: ColumnType<Date, Date | string, Date | string>;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  hub_id: string;
  /** The signed JSON text sent to the hub, the same on every attempt. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** When a node may try it (again); a node taking it moves this past its attempt, so no other node sends it meanwhile. */
  next_attempt_at: ColumnType<Date, Date | string, Date | string>;
  last_status: number | null;
  last_error: string | null;
  created_at: Created;
  delivered_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_clients: WebhookClientsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

/** Webhooks, the hubs registered for them and the deliveries to those hubs; and the provider's flow webhook. */
export const webhooksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('fn', 'text', (c) => c.notNull())
      .addColumn('key_path', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();
    await db.schema
      .createTable('webhook_clients')
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('hub_id', 'text', (c) => c.notNull())
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('match_key', 'text')
      .addColumn('callback_url', 'text')
      .addColumn('registered_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('webhook_clients_pk', ['webhook_id', 'hub_id'])
      .execute();
    await db.schema.createIndex('webhook_clients_key').on('webhook_clients').columns(['webhook_id', 'match_key']).execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('hub_id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('pending', 'delivered', 'failed')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('delivered_at', 'timestamptz')
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['state', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_listed')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'created_at'])
      .execute();
    // Through the query builder, so the insert lands in the schema the migration runs in.
    await (db as Kysely<WebhookTables>)
      .insertInto('webhooks')
      .values({ id: HUB_LOGIC_WEBHOOK_ID, user_id: null, name: 'Hearth flows', fn: '', key_path: 'query.key' })
      .execute();
  },
};
