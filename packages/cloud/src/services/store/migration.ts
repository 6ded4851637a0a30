import { type Kysely, type Migration, sql } from 'kysely';

/** The user's side of the store: orders and store web sessions. */
export const storeUserMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('orders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('number', 'text', (c) => c.notNull().unique())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('items', 'jsonb', (c) => c.notNull())
      .addColumn('shipping_address', 'jsonb')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('orders_user').on('orders').column('user_id').execute();
    await db.schema
      .createTable('store_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};

/** The catalogue's products and the users' carts (with their store locale). */
export const storeShopMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_products')
      .addColumn('sku', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('prices', 'jsonb', (c) => c.notNull())
      .addColumn('stock', 'integer')
      .addColumn('options', 'jsonb', (c) => c.notNull())
      .addColumn('subscription', 'jsonb')
      .execute();
    await db.schema
      .createTable('store_carts')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('items', 'jsonb', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};

/** The buyer's data for checkout, beside the cart. */
export const storeUserdataMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('store_carts')
      .addColumn('userdata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .execute();
  },
};
