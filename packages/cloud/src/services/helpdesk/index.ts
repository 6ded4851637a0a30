import { cloudOperations, HearthError } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { requireUser } from '../../platform/auth';
import type { CloudPrincipal } from '../../platform/context';
import type { CloudService } from '../service';
import { registerArticlePages } from './pages';
import { createHelpdesk } from './service';
import { registerSupportPage, supportFormDirectory } from './support-page';

/** Uploads of forms that were never sent are removed after a day; the sweep runs hourly. */
const UNCLAIMED_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
export const HELPDESK_UPLOAD_SWEEP = 'helpdesk-unclaimed-uploads';

/** Knowledge-base articles, ticket attachments and tickets under `/api/helpdesk`, and the support form at `/support`. */
export const helpdeskService: CloudService = {
  name: 'helpdesk',
  create: (context) => {
    const helpdesk = createHelpdesk(context);
    return {
      implementations: () =>
        implement<typeof cloudOperations.helpdesk, CloudPrincipal>(cloudOperations.helpdesk, {
          getArticle: ({ query }) => helpdesk.getArticle(query.id),
          uploadAttachment: async ({ query, principal, request, reply }) => {
            const userId = requireUser(principal);
            const length = request.headers['content-length'] ? Number(request.headers['content-length']) : null;
            try {
              return await helpdesk.storeAttachment(userId, query.filename, query.mimetype, request.body, length);
            } catch (error) {
              // The rest of a refused body is not read: close the connection after the answer instead of draining it.
              if (!request.raw.readableEnded) reply.header('connection', 'close');
              throw error;
            }
          },
          createTicket: async ({ body, principal, request, reply }) => {
            const userId = requireUser(principal);
            const header = request.headers['idempotency-key'];
            const key = typeof header === 'string' && header !== '' ? header : null;
            const { id, created } = await helpdesk.createTicket(userId, body, key);
            if (created) {
              // The ticket is stored; a mail server that is down must not turn it into an error the customer retries.
              await helpdesk
                .sendConfirmation(userId, id, body)
                .catch((error) => request.log.error({ err: error }, 'ticket confirmation mail failed'));
            }
            reply.header('Idempotent-Replayed', String(!created));
            return { ticketCreated: true, id };
          },
          getTicket: async ({ params }) => {
            const stored = await helpdesk.ticket(params.id);
            if (!stored) throw new HearthError('not_found', `Ticket not found: ${params.id}`);
            return {
              id: stored.id,
              userId: stored.user_id,
              createdAt: new Date(stored.created_at).toISOString(),
              ticket: stored.payload,
              attachments: stored.attachments.map((a) => ({
                token: a.token,
                filename: a.filename,
                mimetype: a.mimetype,
                size: Number(a.size),
              })),
            };
          },
        }),
      start: () => {
        context.sweeps.every(HELPDESK_UPLOAD_SWEEP, CLEANUP_INTERVAL_MS, () =>
          helpdesk.removeUnclaimedAttachments(UNCLAIMED_UPLOAD_MAX_AGE_MS),
        );
      },
      routes: async (app) => {
        // Attachments arrive as raw bytes and are streamed to disk by the handler: hand the stream over unparsed.
        if (!app.hasContentTypeParser('application/octet-stream')) {
          app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
        }
        registerArticlePages(app);
        registerSupportPage(app, supportFormDirectory());
      },
    };
  },
};
