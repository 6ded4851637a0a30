import { createHash } from 'node:crypto';
import { cloudOperations, HearthError, invalidParameter } from '@hearth/contract';
import { addressKey, implement, type RatePolicy } from '@hearth/contract/fastify';
import type { FastifyRequest } from 'fastify';
import { forgetCachedTokens, requireUser } from '../../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../../platform/context';
import { pick } from '../../../platform/pick';
import { hashSecret, newId } from '../../../platform/tokens';
import { hashPassword, normaliseEmail } from '../accounts';
import { userRow } from '../directory';
import type { OAuth } from '../oauth';
import { sendAddressTaken, sendNotice, sendVerification } from './mail';
import { checkNewPassword, passwordStrength } from './password-policy';

const ops = pick(cloudOperations.cloud, [
  'signUp',
  'checkPasswordStrength',
  'verifyEmail',
  'resendVerificationEmail',
  'changeEmail',
  'signOut',
]);

const HOUR = 3600;
/** Sign-ups from one network: enough for a household signing up together, not for a script. */
const SIGN_UPS_PER_NETWORK: RatePolicy = { name: 'sign-up-network', quota: 10, windowSeconds: HOUR };
/** Sign-ups naming one address: each mails it, so this bounds the mail anyone can make it receive. */
const SIGN_UPS_PER_EMAIL: RatePolicy = { name: 'sign-up-email', quota: 3, windowSeconds: HOUR };
const STRENGTH_CHECKS: RatePolicy = { name: 'password-strength', quota: 120, windowSeconds: 60 };
const VERIFICATION_MAILS: RatePolicy = { name: 'verification-mail', quota: 5, windowSeconds: HOUR };

/** Addresses are counted by a digest: the limit store (perhaps a shared Redis) never holds them. */
const digest = (email: string) => createHash('sha256').update(email).digest('base64url').slice(0, 22);

export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/**
 * Counts an account being made (sign-up, or a guest's checkout) against the limits per network and per address;
 * refuses with `rate_limited` past either.
 */
export async function countAccountCreation(context: CloudContext, request: FastifyRequest, email: string): Promise<void> {
  await context.rateLimiter.count(request, SIGN_UPS_PER_NETWORK, addressKey(request.ip));
  await context.rateLimiter.count(request, SIGN_UPS_PER_EMAIL, digest(email));
}

/** Sign-up, e-mail verification and change, and signing out: the account pages' calls about the account itself. */
export function signUpImplementations(context: CloudContext, oauth: OAuth) {
  const { db } = context.database;
  const limit = (request: FastifyRequest, policy: RatePolicy, partition: string) =>
    context.rateLimiter.count(request, policy, partition);

  return implement<typeof ops, CloudPrincipal>(ops, {
    signUp: async ({ body, request }) => {
      const email = normaliseEmail(body.email);
      await countAccountCreation(context, request, email);
      checkNewPassword(body.password, [email, body.firstname, body.lastname]);
      // Hashed either way, so a taken address answers as slowly as a new one.
      const passwordHash = await hashPassword(body.password);
      const taken = await db.selectFrom('users').select(['firstname']).where('email', '=', email).executeTakeFirst();
      if (taken) {
        await sendAddressTaken(context, email, taken.firstname);
        return { email };
      }
      const id = newId();
      try {
        await db
          .insertInto('users')
          .values({
            id,
            email,
            password_hash: passwordHash,
            firstname: body.firstname.trim(),
            lastname: body.lastname.trim(),
            language: body.language ?? 'en',
            role_ids: '[]',
            email_verified_at: null,
            updated_at: new Date(context.clock.now()),
          })
          .execute();
      } catch (error) {
        // Another sign-up with this address won the race: it answers as a taken address does.
        if (isUniqueViolation(error)) return { email };
        throw error;
      }
      await sendVerification(context, { id, firstname: body.firstname.trim() }, email, 'sign-up');
      return { email };
    },

    checkPasswordStrength: async ({ body, request }) => {
      await limit(request, STRENGTH_CHECKS, addressKey(request.ip));
      return passwordStrength(body.password, body.userInputs ?? []);
    },

    verifyEmail: async ({ body }) => {
      const verified = await db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('one_time_tokens')
          .set({ used_at: new Date(context.clock.now()) })
          .where('token_hash', '=', hashSecret(body.token))
          .where('kind', '=', 'email_verify')
          .where('used_at', 'is', null)
          .where('expires_at', '>', new Date(context.clock.now()))
          .returning(['user_id', 'data'])
          .executeTakeFirst();
        const email = used?.data?.email;
        if (!used || typeof email !== 'string') return null;
        const other = await trx
          .selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .where('id', '!=', used.user_id)
          .executeTakeFirst();
        if (other) throw new HearthError('conflict', 'Another account took this address meanwhile');
        await trx
          .updateTable('users')
          .set({ email, email_verified_at: new Date(context.clock.now()), updated_at: new Date(context.clock.now()) })
          .where('id', '=', used.user_id)
          .execute();
        return email;
      });
      if (verified === null) throw new HearthError('gone', 'This link is invalid, used or expired. Ask for a new one.');
      return { email: verified };
    },

    resendVerificationEmail: async ({ principal, request }) => {
      const user = await userRow(db, requireUser(principal));
      if (user.email_verified_at) throw new HearthError('conflict', 'Your e-mail address is already verified');
      await limit(request, VERIFICATION_MAILS, user.id);
      await sendVerification(context, user, user.email, 'resend');
    },

    changeEmail: async ({ body, principal, request }) => {
      const user = await userRow(db, requireUser(principal));
      const email = normaliseEmail(body.email);
      if (email === user.email) throw invalidParameter('email', 'This is already the address of your account');
      if ((await oauth.signIn.check(user.email, body.password, request.ip)) !== user.id)
        throw new HearthError('invalid_credentials', 'The password is not correct');
      await limit(request, VERIFICATION_MAILS, user.id);
      const taken = await db.selectFrom('users').select(['firstname']).where('email', '=', email).executeTakeFirst();
      if (taken) await sendAddressTaken(context, email, taken.firstname);
      else await sendVerification(context, user, email, 'change');
      await sendNotice(context, user.email, user.firstname, 'Your Hearth e-mail address is changing', [
        `Someone signed in to your Hearth account asked to move it to ${email}. The account moves once the link`,
        'mailed to that address is opened.',
        '',
        'If that was not you, change your password now and sign out everywhere from your account’s security page.',
      ]);
      return { pendingEmail: email };
    },

    signOut: async ({ body, principal, request, reply }) => {
      const userId = requireUser(principal);
      let query = db
        .updateTable('oauth_tokens')
        .set({ revoked_at: new Date(context.clock.now()) })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (!body?.everywhere) query = query.where('family_id', '=', principal.familyId);
      if (body?.removePasskeys && !body.everywhere)
        throw invalidParameter('removePasskeys', 'Passkeys are removed only when signing out everywhere');
      await query.execute();
      if (body?.removePasskeys) await oauth.passkeys.removeAll(userId);
      forgetCachedTokens(context.database);
      // The sign-in page's session ends with it: signing out of the account pages signs out of the cloud.
      await oauth.browserSessions.end(request, reply, userId, { everywhere: body?.everywhere });
    },
  });
}
