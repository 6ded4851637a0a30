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
  /** The protocol most of its codes use, `raw` when they are all captures. */
  protocol: string;
  /** The device and subdevice numbers all its protocol codes share, `null` when they differ or it has none. */
  device: number | null;
  subdevice: number | null;
  /**
   * Its codes, gzipped JSON as the data file holds them (`[key, name, repeat, protocol, D, S, F]` or
   * `[key, name, repeat, pronto]`): air conditioners carry hundreds of whole-state captures each, 200 MB unpacked.
   */
  codes: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  /** `{ name, licence, note }`: where its codes come from. */
  source: ColumnType<unknown, string, string>;
  /** The data file's version the row was loaded from. */
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

/**
 * The real data set replaces the sample: codes per code rather than function numbers per device (a device's codes
 * may mix protocols, or be captures). The tables hold only reference data loaded at start, so they are made anew.
 */
export const infraredDatasetMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropTable('infrared_search').execute();
    await db.schema.dropTable('infrared_devices').execute();
    await db.schema
      .createTable('infrared_devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('brand_id', 'text', (c) => c.notNull().references('infrared_brands.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('protocol', 'text', (c) => c.notNull())
      .addColumn('device', 'integer')
      .addColumn('subdevice', 'integer')
      .addColumn('codes', 'bytea', (c) => c.notNull())
      .addColumn('source', 'jsonb', (c) => c.notNull())
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
    await (db as Kysely<InfraredTables>).deleteFrom('infrared_brands').execute();
  },
};
