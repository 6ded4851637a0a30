import type { SignInThrottle } from '@hearth/contract/fastify';
import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong, and cheap enough for a shared machine.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, ARGON2_OPTIONS);

let dummyHash: Promise<string> | null = null;

/** Verifies a password; for unknown accounts a dummy hash is checked so timing does not tell them apart. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    dummyHash ??= hashPassword('not-a-real-password');
    // Only the time it takes counts here: the answer is false whatever it says.
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  // A stored hash argon2 cannot read matches no password.
  return argon2.verify(hash, password).catch(() => false);
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Checks e-mail and password for every way of signing in (sign-in page, password grant, changing the password),
 * slowed per account and per address by the rules of {@link SignInThrottle}.
 */
export class PasswordSignIn {
  constructor(
    private readonly db: Kysely<CloudSchema>,
    private readonly throttle: SignInThrottle,
  ) {}

  /** The user id, or `null` for wrong credentials; throws `rate_limited` (RateLimited) while the attempt must wait. */
  async check(email: string, password: string, address: string): Promise<string | null> {
    const account = normaliseEmail(email);
    return this.throttle.attempt(account, address, async () => {
      const user = await this.db
        .selectFrom('users')
        .select(['id', 'password_hash'])
        .where('email', '=', account)
        .executeTakeFirst();
      const ok = await verifyPassword(user?.password_hash ?? null, password);
      return ok && user ? user.id : null;
    });
  }
}
