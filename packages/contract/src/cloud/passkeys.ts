import { Type } from 'typebox';
import { cloudService } from '../operation';

/**
 * WebAuthn passkeys of the signed-in account: registered from the account pages, named, listed and removed. Signing
 * in with one happens on the cloud's sign-in page (`/cloud/oauth2/authorise`). Part of the `cloud` service.
 */
const op = cloudService('cloud', '/cloud');

const PasskeyName = Type.String({ minLength: 1, maxLength: 60 });
/** WebAuthn's JSON forms (options for `navigator.credentials`, the authenticator's answer) pass through as they are. */
const WebAuthnJson = Type.Record(Type.String(), Type.Unknown());

export const Passkey = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  /** `multiDevice` when the passkey syncs between the person's devices, `singleDevice` when it lives on one. */
  deviceType: Type.String(),
  backedUp: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const PasskeyParams = Type.Object({ passkeyId: Type.String({ minLength: 1, maxLength: 1400 }) });

export const passkeyOperations = {
  getPasskeys: op({
    name: 'getPasskeys',
    method: 'GET',
    path: '/user/me/passkeys',
    scope: null,
    response: Type.Array(Passkey),
    summary: 'The passkeys that sign in to the caller’s account.',
    description: 'Concerns only the caller’s own account.',
  }),
  startPasskeyRegistration: op({
    name: 'startPasskeyRegistration',
    method: 'POST',
    path: '/user/me/passkeys/registration',
    scope: null,
    body: Type.Object(
      {
        /** The account's password, proved again now: a passkey signs in without it. */
        password: Type.String({ minLength: 1, maxLength: 256 }),
        /** The second factor's code (or a recovery code) when two-factor sign-in is on. */
        code: Type.Optional(Type.String({ minLength: 6, maxLength: 32 })),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ options: WebAuthnJson }),
    errors: ['forbidden', 'invalid_credentials', 'rate_limited'],
    summary: 'Options for `navigator.credentials.create` (WebAuthn): a fresh challenge, valid for five minutes.',
    description:
      'Concerns only the caller’s own account; the passkeys it already has are excluded. A passkey signs in alone, so adding one needs a fresh proof: the password, and the two-factor code when that is on (`invalid_credentials` otherwise), sent from a session of the account pages themselves (`hearth-account`); any other client’s token is refused with `forbidden`. The challenge is the proof’s lifetime: five minutes.',
  }),
  addPasskey: op({
    name: 'addPasskey',
    method: 'POST',
    path: '/user/me/passkeys',
    scope: null,
    body: Type.Object({ name: PasskeyName, response: WebAuthnJson }, { additionalProperties: false }),
    response: Passkey,
    successStatus: 201,
    errors: ['invalid_parameter', 'gone', 'forbidden'],
    summary: 'Stores the passkey the authenticator made for the challenge of `startPasskeyRegistration`.',
    description:
      'Only from a session of the account pages (`forbidden` otherwise); the owner is mailed. The challenge works once. An answer that does not verify (wrong origin, challenge or signature) is refused with `invalid_parameter`; an expired challenge with `gone`.',
  }),
  renamePasskey: op({
    name: 'renamePasskey',
    method: 'PUT',
    path: '/user/me/passkeys/:passkeyId',
    scope: null,
    params: PasskeyParams,
    body: Type.Object({ name: PasskeyName }, { additionalProperties: false }),
    response: Passkey,
    errors: ['not_found'],
    summary: 'Renames one of the caller’s passkeys.',
    description: 'Another account’s passkey answers 404, as one that does not exist.',
  }),
  deletePasskey: op({
    name: 'deletePasskey',
    method: 'DELETE',
    path: '/user/me/passkeys/:passkeyId',
    scope: null,
    params: PasskeyParams,
    errors: ['not_found'],
    summary: 'Removes one of the caller’s passkeys: it no longer signs in.',
    description: 'Another account’s passkey answers 404, as one that does not exist.',
  }),
} as const;
