import { cloudOperations, HearthError, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../../database/schema';
import { requireUser } from '../../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../../platform/context';
import { pick } from '../../../platform/pick';
import { sendNotice } from '../account/mail';
import type { PasswordSignIn } from '../accounts';
import { userRow } from '../directory';
import { ACCOUNT_CLIENT_ID } from '../seed';
import type { TwoFactor } from '../two-factor/two-factor';
import type { PasskeysTable } from './tables';

const ops = pick(cloudOperations.cloud, [
  'getPasskeys',
  'startPasskeyRegistration',
  'addPasskey',
  'renamePasskey',
  'deletePasskey',
]);

/** How long a browser has to answer a challenge (WebAuthn's own timeout is a minute or two). */
const CHALLENGE_MS = 5 * 60 * 1000;

const toPasskey = (row: Selectable<PasskeysTable>) => ({
  _id: row.id,
  name: row.name,
  deviceType: row.device_type,
  backedUp: row.backed_up,
  createdAt: row.created_at.toISOString(),
  ...(row.last_used_at ? { lastUsedAt: row.last_used_at.toISOString() } : {}),
});

/** The challenge a WebAuthn answer signed, as its client data says (verified against the signature afterwards). */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const clientData = response.response?.clientDataJSON;
  if (typeof clientData !== 'string' || !isoBase64URL.isBase64URL(clientData)) return null;
  try {
    const parsed = JSON.parse(isoBase64URL.toUTF8String(clientData)) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : null;
  } catch {
    return null;
  }
}

export type Passkeys = ReturnType<typeof createPasskeys>;

/**
 * WebAuthn passkeys with @simplewebauthn/server. The relying party is the cloud's public address: its host name is
 * the RP ID and its origin the only origin accepted. Discoverable credentials with user verification, so a passkey
 * alone signs in (it is both factors: the device and its PIN or biometric).
 */
