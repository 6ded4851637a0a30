import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@hearth/contract';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too: phones' clocks drift. */
const WINDOW = 1;
const ISSUER = 'Hearth';

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new TOTP secret: 160 random bits (RFC 4226's recommendation), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** What an authenticator app scans: the `otpauth://` address and its QR code as SVG. */
export async function totpEnrolment(secret: string, account: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = totpOf(secret, account).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrSvg };
}

/** Six digits, spaces allowed between them (apps show `123 456`). */
export const looksLikeTotp = (code: string): boolean => /^\d{3}\s?\d{3}$/.test(code.trim());

/** The time step a code belongs to when it is current (within the window), else `null`. */
export function totpStep(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, '');
  const delta = totpOf(secret).validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten recovery codes of 80 random bits each, as `xxxx-xxxx-xxxx-xxxx` (lower-case base32). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(16);
    const chars = Array.from(bytes, (byte) => RECOVERY_ALPHABET[byte & 31]).join('');
    return chars.match(/.{4}/g)?.join('-') as string;
  });
}

/** A recovery code as typed (any case, with or without dashes and spaces), in the form its hash is taken of. */
export const normaliseRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^a-z2-7]/g, '');
