import { createHash } from 'node:crypto';
import { HearthError } from '@hearth/contract';
import { DiscoveryAggregateError, DiscoveryError } from '@matter/main';
import { ManualPairingCodeCodec, QrPairingCodeCodec } from '@matter/main/types';
import type { CommissioningCode } from './stack/controller-node';

/** A pairing code the hub can commission with: what finds its device, and what identifies the device. */
export interface PairingCode {
  discovery: CommissioningCode;
  /**
   * A digest of the code's passcode and (short) discriminator: the same device's code whether typed as its manual
   * code or scanned as its QR payload, without keeping the passcode itself.
   */
  key: string;
}

/**
 * Reads a device's setup code: the 11 or 21 digit manual pairing code (its last digit a Verhoeff check digit) or
 * the `MT:` QR payload. Anything else is a 400 `invalid_pairing_code` naming what is wrong.
 */
export function parsePairingCode(raw: unknown): PairingCode {
  const typed = String(raw ?? '')
    .trim()
    .toUpperCase();
  // Manual codes are often written in groups (3497-011-2332); '-' and '.' are characters of a QR payload.
  const code = typed.startsWith('MT:') ? typed : typed.replace(/[-\s]/g, '');
  let discovery: CommissioningCode;
  try {
    if (/^(\d{11}|\d{21})$/.test(code)) {
      const manual = ManualPairingCodeCodec.decode(code);
      discovery = { passcode: manual.passcode, shortDiscriminator: Number(manual.shortDiscriminator) };
    } else if (code.startsWith('MT:')) {
      const [qr] = QrPairingCodeCodec.decode(code);
      if (!qr) throw new Error('The QR payload holds no device');
      discovery = { passcode: qr.passcode, longDiscriminator: qr.discriminator };
    } else {
      throw new Error('Expected an 11 or 21 digit pairing code or an MT: QR payload');
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HearthError('invalid_pairing_code', `Not a Matter pairing code: ${reason}`);
  }
  // A QR payload carries the 12-bit discriminator; a manual code only its upper 4 bits: the key uses those.
  const short = 'longDiscriminator' in discovery ? discovery.longDiscriminator >> 8 : discovery.shortDiscriminator;
  const key = createHash('sha256').update(`${short}:${discovery.passcode}`).digest('hex').slice(0, 32);
  return { discovery, key };
}

/**
 * What a failed commissioning means for the user, as a stable error: no device with the code was found in time, or
 * a device was found and refused the passcode; anything else (the node answered, then failed) is 503.
 */
export function commissioningError(error: unknown, timeoutMs: number): HearthError {
  if (error instanceof HearthError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // matter.js reports every candidate device that refused the passcode (PASE failed) together.
  if (error instanceof DiscoveryAggregateError)
    return new HearthError(
      'pairing_code_refused',
      `A Matter device in pairing mode was found but refused the code: check the code on the device (${message})`,
    );
  if (error instanceof DiscoveryError)
    return new HearthError(
      'device_not_discovered',
      `No Matter device in pairing mode with this code answered on the network within ${timeoutMs / 1000} s: ` +
        'is it powered, in pairing mode and on the same network as the hub?',
    );
  return new HearthError('unavailable', `Commissioning the Matter device failed: ${message}`);
}
