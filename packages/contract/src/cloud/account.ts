import { Type } from 'typebox';
import { cloudService } from '../operation';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, RECOVERY_CODE_COUNT } from '../provider';

/**
 * The account calls the account pages make beyond the seed's: signing up, verifying an e-mail address, two-factor
 * sign-in, changing the e-mail address and signing out. They belong to the `cloud` service (under `/cloud`).
 */
const op = cloudService('cloud', '/cloud');

const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
const NewPassword = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const CurrentPassword = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });
/** A code from an authenticator app (six digits) or a recovery code (`xxxx-xxxx-xxxx-xxxx`). */
const TwoFactorCode = Type.String({ minLength: 6, maxLength: 32 });
const LinkToken = Type.String({ minLength: 16, maxLength: 200 });

export const SignUpInput = Type.Object(
  {
    email: Email,
    password: NewPassword,
    firstname: Type.String({ minLength: 1, maxLength: 100 }),
    lastname: Type.String({ maxLength: 100 }),
    language: Type.Optional(Type.String({ minLength: 2, maxLength: 8 })),
    /** The person accepted the terms of service. */
    acceptTerms: Type.Literal(true),
  },
  { additionalProperties: false },
);

export const PasswordStrength = Type.Object({
  /** 0 (guessed at once) to 4 (very hard to guess), as zxcvbn scores it. */
  score: Type.Integer({ minimum: 0, maximum: 4 }),
  /** Whether the cloud accepts it as a new password. */
  acceptable: Type.Boolean(),
  /** Why it is weak, when it is; empty otherwise. */
  warning: Type.String(),
  suggestions: Type.Array(Type.String()),
});

export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean(),
  /** Unused recovery codes left. */
  recoveryCodesLeft: Type.Integer({ minimum: 0 }),
  enabledAt: Type.Optional(Type.String({ format: 'date-time' })),
});

export const TwoFactorSetup = Type.Object({
  /** The shared secret in base32, for typing into an app that cannot scan. */
  secret: Type.String(),
  /** The `otpauth://totp/…` address the QR code holds. */
  uri: Type.String(),
  /** The QR code as an SVG document. */
  qrSvg: Type.String(),
});

export const RecoveryCodes = Type.Object({
  /** Shown once: the cloud keeps only their hashes. */
  recoveryCodes: Type.Array(Type.String(), { minItems: RECOVERY_CODE_COUNT, maxItems: RECOVERY_CODE_COUNT }),
});

const ConfirmWithPassword = Type.Object({ password: CurrentPassword, code: TwoFactorCode }, { additionalProperties: false });

