import { cloudOperations, HearthError, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal, CloudService } from '../../platform/context';
import { pick } from '../../platform/pick';

const mailOps = pick(cloudOperations.cloud, [
  'sendFormattedEmail',
  'subscribeUserToMailChimp',
  'upsertUserToMailChimp',
  'addTagToMailChimpUser',
  'removeTagFromMailChimpUser',
]);

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A formatted mail: optional logo, header and button around the body text (kept as plain text in HTML). */
function formatHtml(input: {
  body: string;
  logo?: { url?: string };
  header?: { title?: string; subtitle?: string };
  button?: { text?: string; url?: string };
}): string {
  const parts: string[] = [];
  if (input.logo?.url && /^https?:\/\//.test(input.logo.url))
    parts.push(`<p><img src="${escapeHtml(input.logo.url)}" alt="" height="48"></p>`);
  if (input.header?.title) parts.push(`<h1>${escapeHtml(input.header.title)}</h1>`);
  if (input.header?.subtitle) parts.push(`<p><strong>${escapeHtml(input.header.subtitle)}</strong></p>`);
  for (const paragraph of input.body.split(/\n{2,}/)) parts.push(`<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
  if (input.button?.text && input.button.url && /^https?:\/\//.test(input.button.url))
    parts.push(`<p><a href="${escapeHtml(input.button.url)}">${escapeHtml(input.button.text)}</a></p>`);
  return `<!doctype html><html><body style="font-family:sans-serif">${parts.join('\n')}</body></html>`;
}

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
      .values({ list_id: listId, user_id: userId, tags: JSON.stringify(unique), updated_at: new Date() })
      .onConflict((oc) =>
        oc.columns(['list_id', 'user_id']).doUpdateSet({ tags: JSON.stringify(unique), updated_at: new Date() }),
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
        if (!owner) throw notFound('Homey owner', body.toHomeyOwner);
        to = owner.email;
      }
      if (!to) throw new HearthError('missing_parameter', 'Missing Parameter: to');
      return context.mail.send({
        to,
        subject: body.subject,
        text: body.body,
        html: formatHtml(body),
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
  implementations: (context) => mailImplementations(context),
};
