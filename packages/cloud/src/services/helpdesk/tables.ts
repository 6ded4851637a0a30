import { type ColumnType, type Kysely, type Migration, sql } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface HelpdeskTicketsTable {
  id: string;
  user_id: string;
  /** The client's Idempotency-Key: the same key of the same user never creates a second ticket. */
  idempotency_key: string | null;
  subject: string;
  message: string;
  /** The whole ticket payload as sent (seed section 7), as JSON text. */
  payload: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}

export interface HelpdeskAttachmentsTable {
  token: string;
  user_id: string;
  /** Set when a ticket claims the upload; an upload belongs to one ticket at most. */
  ticket_id: string | null;
  filename: string;
  mimetype: string;
  size: number;
  created_at: CreatedAt;
}

export interface HelpdeskTables {
  helpdesk_tickets: HelpdeskTicketsTable;
  helpdesk_attachments: HelpdeskAttachmentsTable;
}

/** Support tickets and their attachments (the files themselves live on disk, named by token). */
export const helpdeskMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('helpdesk_tickets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('idempotency_key', 'text')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('payload', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('helpdesk_tickets_idempotency', ['user_id', 'idempotency_key'])
      .execute();
    await db.schema
      .createTable('helpdesk_attachments')
      .addColumn('token', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('ticket_id', 'text', (c) => c.references('helpdesk_tickets.id').onDelete('cascade'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mimetype', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('helpdesk_attachments_ticket').on('helpdesk_attachments').column('ticket_id').execute();
  },
};
