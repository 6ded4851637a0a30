import { forgetCachedTokens } from '../../platform/auth';
import type { CloudContext } from '../../platform/context';
import { hashSecret, newSecret } from '../../platform/tokens';
import { hashPassword, normaliseEmail } from './accounts';

const RESET_LIFETIME_MS = 60 * 60 * 1000;

/** How long the link that sets the password of an account made at checkout works. */
const NEW_ACCOUNT_LINK_LIFETIME_MS = 48 * 60 * 60 * 1000;

/** Mails the account a one-time link to the password page (`/cloud/password-reset`) that sets its password. */
async function mailPasswordLink(
  context: CloudContext,
  user: { id: string; email: string; firstname: string },
  lifetimeMs: number,
  subject: string,
  lines: readonly string[],
  closing: string,
): Promise<void> {
  const token = newSecret();
  await context.database.db
    .insertInto('one_time_tokens')
    .values({
      token_hash: hashSecret(token),
      kind: 'password_reset',
      user_id: user.id,
      expires_at: new Date(context.clock.now() + lifetimeMs),
    })
    .execute();
  const link = `${context.config.publicUrl}/cloud/password-reset?token=${encodeURIComponent(token)}`;
  await context.mail.send({
    to: user.email,
    subject,
    text: [`Hello ${user.firstname || ''},`.trim(), '', ...lines, '', link, '', closing].join('\n'),
  });
}

/**
 * Mails a one-time reset link when the address has an account. Says nothing either way, so the answer does
 * not reveal who has an account.
 */
export async function requestPasswordReset(context: CloudContext, email: string): Promise<void> {
  const user = await context.database.db
    .selectFrom('users')
    .select(['id', 'email', 'firstname'])
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  if (!user) return;
  await mailPasswordLink(
    context,
    user,
    RESET_LIFETIME_MS,
    'Reset your Hearth password',
    [
      'Someone asked to reset the password of your Hearth account. To choose a new password, open this link',
      'within an hour (it works once):',
    ],
    'If you did not ask for this, ignore this message: your password stays as it is.',
  );
}

/** Mails the account a guest made at checkout without a password the link that sets one (it works for 48 hours). */
export async function mailNewAccountPasswordLink(
  context: CloudContext,
  user: { id: string; email: string; firstname: string },
): Promise<void> {
  await mailPasswordLink(
    context,
    user,
    NEW_ACCOUNT_LINK_LIFETIME_MS,
    'Choose a password for your Hearth account',
    [
      'Your Hearth account was made when you ordered from the Hearth store with this address. To choose its',
      'password and sign in, open this link within 48 hours (it works once; afterwards, ask for a new one with',
      '"Forgot your password?" on the sign-in page):',
    ],
    'If you did not order from Hearth, ignore this message: nobody can sign in to the account without this link.',
  );
}

/** The user a reset token belongs to, when it is unused and current. */
export async function resetTokenUser(context: CloudContext, token: string): Promise<string | null> {
  const row = await context.database.db
    .selectFrom('one_time_tokens')
    .select(['user_id'])
    .where('token_hash', '=', hashSecret(token))
    .where('kind', '=', 'password_reset')
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date(context.clock.now()))
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Uses a reset token once: sets the new password and signs the account out everywhere. */
export async function resetPassword(context: CloudContext, token: string, password: string): Promise<boolean> {
  const { db } = context.database;
  const passwordHash = await hashPassword(password);
  const done = await db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('one_time_tokens')
      .set({ used_at: new Date(context.clock.now()) })
      .where('token_hash', '=', hashSecret(token))
      .where('kind', '=', 'password_reset')
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date(context.clock.now()))
      .returning('user_id')
      .executeTakeFirst();
    if (!used) return false;
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: new Date(context.clock.now()) })
      .where('id', '=', used.user_id)
      .execute();
    await trx
      .updateTable('oauth_tokens')
      .set({ revoked_at: new Date(context.clock.now()) })
      .where('user_id', '=', used.user_id)
      .where('revoked_at', 'is', null)
      .execute();
    // The sign-in page's sessions (the single sign-on cookie) end too.
    await trx
      .updateTable('one_time_tokens')
      .set({ used_at: new Date(context.clock.now()) })
      .where('user_id', '=', used.user_id)
      .where('kind', '=', 'browser_session')
      .where('used_at', 'is', null)
      .execute();
    return true;
  });
  forgetCachedTokens(context.database);
  return done;
}
