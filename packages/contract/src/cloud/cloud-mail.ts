import { Type } from 'typebox';
import { Id, OptionalString, op, open } from './cloud-helpers';

const MailingListBody = Type.Object({
  listId: Type.String({ minLength: 1, maxLength: 100 }),
  userId: Id,
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
});

/** Mail the platform's own services send, and mailing lists (internal). */
export const cloudMailOperations = {
  sendFormattedEmail: op({
    name: 'sendFormattedEmail',
    summary: "Sends an e-mail from one of the platform's templates (internal).",
    method: 'POST',
    path: '/mail/formatted',
    scope: null,
    private: true,
    body: Type.Object({
      to: Type.Optional(Type.String({ format: 'email' })),
      toHomeyOwner: OptionalString,
      from: OptionalString,
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      body: Type.String({ minLength: 1, maxLength: 100_000 }),
      replyTo: Type.Optional(Type.String({ format: 'email' })),
      logo: Type.Optional(open({ url: OptionalString })),
      header: Type.Optional(open({ title: OptionalString, subtitle: OptionalString })),
      button: Type.Optional(open({ text: OptionalString, url: OptionalString })),
    }),
    response: Type.Object({ messageId: Type.String(), accepted: Type.Array(Type.String()) }),
  }),
  subscribeUserToMailChimp: op({
    name: 'subscribeUserToMailChimp',
    summary: 'Adds an account to a mailing list (internal).',
    method: 'POST',
    path: '/mail/mailchimp',
    scope: null,
    private: true,
    body: MailingListBody,
    response: open({ listId: Type.String(), userId: Type.String(), tags: Type.Array(Type.String()) }),
  }),
  upsertUserToMailChimp: op({
    name: 'upsertUserToMailChimp',
    summary: 'Adds an account to a mailing list or updates its entry there (internal).',
    method: 'PUT',
    path: '/mail/mailchimp',
    scope: null,
    private: true,
    body: MailingListBody,
    response: open({ listId: Type.String(), userId: Type.String(), tags: Type.Array(Type.String()) }),
  }),
  addTagToMailChimpUser: op({
    name: 'addTagToMailChimpUser',
    summary: 'Tags an account on a mailing list (internal).',
    method: 'POST',
    path: '/mail/mailchimp/tag',
    scope: null,
    private: true,
    body: Type.Object({ listId: Type.String({ minLength: 1 }), userId: Id, tag: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: open({ listId: Type.String(), userId: Type.String(), tags: Type.Array(Type.String()) }),
  }),
  removeTagFromMailChimpUser: op({
    name: 'removeTagFromMailChimpUser',
    summary: 'Removes a tag from an account on a mailing list (internal).',
    method: 'DELETE',
    path: '/mail/mailchimp/tag/:tag/list/:listId/user/:userId',
    scope: null,
    private: true,
    params: Type.Object({ tag: Id, listId: Id, userId: Id }),
  }),
} as const;
