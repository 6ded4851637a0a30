/**
 * Slows repeated failures per key (an account, an address): after `freeAttempts` failures each further attempt
 * must wait twice as long as the one before, up to `maxDelayMs`. A success clears the key. Kept in memory: a
 * restart forgives, which is acceptable for slowing guessing, not for counting it.
 */
export class FailureThrottle {
  private failures = new Map<string, { count: number; lastAt: number }>();

  constructor(
    private readonly freeAttempts: number,
    private readonly baseDelayMs = 1000,
    private readonly maxDelayMs = 15 * 60 * 1000,
  ) {}

  /** Milliseconds the key must still wait before its next attempt (0 = may try now). */
  waitMs(key: string, now = Date.now()): number {
    const entry = this.failures.get(key);
    if (!entry || entry.count < this.freeAttempts) return 0;
    const delay = Math.min(this.baseDelayMs * 2 ** (entry.count - this.freeAttempts), this.maxDelayMs);
    return Math.max(0, entry.lastAt + delay - now);
  }

  fail(key: string, now = Date.now()): void {
    const entry = this.failures.get(key);
    this.failures.set(key, { count: (entry?.count ?? 0) + 1, lastAt: now });
    if (this.failures.size > 100_000) this.prune(now);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (now - entry.lastAt > this.maxDelayMs) this.failures.delete(key);
  }
}
