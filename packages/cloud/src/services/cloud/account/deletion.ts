import { HearthError } from '@hearth/contract';
import { forgetCachedTokens } from '../../../platform/auth';
import type { CloudContext } from '../../../platform/context';
import { userRow } from '../directory';
import { releasedHubColumns } from '../household/claim-codes';
import type { OAuth } from '../oauth';
import { sendNotice } from './mail';

/** What the person confirms deletion with; `null` for internal callers, who need no confirmation. */
export interface DeletionConfirmation {
  password?: string;
  code?: string;
  ip: string;
}

/**
 * Deletes an account and everything of it. The rules the account pages state:
 * - the person confirms with the password, and with a two-factor code when two-factor sign-in is on;
 * - hubs the account owns are released: their household members and invitations are removed, and each hub can be
 *   claimed again with the code it prints at its next start; memberships in others' hubs end;
 * - an account that publishes apps in the catalogue is not deleted until its apps have another author (their
 *   users depend on them);
 * - tokens, devices, addresses, subscriptions, orders, tickets, reviews, the avatar and two-factor data go with the
 *   account (foreign keys cascade), and a confirmation is mailed to its address.
 */
export async function deleteAccount(
  context: CloudContext,
  oauth: OAuth,
  userId: string,
  confirmation: DeletionConfirmation | null,
): Promise<void> {
  const { db } = context.database;
  const user = await userRow(db, userId);
  if (confirmation) {
    if (!confirmation.password) throw new HearthError('missing_parameter', 'Missing Parameter: password');
    if ((await oauth.signIn.check(user.email, confirmation.password, confirmation.ip)) !== user.id)
      throw new HearthError('invalid_credentials', 'The password is not correct');
    if (user.totp_secret) {
      if (!confirmation.code)
        throw new HearthError('two_factor_required', 'Enter a code from your authenticator app, or a recovery code, as well');
      if (!(await oauth.twoFactor.verify(user.id, confirmation.code, confirmation.ip)))
        throw new HearthError('invalid_credentials', 'The two-factor code is not correct');
    }
  }
  const apps = await db.selectFrom('apps').select('id').where('author_user_id', '=', user.id).limit(5).execute();
  if (apps.length > 0)
    throw new HearthError(
      'conflict',
      `This account publishes apps (${apps.map((a) => a.id).join(', ')}). Hand them to another developer first.`,
    );
  const released = await db.transaction().execute(async (trx) => {
    const owned = await trx.selectFrom('hubs').select(['id', 'name']).where('owner_user_id', '=', user.id).execute();
    const ids = owned.map((hub) => hub.id);
    if (ids.length > 0) {
      await trx.deleteFrom('hub_users').where('hub_id', 'in', ids).execute();
      await trx.deleteFrom('hub_invites').where('hub_id', 'in', ids).execute();
      await trx.deleteFrom('hub_metadata').where('hub_id', 'in', ids).execute();
      await trx
        .updateTable('hubs')
        .set(releasedHubColumns(new Date(context.clock.now())))
        .where('id', 'in', ids)
        .execute();
    }
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    return owned;
  });
  forgetCachedTokens(context.database);
  await sendNotice(context, user.email, user.firstname, 'Your Hearth account is deleted', [
    'Your Hearth account and everything stored with it were deleted, as you asked.',
    ...(released.length > 0
      ? [
          '',
          `Your hubs were released: ${released.map((hub) => hub.name).join(', ')}. Their household members no longer`,
          'reach them through Hearth; each can be claimed again with the code it shows when it starts.',
        ]
      : []),
    '',
    'Thank you for using Hearth.',
  ]).catch(() => {
    // The account is gone either way; a mail server that is down must not make the deletion look failed.
  });
}
