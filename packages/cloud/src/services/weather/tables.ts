import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

export interface WeatherCacheTable {
  /** `<source>:<latitude>:<longitude>:<language>`, the place rounded to two decimals (about a kilometre). */
  key: string;
  data: ColumnType<unknown, string, string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface WeatherTables {
  weather_cache: WeatherCacheTable;
}

/** Weather answers kept ten minutes per place, shared by every cloud node. */
export const weatherCacheMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('weather_cache')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('weather_cache_expires').on('weather_cache').column('expires_at').execute();
  },
};
