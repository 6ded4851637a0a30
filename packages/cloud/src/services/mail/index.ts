import { cloudOperations, HearthError, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import type { CloudService } from '../service';
import { devMailboxRoutes } from './dev-mailbox';
import { formattedMailHtml } from './format';

const mailOps = pick(cloudOperations.cloud, [
  'sendFormattedEmail',
  'subscribeUserToMailChimp',
  'upsertUserToMailChimp',
  'addTagToMailChimpUser',
  'removeTagFromMailChimpUser',
]);

/** Mail (`/cloud/mail/…`, internal only): formatted mail over SMTP and the cloud's own mailing lists. */
export function mailImplementations(context: CloudContext) {
  const { db } = context.database;

  async function member(listId: string, userId: string) {
    if (!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) throw notFound('User', userId);
    return db
      .selectFrom('mailing_list_members')
      .selectAll()
      .where('list_id', '=', listId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async function save(listId: string, userId: string, tags: string[]) {
    const unique = [...new Set(tags)];
    await db
      .insertInto('mailing_list_members')
      .values({ list_id: listId, user_id: userId, tags: JSON.stringify(unique), updated_at: new Date(context.clock.now()) })
      .onConflict((oc) =>
        oc
          .columns(['list_id', 'user_id'])
          .doUpdateSet({ tags: JSON.stringify(unique), updated_at: new Date(context.clock.now()) }),
      )
      .execute();
    return { listId, userId, tags: unique };
  }

  return implement<typeof mailOps, CloudPrincipal>(mailOps, {
    sendFormattedEmail: async ({ body }) => {
      let to = body.to;
      if (!to && body.toHomeyOwner) {
        const owner = await db
          .selectFrom('hubs')
          .innerJoin('users', 'users.id', 'hubs.owner_user_id')
          .select('users.email')
          .where('hubs.id', '=', body.toHomeyOwner)
          .executeTakeFirst();
        if (!owner) throw notFound('Hub owner', body.toHomeyOwner);
        to = owner.email;
      }
      if (!to) throw new HearthError('missing_parameter', 'Missing Parameter: to');
      return context.mail.send({
        to,
        subject: body.subject,
        text: body.body,
        html: formattedMailHtml(body),
        ...(body.from ? { from: body.from } : {}),
        ...(body.replyTo ? { replyTo: body.replyTo } : {}),
      });
    },
    subscribeUserToMailChimp: async ({ body }) => {
      const existing = await member(body.listId, body.userId);
      return save(body.listId, body.userId, [...(existing?.tags ?? []), ...(body.tags ?? [])]);
    },
    upsertUserToMailChimp: async ({ body }) => {
      const existing = await member(body.listId, body.userId);
      return save(body.listId, body.userId, body.tags ?? existing?.tags ?? []);
    },
    addTagToMailChimpUser: async ({ body }) => {
      const existing = await member(body.listId, body.userId);
      if (!existing) throw notFound('List member', body.userId);
      return save(body.listId, body.userId, [...existing.tags, body.tag]);
    },
    removeTagFromMailChimpUser: async ({ params }) => {
      const existing = await member(params.listId, params.userId);
      if (!existing) throw notFound('List member', params.userId);
      await save(
        params.listId,
        params.userId,
        existing.tags.filter((t) => t !== params.tag),
      );
    },
  });
}

export const mailService: CloudService = {
  name: 'mail',
  create: (context) => ({
    implementations: () => mailImplementations(context),
    routes: (app) => devMailboxRoutes(app, context),
  }),
};
