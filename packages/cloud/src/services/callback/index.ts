import { cloudOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { requireUser } from '../../platform/auth';
import type { CloudPrincipal } from '../../platform/context';
import { newId } from '../../platform/tokens';
import type { CloudService } from '../service';

const callbackOps = cloudOperations.callback;

/**
 * The OAuth callback service (`/callback`): a signed-in user registers where an OAuth2 provider's answer should
 * go and gets a stable cloud address for it; `GET /callback/oauth2/:id` forwards the provider's query there.
 */
export const callbackService: CloudService = {
  name: 'callback',
  create: (context) => ({
    implementations: () => {
      const { db } = context.database;
      return implement<typeof callbackOps, CloudPrincipal>(callbackOps, {
        registerCallbackUrl: async ({ body, principal }) => {
          const userId = requireUser(principal);
          const existing = await db
            .selectFrom('callback_urls')
            .select('id')
            .where('user_id', '=', userId)
            .where('callback_url', '=', body.callback_url)
            .executeTakeFirst();
          const id = existing?.id ?? newId();
          if (!existing)
            await db.insertInto('callback_urls').values({ id, user_id: userId, callback_url: body.callback_url }).execute();
          return { _id: id, id, url: `${context.config.publicUrl}/callback/oauth2/${id}`, callback_url: body.callback_url };
        },
      });
    },
    routes: (app) => {
      const { db } = context.database;
      app.get<{ Params: { id: string } }>('/callback/oauth2/:id', { schema: { hide: true } }, async (request, reply) => {
        const row = await db
          .selectFrom('callback_urls')
          .select('callback_url')
          .where('id', '=', request.params.id)
          .executeTakeFirst();
        if (!row) throw notFound('Callback', request.params.id);
        const target = new URL(row.callback_url);
        const incoming = new URL(request.url, 'http://callback.local').searchParams;
        for (const [key, value] of incoming) target.searchParams.append(key, value);
        return reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(target.toString(), 302);
      });
    },
  }),
};
