import type { ColumnType, Kysely, Migration } from 'kysely';

export interface InfraredBrandsTable {
  id: string;
  name: string;
}

export interface InfraredDevicesTable {
  id: string;
  brand_id: string;
  type: string;
  name: string;
  protocol: string;
  device: number;
  subdevice: number | null;
  /** `[{ id, function }]`: the buttons and their function numbers; the Pronto hex is made from them when read. */
  functions: ColumnType<unknown, string, string>;
  /** Which data set the row came from (its source and licence are recorded beside the data). */
  dataset: string;
}

/** The search keys of a device's words (as the app search keeps them): exact, one letter deleted, prefixes. */
export interface InfraredSearchTable {
  device_id: string;
  key: string;
  word: string;
}

export interface InfraredTables {
  infrared_brands: InfraredBrandsTable;
  infrared_devices: InfraredDevicesTable;
  infrared_search: InfraredSearchTable;
}

export const infraredMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('infrared_brands')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('infrared_devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('brand_id', 'text', (c) => c.notNull().references('infrared_brands.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('protocol', 'text', (c) => c.notNull())
      .addColumn('device', 'integer', (c) => c.notNull())
      .addColumn('subdevice', 'integer')
      .addColumn('functions', 'jsonb', (c) => c.notNull())
      .addColumn('dataset', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('infrared_devices_brand').on('infrared_devices').columns(['brand_id', 'type']).execute();
    await db.schema
      .createTable('infrared_search')
      .addColumn('device_id', 'text', (c) => c.notNull().references('infrared_devices.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('word', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('infrared_search_pk', ['key', 'device_id', 'word'])
      .execute();
  },
};
