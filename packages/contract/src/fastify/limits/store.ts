/**
 * A growing-delay rule over one key, the building block of the sign-in throttle. The key's failures (attempts,
 * or the distinct `member`s that failed) are free up to `free`; from then each attempt must wait
 * `baseMs · 2^(failures − free)`, at most `maxMs`, after the key's last failure. Failures are forgotten `ttlMs`
 * after the last one (a set's members each `ttlMs` after their own).
 */
export interface Gate {
  readonly key: string;
  readonly free: number;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly ttlMs: number;
  /** Counts distinct members (accounts that failed from one address) instead of attempts. */
  readonly member?: string;
}

/**
 * The outcome of {@link LimitStore.admit}: admitted attempts were already counted as failures (`counts` after
 * counting, one per gate); refused ones changed nothing and name the gate that must be waited for longest.
 */
export type Admission =
  | { readonly admitted: true; readonly counts: readonly number[] }
  | { readonly admitted: false; readonly waitMs: number; readonly gate: number };

/** One request counted in a fixed window: the count including it, and milliseconds until the window ends. */
export interface WindowCount {
  readonly count: number;
  readonly resetMs: number;
}

/**
 * The state behind throttles and rate limits. Every operation is atomic, so several server processes sharing
 * one store (Redis) see one count, and concurrent attempts cannot all pass a gate that admits one.
 */
export interface LimitStore {
  /**
   * Counts one request under `key` in a window of `windowMs` that starts with the key's first request. The
   * in-process store answers at once: this is on every request's path.
   */
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /**
   * Lets an attempt through every gate or none: when no gate asks to wait, counts the attempt as a failure on
   * each (the caller takes it back with {@link forgive} when it succeeds). Counting before the outcome is known
   * is what stops a burst of parallel attempts from all passing a gate meant to admit one.
   */
  admit(gates: readonly Gate[]): Promise<Admission>;
  /** Takes back counted failures: `by` of them from a counter (all of it when absent), or `member` from a set. */
  forgive(key: string, options?: { by?: number; member?: string }): Promise<void>;
  /** Remembers `key` for `ttlMs` (a fact such as "this address signed in to this account"). */
  remember(key: string, ttlMs: number): Promise<void>;
  remembers(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The wait a gate asks for, given its failures and the time of the last one. */
export function gateWaitMs(gate: Gate, failures: number, lastAt: number, now: number): number {
  if (failures < gate.free) return 0;
  const delay = Math.min(gate.baseMs * 2 ** Math.min(failures - gate.free, 40), gate.maxMs);
  return Math.max(0, lastAt + delay - now);
}

interface Tally {
  count: number;
  lastAt: number;
  expiresAt: number;
}

/** No gate may remember a distinct member longer than this: the in-process sweep drops older members. */
export const SET_MEMBER_MAX_MS = 24 * 3600_000;

/** How often the in-process store drops what has expired. */
const SWEEP_EVERY_MS = 10_000;

/**
 * The in-process store: for a hub, and for a cloud running as one process. Expired entries are dropped on a
 * sweep at most every ten seconds, made by the writes themselves, so the store owns no timer.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly tallies = new Map<string, Tally>();
  private readonly sets = new Map<string, Map<string, number>>();
  private readonly marks = new Map<string, number>();
  private sweptAt = 0;

  /** `now` is the clock the store reads (a hub passes its own, so tests can move time). */
  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, windowMs: number): WindowCount {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  async admit(gates: readonly Gate[]): Promise<Admission> {
    const now = this.now();
    this.sweep(now);
    let waitMs = 0;
    let refusing = -1;
    gates.forEach((gate, index) => {
      const { failures, lastAt } = this.read(gate, now);
      const wait = gateWaitMs(gate, failures, lastAt, now);
      if (wait > waitMs) {
        waitMs = wait;
        refusing = index;
      }
    });
    if (refusing >= 0) return { admitted: false, waitMs, gate: refusing };
    const counts = gates.map((gate) => {
      if (gate.member !== undefined) {
        const members = this.sets.get(gate.key) ?? new Map<string, number>();
        this.sets.set(gate.key, members.set(gate.member, now));
        return members.size;
      }
      const tally = this.liveTally(gate.key, now) ?? { count: 0, lastAt: now, expiresAt: now };
      tally.count += 1;
      tally.lastAt = now;
      tally.expiresAt = now + gate.ttlMs;
      this.tallies.set(gate.key, tally);
      return tally.count;
    });
    return { admitted: true, counts };
  }

  async forgive(key: string, options: { by?: number; member?: string } = {}): Promise<void> {
    if (options.member !== undefined) {
      const members = this.sets.get(key);
      members?.delete(options.member);
      if (members?.size === 0) this.sets.delete(key);
      return;
    }
    const tally = this.tallies.get(key);
    if (!tally) return;
    tally.count -= options.by ?? tally.count;
    if (tally.count <= 0) this.tallies.delete(key);
  }

  async remember(key: string, ttlMs: number): Promise<void> {
    this.marks.set(key, this.now() + ttlMs);
  }

  async remembers(key: string): Promise<boolean> {
    return (this.marks.get(key) ?? 0) > this.now();
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.tallies.clear();
    this.sets.clear();
    this.marks.clear();
  }

  /** A gate's failures now: a counter's count, or a set's members younger than the gate's ttl. */
  private read(gate: Gate, now: number): { failures: number; lastAt: number } {
    if (gate.member === undefined) {
      const tally = this.liveTally(gate.key, now);
      return { failures: tally?.count ?? 0, lastAt: tally?.lastAt ?? 0 };
    }
    const members = this.sets.get(gate.key);
    let lastAt = 0;
    if (members) {
      for (const [member, at] of members) {
        if (at <= now - gate.ttlMs) members.delete(member);
        else if (at > lastAt) lastAt = at;
      }
    }
    return { failures: members?.size ?? 0, lastAt };
  }

  private liveTally(key: string, now: number): Tally | undefined {
    const tally = this.tallies.get(key);
    return tally && tally.expiresAt > now ? tally : undefined;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    for (const [key, tally] of this.tallies) if (tally.expiresAt <= now) this.tallies.delete(key);
    for (const [key, at] of this.marks) if (at <= now) this.marks.delete(key);
    // A set's members expire with the gate's ttl, which the set does not know; a day outlives every gate's.
    for (const [key, members] of this.sets) {
      for (const [member, at] of members) if (at <= now - SET_MEMBER_MAX_MS) members.delete(member);
      if (members.size === 0) this.sets.delete(key);
    }
  }
}
