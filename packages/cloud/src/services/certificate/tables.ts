import type { Kysely, Migration } from 'kysely';

export interface CertificateAuthorityTable {
  id: string;
  certificate_pem: string;
  private_key_pem: string;
}

export interface CertificateTables {
  certificate_authority: CertificateAuthorityTable;
}

/** The cloud's CA: made once, the same for every node (clients trust its certificate). */
export const certificateAuthorityMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('certificate_authority')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('certificate_pem', 'text', (c) => c.notNull())
      .addColumn('private_key_pem', 'text', (c) => c.notNull())
      .execute();
  },
};
