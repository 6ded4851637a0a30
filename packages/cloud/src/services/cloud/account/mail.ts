import type { CloudContext } from '../../../platform/context';
import { hashSecret, newSecret } from '../../../platform/tokens';

/** How long a verification link works. */
const VERIFY_LIFETIME_MS = 48 * 60 * 60 * 1000;

/** The account pages' address of a link with a one-time token; the token rides in the fragment, out of logs. */
export const pageLink = (context: CloudContext, page: string, token: string) =>
  `${context.config.publicUrl}/${page}#token=${encodeURIComponent(token)}`;

const greeting = (name: string) => (name ? `Hello ${name},` : 'Hello,');

/**
 * Mails a one-time link that verifies `email` for the account: its own address after sign-up, or the address it
 * moves to. Earlier links of the account stop working, so only the newest address can be confirmed.
 */
export async function sendVerification(
  context: CloudContext,
  user: { id: string; firstname: string },
  email: string,
  purpose: 'sign-up' | 'resend' | 'change',
): Promise<void> {
  const { db } = context.database;
  const token = newSecret();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('one_time_tokens')
      .set({ used_at: new Date(context.clock.now()) })
      .where('user_id', '=', user.id)
      .where('kind', '=', 'email_verify')
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('one_time_tokens')
      .values({
        token_hash: hashSecret(token),
        kind: 'email_verify',
        user_id: user.id,
        data: JSON.stringify({ email }),
        expires_at: new Date(context.clock.now() + VERIFY_LIFETIME_MS),
      })
      .execute();
  });
  const link = pageLink(context, 'verify-email', token);
  const change = purpose === 'change';
  await context.mail.send({
    to: email,
    subject: change ? 'Confirm your new Hearth e-mail address' : 'Verify your Hearth e-mail address',
    text: [
      greeting(user.firstname),
      '',
      change
        ? 'To move your Hearth account to this address, open this link within 48 hours (it works once):'
        : purpose === 'sign-up'
          ? 'Welcome to Hearth. To verify your e-mail address, open this link within 48 hours (it works once):'
          : 'To verify your e-mail address, open this link within 48 hours (it works once):',
      '',
      link,
      '',
      'If you did not ask for this, ignore this message.',
    ].join('\n'),
  });
}

/** Tells the owner of an address that someone tried to sign up with it, or move another account to it. */
export async function sendAddressTaken(context: CloudContext, email: string, firstname: string): Promise<void> {
  await context.mail.send({
    to: email,
    subject: 'Your Hearth account',
    text: [
      greeting(firstname),
      '',
      'Someone asked to create a Hearth account with this address, or to move an account to it. This address',
      'already has an account, so nothing changed.',
      '',
      `If it was you, sign in at ${context.config.publicUrl}/ or reset your password at`,
      `${context.config.publicUrl}/cloud/password-forgotten`,
      '',
      'If it was not you, ignore this message.',
    ].join('\n'),
  });
}

/** A short notice to the account's address about a change to the account. */
export async function sendNotice(
  context: CloudContext,
  to: string,
  firstname: string,
  subject: string,
  lines: readonly string[],
): Promise<void> {
  await context.mail.send({ to, subject, text: [greeting(firstname), '', ...lines].join('\n') });
}
