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

/** Orders made from the cart, their payments and the provider's events, coupons and their redemptions. */
export const storeOrdersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    let orders = db.schema.alterTable('orders');
    for (const [name, type] of [
      ['subtotal', 'integer'],
      ['vat_rate', 'integer'],
      ['vat_number', 'text'],
      ['coupon_code', 'text'],
      ['payment_method', 'text'],
      ['userdata', 'jsonb'],
      ['paid_at', 'timestamptz'],
    ] as const)
      await orders.addColumn(name, type).execute();
    orders = db.schema.alterTable('orders');
    await orders.addColumn('discount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await orders.addColumn('vat', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await orders.addColumn('reverse_charge', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
    // Order numbers come from a sequence: each node gets its own without asking the others.
    await db.schema.alterTable('orders').addColumn('seq', 'serial').execute();
    await db.schema.alterTable('store_carts').addColumn('coupon_code', 'text').execute();
    await db.schema
      .alterTable('store_carts')
      .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo('card'))
      .execute();

    await db.schema
      .createTable('store_coupons')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('campaign_id', 'text')
      .addColumn('expires_at', 'timestamptz')
      .addColumn('max_redeems', 'integer')
      .addColumn('redeems', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('new_customers_only', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('discount_percent', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('subscription_type', 'text')
      .addColumn('subscription_quantity', 'integer')
      .addColumn('subscription_duration', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // One redemption per user and coupon: the key refuses a second, whichever node tries it.
    await db.schema
      .createTable('store_coupon_redemptions')
      .addColumn('coupon_code', 'text', (c) => c.notNull().references('store_coupons.code').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('order_id', 'text', (c) => c.references('orders.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('store_coupon_redemptions_pk', ['coupon_code', 'user_id'])
      .execute();

    await db.schema
      .createTable('store_payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_payment_id', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('action_url', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('store_payments_provider_id', ['provider', 'provider_payment_id'])
      .execute();
    await db.schema.createIndex('store_payments_order').on('store_payments').column('order_id').execute();
    // Each provider event is handled once: a redelivered one finds its id here.
    await db.schema
      .createTable('store_payment_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payment_id', 'text', (c) => c.notNull())
      .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // The embedded test provider's own books, as a real provider keeps them on its side.
    await db.schema
      .createTable('store_test_payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('return_url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};

/** App-store transactions verified here: each is taken once, which refuses a replayed receipt. */
export const storeReceiptsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_receipts')
      .addColumn('transaction_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('sku', 'text', (c) => c.notNull())
      .addColumn('package_name', 'text', (c) => c.notNull())
      .addColumn('hub_id', 'text', (c) => c.references('hubs.id').onDelete('set null'))
      .addColumn('purchased_at', 'timestamptz', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('store_receipts_user').on('store_receipts').column('user_id').execute();
  },
};

/** Offers made to one user, and refer-a-friend: one row per new customer, which credits their inviter once. */
export const storeOffersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_offers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('campaign_id', 'text')
      .addColumn('expires_at', 'timestamptz')
      .addColumn('subscription_type', 'text', (c) => c.notNull())
      .addColumn('subscription_quantity', 'integer', (c) => c.notNull())
      .addColumn('subscription_duration', 'text', (c) => c.notNull())
      .addColumn('redeemed_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('store_offers_user').on('store_offers').column('user_id').execute();
    await db.schema
      .createTable('store_referrals')
      .addColumn('invitee_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('inviter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};

/**
 * Guests' carts: a cart gets an id of its own, so it may belong to a guest (no user, a token's hash) until checkout
 * makes their account, when it becomes that account's cart. A user still has one cart (`user_id` unique).
 */
export const storeGuestCartsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // The builders, not raw SQL: they name the tables in the cloud's schema.
    const carts = () => db.schema.alterTable('store_carts');
    await carts().addColumn('id', 'text').execute();
    await (db as Kysely<{ store_carts: { id: string; user_id: string } }>)
      .updateTable('store_carts')
      .set((eb) => ({ id: eb.ref('user_id') }))
      .execute();
    await carts().dropConstraint('store_carts_pkey').execute();
    await carts().addPrimaryKeyConstraint('store_carts_pkey', ['id']).execute();
    await carts()
      .alterColumn('user_id', (c) => c.dropNotNull())
      .execute();
    await db.schema.createIndex('store_carts_user').unique().on('store_carts').column('user_id').execute();
    await db.schema
      .alterTable('store_carts')
      .addColumn('guest_token_hash', 'text', (c) => c.unique())
      .execute();
    await db.schema.alterTable('store_carts').addColumn('guest_expires_at', 'timestamptz').execute();
    // The password a guest chose for the account checkout makes, hashed as the account's will be.
    await db.schema.alterTable('store_carts').addColumn('account_password_hash', 'text').execute();
    // A guest pays the order their cart made with the cart's token: the order keeps its hash.
    await db.schema.alterTable('orders').addColumn('guest_token_hash', 'text').execute();
    await db.schema.createIndex('orders_guest_token').on('orders').column('guest_token_hash').execute();
  },
};

/** What each paid order added to a subscription, so that its refund takes back exactly that. */
export const storeSubscriptionGrantsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_subscription_grants')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
      .addColumn('extended_from', 'timestamptz', (c) => c.notNull())
      .addColumn('extended_to', 'timestamptz', (c) => c.notNull())
      .addColumn('refunded_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('store_subscription_grants_order').on('store_subscription_grants').column('order_id').execute();
  },
};

/** Refer-a-friend credits the inviter at the new customer's first paid order, not at the redemption. */
export const storeReferralCreditsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('store_referrals').addColumn('credited_at', 'timestamptz').execute();
    await db.schema.alterTable('store_referrals').addColumn('credited_order_id', 'text').execute();
    // Inviters credited at redemption before this change keep their month, and count towards their cap.
    await (db as Kysely<{ store_referrals: { credited_at: Date | null; created_at: Date } }>)
      .updateTable('store_referrals')
      .set((eb) => ({ credited_at: eb.ref('created_at') }))
      .execute();
  },
};
