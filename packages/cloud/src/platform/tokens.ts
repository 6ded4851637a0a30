import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new record id: 24 hex characters (header-, URL- and DNS-label-safe, like the ecosystem's ids). */
export const newId = (): string => randomBytes(12).toString('hex');

/** A new opaque secret (access/refresh tokens, codes, one-time links): 256 bits, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/**
 * Hash under which a high-entropy secret is stored and looked up. SHA-256 suffices for random 256-bit
 * tokens (no dictionary to attack); passwords use argon2 instead.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