export const accountOperations = {
  signUp: op({
    name: 'signUp',
    method: 'POST',
    path: '/signup',
    scope: null,
    auth: false,
    body: SignUpInput,
    response: Type.Object({ email: Type.String() }),
    successStatus: 202,
    errors: ['invalid_parameter', 'rate_limited'],
    summary: 'Creates an account and mails a link that verifies its address.',
    description:
      'Answers 202 the same way whether or not the address already has an account (that address is mailed a note instead), so the call tells nobody who has one. Limited per address and per network. The password must not be a common one and must score at least 2 of 4.',
  }),
  checkPasswordStrength: op({
    name: 'checkPasswordStrength',
    method: 'POST',
    path: '/signup/password-strength',
    scope: null,
    auth: false,
    body: Type.Object(
      {
        password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
        /** Words the password should not be made of: the person's name and address. */
        userInputs: Type.Optional(Type.Array(Type.String({ maxLength: 254 }), { maxItems: 5 })),
      },
      { additionalProperties: false },
    ),
    response: PasswordStrength,
    errors: ['rate_limited'],
    summary: 'How hard a password is to guess, and whether the cloud would accept it.',
    description: 'Safe without a session: it reads no account. Limited per network.',
  }),
  verifyEmail: op({
    name: 'verifyEmail',
    method: 'POST',
    path: '/user/verify-email',
    scope: null,
    auth: false,
    body: Type.Object({ token: LinkToken }, { additionalProperties: false }),
    response: Type.Object({ email: Type.String() }),
    errors: ['gone'],
    summary: 'Uses the one-time link from a verification mail: verifies the address, or moves the account to it.',
    description: 'Safe without a session: the link itself is the proof. A used or expired link answers 410.',
  }),
  resendVerificationEmail: op({
    name: 'resendVerificationEmail',
    method: 'POST',
    path: '/user/me/verify-email',
    scope: null,
    errors: ['conflict', 'rate_limited'],
    summary: 'Mails a new verification link to the signed-in user’s unverified address.',
    description: 'Concerns only the caller’s own account, which every session of it may ask about.',
    successStatus: 202,
  }),
  changeEmail: op({
    name: 'changeEmail',
    method: 'POST',
    path: '/user/me/email',
    scope: null,
    body: Type.Object({ email: Email, password: CurrentPassword }, { additionalProperties: false }),
    response: Type.Object({ pendingEmail: Type.String() }),
    successStatus: 202,
    errors: ['invalid_credentials', 'rate_limited'],
    summary: 'Mails a link to the new address; the account moves there when it is opened.',
    description:
      'The password is required. The answer is the same when the new address already has an account (it is mailed a note instead). The old address is told.',
  }),
  getTwoFactor: op({
    name: 'getTwoFactor',
    method: 'GET',
    path: '/user/me/two-factor',
    scope: null,
    response: TwoFactorStatus,
    summary: 'Whether two-factor sign-in is on, and how many recovery codes are left.',
    description: 'Concerns only the caller’s own account.',
  }),
  setupTwoFactor: op({
    name: 'setupTwoFactor',
    method: 'POST',
    path: '/user/me/two-factor/setup',
    scope: null,
    response: TwoFactorSetup,
    errors: ['conflict'],
    summary: 'Starts setting up two-factor sign-in: a new TOTP secret (RFC 6238) and its QR code.',
    description: 'Concerns only the caller’s own account. Nothing changes until a code from the app confirms it.',
  }),
  enableTwoFactor: op({
    name: 'enableTwoFactor',
    method: 'POST',
    path: '/user/me/two-factor',
    scope: null,
    body: Type.Object({ code: TwoFactorCode }, { additionalProperties: false }),
    response: RecoveryCodes,
    errors: ['invalid_credentials', 'conflict', 'rate_limited'],
    summary: 'Turns two-factor sign-in on with a code from the app; answers ten one-time recovery codes, once.',
    description: 'Concerns only the caller’s own account.',
  }),
  disableTwoFactor: op({
    name: 'disableTwoFactor',
    method: 'DELETE',
    path: '/user/me/two-factor',
    scope: null,
    body: ConfirmWithPassword,
    errors: ['invalid_credentials', 'rate_limited'],
    summary: 'Turns two-factor sign-in off; needs the password and a code (or a recovery code).',
    description: 'Concerns only the caller’s own account.',
  }),
  regenerateRecoveryCodes: op({
    name: 'regenerateRecoveryCodes',
    method: 'POST',
    path: '/user/me/two-factor/recovery-codes',
    scope: null,
    body: ConfirmWithPassword,
    response: RecoveryCodes,
    errors: ['invalid_credentials', 'conflict', 'rate_limited'],
    summary: 'Replaces the recovery codes with ten new ones; needs the password and a code.',
    description: 'Concerns only the caller’s own account.',
  }),
  signOut: op({
    name: 'signOut',
    method: 'POST',
    path: '/user/me/sign-out',
    scope: null,
    body: Type.Optional(
      Type.Object(
        {
          everywhere: Type.Optional(Type.Boolean()),
          /** With `everywhere`: removes the account's passkeys too (a passkey is a sign-in that outlives sessions). */
          removePasskeys: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    summary:
      'Ends this sign-in, or with `everywhere` every sign-in of the account, this one included; `removePasskeys` with it removes every passkey.',
    description: 'Concerns only the caller’s own sessions.',
  }),
} as const;
