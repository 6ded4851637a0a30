import type { ColumnType } from 'kysely';
import type { Json } from '../cloud/tables';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface OrderLine {
  sku: string;
  name: string;
  quantity: number;
  /** Price of one item in cents. */
  price: number;
}

export interface OrdersTable {
  id: string;
  user_id: string;
  number: string;
  status: string;
  currency: string;
  /** Total in cents. */
  total: number;
  items: Json<OrderLine[]>;
  shipping_address: Json<Record<string, string> | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Sum of the lines in cents, VAT included, before the discount. */
  subtotal: number | null;
  discount: ColumnType<number, number | undefined, number>;
  /** The VAT in `total`, in cents (0 under reverse charge). */
  vat: ColumnType<number, number | undefined, number>;
  vat_rate: number | null;
  reverse_charge: ColumnType<boolean, boolean | undefined, boolean>;
  vat_number: string | null;
  coupon_code: string | null;
  payment_method: string | null;
  /** The buyer's data as it was when ordering. */
  userdata: ColumnType<Record<string, string | boolean> | null, string | undefined, string>;
  paid_at: Timestamp | null;
  seq: ColumnType<number, never, never>;
  /** The hash of the guest cart token the order was made with: the guest pays it with that token. */
  guest_token_hash: string | null;
}

export interface StoreCouponsTable {
  code: string;
  campaign_id: string | null;
  expires_at: Timestamp | null;
  max_redeems: number | null;
  redeems: ColumnType<number, number | undefined, number>;
  new_customers_only: ColumnType<boolean, boolean | undefined, boolean>;
  discount_percent: ColumnType<number, number | undefined, number>;
  subscription_type: string | null;
  subscription_quantity: number | null;
  subscription_duration: string | null;
  created_at: CreatedAt;
}

export interface StoreCouponRedemptionsTable {
  coupon_code: string;
  user_id: string;
  order_id: string | null;
  created_at: CreatedAt;
}

export interface StorePaymentsTable {
  id: string;
  order_id: string;
  provider: string;
  provider_payment_id: string;
  idempotency_key: string;
  method: string;
  status: string;
  amount: number;
  currency: string;
  action_url: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface StorePaymentEventsTable {
  id: string;
  type: string;
  payment_id: string;
  received_at: CreatedAt;
}

/** The embedded test provider's side of its payments. */
export interface StoreTestPaymentsTable {
  id: string;
  idempotency_key: string;
  amount: number;
  currency: string;
  description: string;
  status: string;
  return_url: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Store web sessions (`POST /store/user/session`), stored only as hashes. */
export interface StoreSessionsTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** The catalogue (`catalogue.ts`), loaded at start; stock changes here. */
export interface StoreProductsTable {
  sku: string;
  kind: string;
  name: string;
  description: string;
  prices: Json<Record<string, number>>;
  stock: number | null;
  options: Json<{ id: string; values: string[] }[]>;
  subscription: Json<{ type: string; duration: string } | null>;
}

export interface CartLine {
  sku: string;
  quantity: number;
  options: Record<string, string>;
}

/** A cart with its store locale: a signed-in user's, or a guest's until checkout makes their account. */
export interface StoreCartsTable {
  /** The user's id for a cart made for a user; `g_…` for a guest's, which keeps it once it has an account. */
  id: string;
  user_id: string | null;
  /** A guest's cart: the hash of its token (`x-hearth-cart`), and when it expires; `null` once it has an account. */
  guest_token_hash: string | null;
  guest_expires_at: Timestamp | null;
  /** The password a guest chose for the account checkout makes, hashed. */
  account_password_hash: string | null;
  country: string;
  currency: string;
  language: string;
  items: Json<CartLine[]>;
  /** The buyer's data for checkout (`PUT /store/userdata`). */
  userdata: ColumnType<Record<string, string | boolean>, string | undefined, string>;
  coupon_code: string | null;
  payment_method: ColumnType<string, string | undefined, string>;
  updated_at: Timestamp;
}

export interface StoreTables {
  orders: OrdersTable;
  store_sessions: StoreSessionsTable;
  store_products: StoreProductsTable;
  store_carts: StoreCartsTable;
  store_coupons: StoreCouponsTable;
  store_coupon_redemptions: StoreCouponRedemptionsTable;
  store_payments: StorePaymentsTable;
  store_payment_events: StorePaymentEventsTable;
  store_test_payments: StoreTestPaymentsTable;
  store_receipts: StoreReceiptsTable;
  store_offers: StoreOffersTable;
  store_referrals: StoreReferralsTable;
  store_subscription_grants: StoreSubscriptionGrantsTable;
}

/**
 * The time one paid order added to one subscription: the end it moved the subscription from and to. A refund takes
 * back exactly that much (calendar arithmetic run backwards would not: see `platform/calendar.ts`).
 */
export interface StoreSubscriptionGrantsTable {
  id: ColumnType<string, never, never>;
  order_id: string;
  subscription_id: string;
  /** The subscription's end before the grant (or when it was granted, for a subscription the grant started). */
  extended_from: Timestamp;
  /** The subscription's end after the grant. */
  extended_to: Timestamp;
  refunded_at: Timestamp | null;
  created_at: CreatedAt;
}

/** An offer made to one user: a subscription for a time, redeemable once until it expires. */
export interface StoreOffersTable {
  id: string;
  user_id: string;
  campaign_id: string | null;
  expires_at: Timestamp | null;
  subscription_type: string;
  subscription_quantity: number;
  subscription_duration: string;
  redeemed_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A new customer who redeemed refer-a-friend, and who invited them. */
export interface StoreReferralsTable {
  invitee_id: string;
  inviter_id: string;
  created_at: CreatedAt;
  /** When the new customer's first paid order credited the inviter; `null` until then (or when capped). */
  credited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  credited_order_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** App-store transactions verified by the store, each once. */
export interface StoreReceiptsTable {
  transaction_id: string;
  user_id: string;
  kind: 'subscription' | 'one_time';
  sku: string;
  package_name: string;
  hub_id: string | null;
  purchased_at: Timestamp;
  expires_at: Timestamp | null;
  created_at: CreatedAt;
}
