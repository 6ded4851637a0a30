import { HearthError } from '@hearth/contract';
import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { FailureThrottle } from '../../platform/throttle';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong, and cheap enough for a shared machine.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, ARGON2_OPTIONS);

let dummyHash: Promise<string> | null = null;

/** Verifies a password; for unknown accounts a dummy hash is checked so timing does not tell them apart. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    dummyHash ??= hashPassword('not-a-real-password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Checks e-mail and password for every way of signing in (sign-in page, password grant), slowing failures
 * per account and per address.
 */
export class PasswordSignIn {
  private readonly perAccount = new FailureThrottle(5);
  private readonly perAddress = new FailureThrottle(20);

  constructor(private readonly db: Kysely<CloudSchema>) {}

  /** The user id, or `null` for wrong credentials; throws `rate_limited` while the account or address must wait. */
  async check(email: string, password: string, address: string): Promise<string | null> {
    const account = `account:${normaliseEmail(email)}`;
    const from = `address:${address}`;
    const wait = Math.max(this.perAccount.waitMs(account), this.perAddress.waitMs(from));
    if (wait > 0) {
      throw new HearthError('rate_limited', `Too many failed sign-ins. Try again in ${Math.ceil(wait / 1000)} seconds.`);
    }
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', normaliseEmail(email))
      .executeTakeFirst();
    const ok = await verifyPassword(user?.password_hash ?? null, password);
    if (!ok || !user) {
      this.perAccount.fail(account);
      this.perAddress.fail(from);
      return null;
    }
    this.perAccount.succeed(account);
    return user.id;
  }
}