export function createPasskeys(context: CloudContext) {
  const { db } = context.database;
  const origin = new URL(context.config.publicUrl).origin;
  const rpID = new URL(context.config.publicUrl).hostname;

  async function issueChallenge(purpose: 'register' | 'sign_in', userId: string | null, challenge: string) {
    await db.deleteFrom('webauthn_challenges').where('expires_at', '<', new Date(context.clock.now())).execute();
    await db
      .insertInto('webauthn_challenges')
      .values({ challenge, purpose, user_id: userId, expires_at: new Date(context.clock.now() + CHALLENGE_MS) })
      .execute();
  }

  /** Uses the challenge an answer names, once; `null` when it is unknown, used, expired or for another purpose. */
  async function useChallenge(answer: unknown, purpose: 'register' | 'sign_in', userId: string | null) {
    const challenge = challengeOf(answer as { response?: { clientDataJSON?: unknown } });
    if (!challenge) return null;
    let query = db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', new Date(context.clock.now()));
    query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
    const used = await query.returning('challenge').executeTakeFirst();
    return used ? challenge : null;
  }

  /** Options for `navigator.credentials.get` on the sign-in page: any of the person's passkeys may answer. */
  async function signInOptions() {
    const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: 120_000 });
    await issueChallenge('sign_in', null, options.challenge);
    return options;
  }

  /** The account a sign-in answer proves, or `null` when it proves nothing (the reason is not told to the page). */
  async function verifySignIn(answer: unknown): Promise<string | null> {
    const response = answer as AuthenticationResponseJSON;
    if (typeof response?.id !== 'string') return null;
    const challenge = await useChallenge(answer, 'sign_in', null);
    if (!challenge) return null;
    const passkey = await db.selectFrom('passkeys').selectAll().where('id', '=', response.id).executeTakeFirst();
    if (!passkey) return null;
    let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
        credential: {
          id: passkey.id,
          publicKey: isoBase64URL.toBuffer(passkey.public_key),
          counter: Number(passkey.counter),
          transports: passkey.transports as never,
        },
      });
    } catch {
      return null;
    }
    if (!result.verified) return null;
    await db
      .updateTable('passkeys')
      .set({ counter: result.authenticationInfo.newCounter, last_used_at: new Date(context.clock.now()) })
      .where('id', '=', passkey.id)
      .execute();
    return passkey.user_id;
  }

  const owned = async (userId: string, passkeyId: string) => {
    const row = await db
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', passkeyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('Passkey', passkeyId);
    return row;
  };

  /**
   * A passkey signs in alone, so only the account pages' own session may add one: a token of any other client
   * (a third-party app, a narrowly scoped one) could otherwise turn itself into a lasting sign-in.
   */
  const requireAccountPages = (principal: CloudPrincipal) => {
    const userId = requireUser(principal);
    if (principal.clientId !== ACCOUNT_CLIENT_ID)
      throw new HearthError('forbidden', 'Passkeys are added on the Security page of your Hearth account');
    return userId;
  };

  /**
   * Removes every passkey of an account (a password change or "sign out everywhere" asked for it), in the caller's
   * transaction when it passes one.
   */
  async function removeAll(userId: string, executor: Kysely<CloudSchema> = db): Promise<number> {
    const result = await executor.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  const implementations = (signIn: PasswordSignIn, twoFactor: TwoFactor) =>
    implement<typeof ops, CloudPrincipal>(ops, {
      getPasskeys: async ({ principal }) => {
        const rows = await db
          .selectFrom('passkeys')
          .selectAll()
          .where('user_id', '=', requireUser(principal))
          .orderBy('created_at')
          .execute();
        return rows.map(toPasskey);
      },

      startPasskeyRegistration: async ({ principal, body, request }) => {
        const user = await userRow(db, requireAccountPages(principal));
        // The fresh proof: the password and, when on, the second factor. The challenge it earns lives five minutes
        // and is bound to this account, so the passkey is added within minutes of the proof or not at all.
        if ((await signIn.check(user.email, body.password, request.ip)) !== user.id)
          throw new HearthError('invalid_credentials', 'The password is not correct');
        if ((await twoFactor.enabled(user.id)) && !(await twoFactor.verify(user.id, body.code ?? '', request.ip)))
          throw new HearthError('invalid_credentials', 'The two-factor code is not correct');
        const existing = await db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', user.id).execute();
        const options = await generateRegistrationOptions({
          rpName: 'Hearth',
          rpID,
          userName: user.email,
          userDisplayName: `${user.firstname} ${user.lastname}`.trim() || user.email,
          userID: new TextEncoder().encode(user.id),
          attestationType: 'none',
          timeout: 120_000,
          excludeCredentials: existing.map((row) => ({ id: row.id, transports: row.transports })),
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        });
        await issueChallenge('register', user.id, options.challenge);
        return { options: options as unknown as Record<string, unknown> };
      },

      addPasskey: async ({ principal, body }) => {
        const user = await userRow(db, requireAccountPages(principal));
        const challenge = await useChallenge(body.response, 'register', user.id);
        if (!challenge)
          throw new HearthError('gone', 'This passkey request expired or was already used. Please add the passkey again.');
        let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
        try {
          result = await verifyRegistrationResponse({
            response: body.response as unknown as RegistrationResponseJSON,
            expectedChallenge: challenge,
            expectedOrigin: origin,
            expectedRPID: rpID,
            requireUserVerification: true,
          });
        } catch (error) {
          throw invalidParameter('response', `The passkey could not be verified: ${(error as Error).message}`);
        }
        if (!result.verified) throw invalidParameter('response', 'The passkey could not be verified.');
        const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
        const row = await db
          .insertInto('passkeys')
          .values({
            id: credential.id,
            user_id: user.id,
            name: body.name.trim() || 'Passkey',
            public_key: isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: JSON.stringify(credential.transports ?? []),
            device_type: credentialDeviceType,
            backed_up: credentialBackedUp,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) throw invalidParameter('response', 'This passkey is already registered.');
        await sendNotice(context, user.email, user.firstname, 'A passkey was added to your account', [
          `The passkey “${row.name}” now signs in to your Hearth account.`,
          '',
          'If you did not add it, remove it on the Security page of your account and change your password.',
        ]);
        return toPasskey(row);
      },

      renamePasskey: async ({ principal, params, body }) => {
        const userId = requireUser(principal);
        await owned(userId, params.passkeyId);
        const row = await db
          .updateTable('passkeys')
          .set({ name: body.name.trim() || 'Passkey' })
          .where('id', '=', params.passkeyId)
          .where('user_id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow();
        return toPasskey(row);
      },

      deletePasskey: async ({ principal, params }) => {
        const userId = requireUser(principal);
        await owned(userId, params.passkeyId);
        await db.deleteFrom('passkeys').where('id', '=', params.passkeyId).where('user_id', '=', userId).execute();
      },
    });

  return { signInOptions, verifySignIn, removeAll, implementations };
}
