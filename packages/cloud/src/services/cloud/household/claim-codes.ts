import { randomInt } from 'node:crypto';
import { HearthError } from '@hearth/contract';
import { addressKey, type Gate, type LimitStore, RateLimited, type RatePolicy } from '@hearth/contract/fastify';
import { CLAIM_CODE_ALPHABET, CLAIM_CODE_LENGTH, CLAIM_CODE_LIFETIME_MINUTES } from '@hearth/contract/provider';
import type { Kysely, Migration } from 'kysely';

/**
 * The short claim code beside the hub's long claim token: the hub shows it on its web page and in its log, and a
 * person types it on the account pages. Stored hashed with its end (`claim_code_hash`, `claim_code_expires_at` on
 * `hubs`); a new one replaces the one before, and claiming or releasing the hub clears it.
 */
export const hubClaimCodeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('hubs')
      .addColumn('claim_code_hash', 'text')
      .addColumn('claim_code_expires_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('hubs_claim_code').on('hubs').column('claim_code_hash').execute();
  },
};

/** What a released hub's row becomes: nobody owns it, and it can be claimed again once it shows a new code. */
export const releasedHubColumns = (now: Date) =>
  ({
    owner_user_id: null,
    claim_token_hash: null,
    claim_code_hash: null,
    activated_at: null,
    state: 'released',
    updated_at: now,
  }) as const;

/** A new code from the alphabet, each character drawn uniformly (`randomInt` has no modulo bias). */
export function newClaimCode(): string {
  let code = '';
  for (let i = 0; i < CLAIM_CODE_LENGTH; i++) code += CLAIM_CODE_ALPHABET[randomInt(CLAIM_CODE_ALPHABET.length)];
  return code;
}

export const CLAIM_CODE_LIFETIME_MS = CLAIM_CODE_LIFETIME_MINUTES * 60_000;

const MINUTE = 60_000;
/**
 * Failed claims of one account: 5 are free (typos), then each attempt waits 1 s, 2 s, 4 s … (at most 15 min) after
 * the last failure. With 32⁸ codes and each valid for 15 minutes, that leaves a guesser no useful rate.
 */
const ACCOUNT_RULE = { free: 5, baseMs: 1000, maxMs: 15 * MINUTE, ttlMs: 60 * MINUTE };
/** Distinct accounts that failed from one network: 10 are free, then the same growing wait (at most a minute). */
const ADDRESS_RULE = { free: 10, baseMs: 1000, maxMs: MINUTE, ttlMs: 60 * MINUTE };
const POLICIES: readonly RatePolicy[] = [
  { name: 'hub-claim-account', quota: ACCOUNT_RULE.free, windowSeconds: ACCOUNT_RULE.ttlMs / 1000 },
  { name: 'hub-claim-address', quota: ADDRESS_RULE.free, windowSeconds: ADDRESS_RULE.ttlMs / 1000 },
];

/**
 * Slows guessing of claim codes. Only failures count, and they are the guesser's: keyed by their account and
 * their network, never by a hub or a code, so nobody's guessing can hold back the person the hub belongs to
 * (who claims from their own account). A refused attempt looks nothing up. Attempts count as failures when
 * admitted and are forgiven on success, so parallel guesses cannot slip through together.
 */
export class ClaimThrottle {
  constructor(private readonly store: LimitStore) {}

  async attempt<T>(userId: string, ip: string, claim: () => Promise<T>): Promise<T> {
    const gates: Gate[] = [
      { key: `hub-claim:account:${userId}`, ...ACCOUNT_RULE },
      { key: `hub-claim:address:${addressKey(ip)}`, ...ADDRESS_RULE, member: userId },
    ];
    // Without its counters the throttle cannot tell guessing from claiming: it refuses rather than let guesses
    // through unslowed.
    const admission = await this.store.admit(gates).catch(() => {
      throw new HearthError('unavailable', 'Claiming is unavailable for a moment. Try again shortly.');
    });
    if (!admission.admitted) {
      const seconds = Math.max(1, Math.ceil(admission.waitMs / 1000));
      throw new RateLimited(
        POLICIES[admission.gate] as RatePolicy,
        admission.waitMs,
        `Too many wrong codes. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      );
    }
    const claimed = await claim();
    await Promise.all([
      this.store.forgive(gates[0]?.key as string),
      this.store.forgive(gates[1]?.key as string, { member: userId }),
    ]);
    return claimed;
  }
}
