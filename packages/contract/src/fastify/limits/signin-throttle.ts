import { createHash } from 'node:crypto';
import { HearthError } from '../../errors';
import { addressKey } from './address';
import { RateLimited, type RatePolicy } from './headers';
import type { Gate, LimitStore } from './store';

type GateRule = Omit<Gate, 'key' | 'member'>;

export interface SignInRules {
  /** Failures of one account from one address. */
  readonly pair: GateRule;
  /** Failures of one account from addresses that have not signed in to it. */
  readonly account: GateRule;
  /** Distinct accounts that failed from one address. */
  readonly address: GateRule;
  /** How long a sign-in makes its address familiar to the account. */
  readonly familiarMs: number;
}

const MINUTE = 60_000;

/** The rules of every password sign-in of the cloud and the hubs; the README's "Sign-in throttling" quotes them. */
export const SIGN_IN_RULES: SignInRules = {
  pair: { free: 5, baseMs: 1000, maxMs: 15 * MINUTE, ttlMs: 60 * MINUTE },
  account: { free: 10, baseMs: 1000, maxMs: 15 * MINUTE, ttlMs: 60 * MINUTE },
  address: { free: 20, baseMs: 1000, maxMs: MINUTE, ttlMs: 60 * MINUTE },
  familiarMs: 30 * 24 * 60 * MINUTE,
};

const policy = (name: string, rule: GateRule): RatePolicy => ({
  name,
  quota: rule.free,
  windowSeconds: Math.round(rule.ttlMs / 1000),
});

/** Accounts are keyed by a digest: the store (perhaps a shared Redis) never holds e-mail addresses. */
const digest = (account: string) => createHash('sha256').update(account).digest('base64url').slice(0, 22);

/**
 * Slows password guessing without locking the rightful user out. An attempt names an account (the e-mail or
 * username as typed, normalised by the caller) and comes from an address (IPv6 by its /64). The rules:
 *
 * 1. **Account from one address** (`sign-in-account-address`): 5 failures are free, then each attempt waits
 *    1 s, 2 s, 4 s … (at most 15 min) after the last failure. A success from that address clears it: one
 *    person's typos cost a few seconds, never more.
 * 2. **Account from unfamiliar addresses** (`sign-in-account`): failures from every address that has not
 *    signed in to the account (within 30 days) add up; 10 are free, then the same growing wait. This stops
 *    guessing spread over many addresses, while the rightful user, signing in from an address they signed in
 *    from before, is not held by it at all: an attacker elsewhere cannot lock them out.
 * 3. **Many accounts from one address** (`sign-in-address`): an address at which 20 different accounts failed
 *    within the hour (credential stuffing) waits 1 s, 2 s … (at most a minute) between attempts on accounts it
 *    has not signed in to. One person's typos count once, and not at all once they sign in. Accounts the
 *    address has signed in to are not held, so behind a proxy or a shared network, where everyone has one
 *    address, an attack from it slows only first sign-ins there, never everyone's.
 *
 * A refused attempt checks no password and counts nothing, and answers `rate_limited` with how long to wait.
 * A correct password alone does not pass a wait: if it did, the difference between "wait" and "welcome" would
 * tell a guesser which guess was right at full speed. What passes rules 2 and 3 is having signed in from the
 * address before. Rule 1 alone can hold the rightful user: when someone at their own address (one household,
 * one proxy) guesses their account, the two cannot be told apart without a second factor, so both wait; the
 * wait is announced, and the owner's first success clears it. Attempts are counted as failures when admitted
 * and forgiven on success, so parallel attempts cannot all slip through a gate that admits one. While the
 * counters cannot be reached (Redis away), sign-in answers 503 rather than let guessing run unslowed.
 */
export class SignInThrottle {
  private readonly policies: readonly RatePolicy[];

  constructor(
    private readonly store: LimitStore,
    private readonly rules: SignInRules = SIGN_IN_RULES,
  ) {
    this.policies = [
      policy('sign-in-account-address', rules.pair),
      policy('sign-in-account', rules.account),
      policy('sign-in-address', rules.address),
    ];
  }

  /**
   * Checks the password with `verify` unless the attempt must wait (throws {@link RateLimited}). Answers what
   * `verify` answers; `null` is a wrong password (or unknown account) and is counted.
   */
  async attempt<T>(account: string, ip: string, verify: () => Promise<T | null>): Promise<T | null> {
    const who = digest(account);
    const from = addressKey(ip);
    const keys = {
      pair: `sign-in:pair:${who}:${from}`,
      account: `sign-in:account:${who}`,
      address: `sign-in:address:${from}`,
      familiar: `sign-in:familiar:${who}:${from}`,
    };
    // Without its counters the throttle cannot tell guessing from signing in: it refuses rather than let guesses
    // through unslowed.
    const unavailable = () => {
      throw new HearthError('unavailable', 'Signing in is unavailable for a moment. Try again shortly.');
    };
    const familiar = await this.store.remembers(keys.familiar).catch(unavailable);
    const gates: Gate[] = [{ key: keys.pair, ...this.rules.pair }];
    if (!familiar)
      gates.push({ key: keys.account, ...this.rules.account }, { key: keys.address, ...this.rules.address, member: who });
    const admission = await this.store.admit(gates).catch(unavailable);
    if (!admission.admitted) {
      const seconds = Math.max(1, Math.ceil(admission.waitMs / 1000));
      throw new RateLimited(
        this.policies[admission.gate] as RatePolicy,
        admission.waitMs,
        `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      );
    }
    const result = await verify();
    if (result === null) return null;
    // The address proved the password: its failures on this account were the rightful user's. (Should the
    // counters fail now, the sign-in still stands; the failures stay counted until they expire.)
    await Promise.all([
      this.store.forgive(keys.pair),
      familiar ? null : this.store.forgive(keys.account, { by: admission.counts[0] as number }),
      this.store.forgive(keys.address, { member: who }),
      this.store.remember(keys.familiar, this.rules.familiarMs),
    ]).catch(() => undefined);
    return result;
  }
}
