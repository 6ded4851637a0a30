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

/** A signed-in user's cart with their store locale. */
export interface StoreCartsTable {
  user_id: string;
  country: string;
  currency: string;
  language: string;
  items: Json<CartLine[]>;
  /** The buyer's data for checkout (`PUT /store/userdata`). */
  userdata: ColumnType<Record<string, string | boolean>, string | undefined, string>;
  updated_at: Timestamp;
}

export interface StoreTables {
  orders: OrdersTable;
  store_sessions: StoreSessionsTable;
  store_products: StoreProductsTable;
  store_carts: StoreCartsTable;
}
