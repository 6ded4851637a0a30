import { cloudOperations, HearthError } from '@hearth/contract';
import { implement, SignInThrottle } from '@hearth/contract/fastify';
import { requireUser } from '../../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../../platform/context';
import { pick } from '../../../platform/pick';
import { hashSecret } from '../../../platform/tokens';
import { sendNotice } from '../account/mail';
import { userRow } from '../directory';
import type { OAuth } from '../oauth';
import { looksLikeTotp, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, totpEnrolment, totpStep } from './totp';

const ops = pick(cloudOperations.cloud, [
  'getTwoFactor',
  'setupTwoFactor',
  'enableTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
]);

export type TwoFactor = ReturnType<typeof createTwoFactor>;

/**
 * Two-factor sign-in with TOTP (RFC 6238) and one-time recovery codes. Every check of a code goes through the
 * sign-in throttle under the account's own key (`two-factor:<id>`): six digits are guessable only at speed.
 */
export function createTwoFactor(context: CloudContext) {
  const { db } = context.database;
  const throttle = new SignInThrottle(context.limits);

  /** Uses a recovery code once; answers whether it was one of the account's unused codes. */
  async function useRecoveryCode(userId: string, code: string): Promise<boolean> {
    const normalised = normaliseRecoveryCode(code);
    if (normalised.length !== 16) return false;
    const used = await db
      .updateTable('recovery_codes')
      .set({ used_at: new Date(context.clock.now()) })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashSecret(normalised))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  /** Accepts a current TOTP code once: its step must be later than the last one accepted. */
  async function useTotp(userId: string, secret: string, code: string): Promise<boolean> {
    const step = totpStep(secret, code, context.clock.now());
    if (step === null) return false;
    const taken = await db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /**
   * Whether `code` (from the app, or a recovery code) proves the account's second factor; throws `rate_limited`
   * while guesses must wait. Accounts without two-factor sign-in have nothing to prove: `true`.
   */
  async function verify(userId: string, code: string, ip: string): Promise<boolean> {
    const user = await db.selectFrom('users').select(['totp_secret']).where('id', '=', userId).executeTakeFirst();
    const secret = user?.totp_secret;
    if (!secret) return true;
    const ok = await throttle.attempt(`two-factor:${userId}`, ip, async () => {
      const matched = looksLikeTotp(code) ? await useTotp(userId, secret, code) : await useRecoveryCode(userId, code);
      return matched ? true : null;
    });
    return ok === true;
  }

  async function enabled(userId: string): Promise<boolean> {
    const user = await db.selectFrom('users').select(['totp_secret']).where('id', '=', userId).executeTakeFirst();
    return Boolean(user?.totp_secret);
  }

  /** Replaces the account's recovery codes with ten new ones and answers them (the only time they are shown). */
  async function replaceRecoveryCodes(userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('recovery_codes')
        .values(codes.map((code) => ({ user_id: userId, code_hash: hashSecret(normaliseRecoveryCode(code)) })))
        .execute();
    });
    return codes;
  }

  /** The password and a code, as turning two-factor off or replacing the codes demands. */
  async function confirm(oauth: OAuth, userId: string, password: string, code: string, ip: string) {
    const user = await userRow(db, userId);
    if (!user.totp_secret) throw new HearthError('conflict', 'Two-factor sign-in is not on');
    if ((await oauth.signIn.check(user.email, password, ip)) !== user.id)
      throw new HearthError('invalid_credentials', 'The password is not correct');
    if (!(await verify(user.id, code, ip))) throw new HearthError('invalid_credentials', 'The two-factor code is not correct');
    return user;
  }

  function implementations(oauth: OAuth) {
    return implement<typeof ops, CloudPrincipal>(ops, {
      getTwoFactor: async ({ principal }) => {
        const user = await userRow(db, requireUser(principal));
        const left = await db
          .selectFrom('recovery_codes')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('user_id', '=', user.id)
          .where('used_at', 'is', null)
          .executeTakeFirstOrThrow();
        return {
          enabled: user.totp_secret !== null,
          recoveryCodesLeft: user.totp_secret ? Number(left.count) : 0,
          ...(user.totp_enabled_at ? { enabledAt: user.totp_enabled_at.toISOString() } : {}),
        };
      },

      setupTwoFactor: async ({ principal }) => {
        const user = await userRow(db, requireUser(principal));
        if (user.totp_secret) throw new HearthError('conflict', 'Two-factor sign-in is already on. Turn it off first.');
        const secret = newTotpSecret();
        await db
          .updateTable('users')
          .set({ totp_pending_secret: secret, updated_at: new Date(context.clock.now()) })
          .where('id', '=', user.id)
          .execute();
        return { secret, ...(await totpEnrolment(secret, user.email)) };
      },

      enableTwoFactor: async ({ body, principal, request }) => {
        const user = await userRow(db, requireUser(principal));
        if (user.totp_secret) throw new HearthError('conflict', 'Two-factor sign-in is already on');
        const secret = user.totp_pending_secret;
        if (!secret) throw new HearthError('conflict', 'Start the two-factor setup first');
        const step = await throttle.attempt(`two-factor:${user.id}`, request.ip, async () =>
          totpStep(secret, body.code, context.clock.now()),
        );
        if (step === null)
          throw new HearthError(
            'invalid_credentials',
            'The code is not correct. Check the time on your phone and try the next code.',
          );
        const switched = await db
          .updateTable('users')
          .set({
            totp_secret: secret,
            totp_pending_secret: null,
            totp_enabled_at: new Date(context.clock.now()),
            totp_last_step: step,
            updated_at: new Date(context.clock.now()),
          })
          .where('id', '=', user.id)
          .where('totp_secret', 'is', null)
          .executeTakeFirst();
        if (Number(switched.numUpdatedRows) !== 1) throw new HearthError('conflict', 'Two-factor sign-in is already on');
        const recoveryCodes = await replaceRecoveryCodes(user.id);
        await sendNotice(context, user.email, user.firstname, 'Two-factor sign-in is on', [
          'Signing in to your Hearth account now also asks for a code from your authenticator app.',
          '',
          'If you did not do this, reset your password and contact Hearth support.',
        ]);
        return { recoveryCodes };
      },

      disableTwoFactor: async ({ body, principal, request }) => {
        const user = await confirm(oauth, requireUser(principal), body.password, body.code, request.ip);
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('users')
            .set({
              totp_secret: null,
              totp_pending_secret: null,
              totp_enabled_at: null,
              totp_last_step: null,
              updated_at: new Date(context.clock.now()),
            })
            .where('id', '=', user.id)
            .execute();
          await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
        });
        await sendNotice(context, user.email, user.firstname, 'Two-factor sign-in is off', [
          'Signing in to your Hearth account no longer asks for a code from an authenticator app.',
          '',
          'If you did not do this, reset your password and turn two-factor sign-in on again.',
        ]);
      },

      regenerateRecoveryCodes: async ({ body, principal, request }) => {
        const user = await confirm(oauth, requireUser(principal), body.password, body.code, request.ip);
        return { recoveryCodes: await replaceRecoveryCodes(user.id) };
      },
    });
  }

  return { verify, enabled, implementations };
}
