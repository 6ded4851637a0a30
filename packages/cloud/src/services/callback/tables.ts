import type { ColumnType } from 'kysely';

export interface CallbackUrlsTable {
  id: string;
  user_id: string;
  callback_url: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface CallbackTables {
  callback_urls: CallbackUrlsTable;
}
