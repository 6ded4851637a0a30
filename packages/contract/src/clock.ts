/**
 * The sense of time of a hub or a cloud. Every part reads the time and waits through the context's clock, so tests move
 * time instead of sleeping. Waiting work that must survive a restart goes through the durable scheduler
 * (the hub's `scheduler.ts`, the cloud's sweeps); a timer here is for work that may be lost with the process (a heartbeat, a debounce).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` (at least 0). Answers its cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Calls `fn` every `ms` (more than 0). Answers its cancel function. */
  setInterval(fn: () => void, ms: number): () => void;
}

/** The clock's time as an ISO 8601 string, as stored and answered. */
export const isoNow = (clock: Pick<Clock, 'now'>): string => new Date(clock.now()).toISOString();

/**
 * The longest delay Node's timers take: a longer one (a job due in more than 24.8 days) would fire after 1 ms instead,
 * and a timer re-armed for the same far time would then spin.
 */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The real clock. Its timers are unref'd: a pending timer never keeps a stopped hub's process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    let timer: ReturnType<typeof setTimeout>;
    // A wait longer than a timer takes is slept in parts.
    const arm = (remaining: number) => {
      const part = Math.min(Math.max(0, remaining), LONGEST_TIMER_MS);
      timer = setTimeout(() => (remaining > part ? arm(remaining - part) : fn()), part);
      timer.unref();
    };
    arm(ms);
    return () => clearTimeout(timer);
  },
  setInterval(fn, ms) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

interface FakeTimer {
  readonly id: number;
  at: number;
  readonly every: number | null;
  readonly fn: () => void;
}

/**
 * A clock that moves only when told to, for tests: `advance(ms)` runs every timer that falls due on the way,
 * in due order, each seeing `now()` at its own due time.
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, FakeTimer>();

  constructor(start: number | Date = Date.UTC(2026, 0, 5, 8, 0, 0)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): () => void {
    return this.#add(fn, Math.max(0, ms), null);
  }

  setInterval(fn: () => void, ms: number): () => void {
    if (!(ms > 0)) throw new RangeError('An interval must be longer than 0 ms');
    return this.#add(fn, ms, ms);
  }

  /** Timers not yet run or cancelled. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running what falls due; answers after the microtasks each timer started. */
  async advance(ms: number): Promise<void> {
    await this.set(this.#now + ms);
  }

  /** Moves time to `at` (never backwards), running what falls due on the way. */
  async set(at: number | Date): Promise<void> {
    const target = typeof at === 'number' ? at : at.getTime();
    if (target < this.#now) throw new RangeError('A fake clock does not go back');
    for (;;) {
      const next = [...this.#timers.values()].filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.#now = next.at;
      if (next.every === null) this.#timers.delete(next.id);
      else next.at += next.every;
      next.fn();
      // Let the work the timer started (promises, awaited writes) settle before the next one runs.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#now = target;
    await new Promise((resolve) => setImmediate(resolve));
  }

  #add(fn: () => void, ms: number, every: number | null): () => void {
    const id = this.#nextId++;
    this.#timers.set(id, { id, at: this.#now + ms, every, fn });
    return () => this.#timers.delete(id);
  }
}
