import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { TicketRequest } from '@hearth/contract';
import { HELPDESK_LIMITS, HearthError, invalidParameter } from '@hearth/contract';
import type { Static } from 'typebox';
import type { CloudContext } from '../../platform/context';
import { articleById } from './articles';
import { articlePath } from './pages';
import { attachmentKey, newToken, streamToBlob } from './storage';

export type TicketInput = Static<typeof TicketRequest>;

const IDEMPOTENCY_KEY = /^[\w.:-]{8,200}$/;

/** The helpdesk's logic: articles, attachment uploads and tickets, each for the signed-in user only. */
export function createHelpdesk(context: CloudContext) {
  const { db } = context.database;
  const { blobs } = context;

  return {
    getArticle(id: string) {
      const article = articleById.get(id);
      if (!article) throw new HearthError('not_found', `Article not found: ${id}`);
      return { id: article.id, name: article.name, html_url: `${context.config.publicUrl}${articlePath(article.id)}` };
    },

    async storeAttachment(userId: string, filename: string, mimetype: string, body: unknown, declaredLength: number | null) {
      if (declaredLength !== null && declaredLength > HELPDESK_LIMITS.maxAttachmentBytes) {
        throw new HearthError('payload_too_large', 'Attachment exceeds the maximum file size of 50MB');
      }
      if (!body || (typeof (body as Readable).pipe !== 'function' && !Buffer.isBuffer(body))) {
        throw new HearthError(
          'unsupported_media_type',
          'Send the file as the raw body with Content-Type: application/octet-stream',
        );
      }
      const token = newToken();
      const size = await streamToBlob(blobs, attachmentKey(token), body as Readable | Buffer, HELPDESK_LIMITS.maxAttachmentBytes);
      await db
        .insertInto('helpdesk_attachments')
        .values({ token, user_id: userId, ticket_id: null, filename, mimetype, size })
        .execute();
      return { token };
    },

    /**
     * Creates the ticket and claims its uploads in one transaction. With an idempotency key already used by
     * this user, answers that ticket instead and creates nothing (`created: false`).
     */
    async createTicket(userId: string, input: TicketInput, idempotencyKey: string | null) {
      if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey))
        throw invalidParameter('Idempotency-Key', 'Use 8 to 200 letters, digits, dots, colons, dashes or underscores.');
      if (input.subject.trim().length < HELPDESK_LIMITS.subjectMinLength)
        throw invalidParameter('subject', 'Please add a subject.');
      const tokens = [...new Set(input.uploadTokens)];
      if (tokens.length !== input.uploadTokens.length) throw invalidParameter('uploadTokens', 'An upload token is listed twice.');
      if (idempotencyKey !== null) {
        const existing = await db
          .selectFrom('helpdesk_tickets')
          .select('id')
          .where('user_id', '=', userId)
          .where('idempotency_key', '=', idempotencyKey)
          .executeTakeFirst();
        if (existing) return { id: existing.id, created: false };
      }
      const id = randomUUID();
      const created = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('helpdesk_tickets')
          .values({
            id,
            user_id: userId,
            idempotency_key: idempotencyKey,
            subject: input.subject,
            message: input.message,
            payload: JSON.stringify(input),
          })
          .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) return false;
        if (tokens.length > 0) {
          const claimed = await trx
            .updateTable('helpdesk_attachments')
            .set({ ticket_id: id })
            .where('token', 'in', tokens)
            .where('user_id', '=', userId)
            .where('ticket_id', 'is', null)
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== tokens.length)
            throw invalidParameter('uploadTokens', 'An upload token is unknown, not yours or already used by another ticket.');
        }
        return true;
      });
      if (!created && idempotencyKey !== null) {
        // A concurrent request with the same key won the race: answer its ticket.
        const winner = await db
          .selectFrom('helpdesk_tickets')
          .select('id')
          .where('user_id', '=', userId)
          .where('idempotency_key', '=', idempotencyKey)
          .executeTakeFirstOrThrow();
        return { id: winner.id, created: false };
      }
      return { id, created: true };
    },

    /** Deletes uploads no ticket claimed within `maxAgeMs` (abandoned forms), rows and files. Answers how many. */
    async removeUnclaimedAttachments(maxAgeMs: number, now = new Date(context.clock.now())) {
      const cutoff = new Date(now.getTime() - maxAgeMs);
      const stale = await db
        .deleteFrom('helpdesk_attachments')
        .where('ticket_id', 'is', null)
        .where('created_at', '<', cutoff)
        .returning('token')
        .execute();
      await Promise.all(stale.map(({ token }) => blobs.delete(attachmentKey(token))));
      return stale.length;
    },

    async ticket(id: string) {
      const ticket = await db.selectFrom('helpdesk_tickets').selectAll().where('id', '=', id).executeTakeFirst();
      const attachments = await db
        .selectFrom('helpdesk_attachments')
        .selectAll()
        .where('ticket_id', '=', id)
        .orderBy('filename')
        .execute();
      return ticket ? { ...ticket, attachments } : null;
    },

    /** The customer's confirmation e-mail, to the address of their account. */
    async sendConfirmation(userId: string, ticketId: string, input: TicketInput) {
      const user = await db.selectFrom('users').select(['email', 'firstname']).where('id', '=', userId).executeTakeFirst();
      if (!user) return;
      const text = [
        `Hi ${user.firstname || 'there'},`,
        '',
        'Thanks for your message! Our support team is working to get back to you as soon as possible.',
        '',
        `Ticket: ${ticketId}`,
        `Subject: ${input.subject}`,
        '',
        input.message,
        '',
        '— Hearth Support',
      ].join('\n');
      await context.mail.send({ to: user.email, subject: `We received your question: ${input.subject}`, text });
    },
  };
}

export type Helpdesk = ReturnType<typeof createHelpdesk>;
