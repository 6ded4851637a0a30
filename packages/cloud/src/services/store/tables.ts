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

export interface StoreTables {
  orders: OrdersTable;
  store_sessions: StoreSessionsTable;
}
