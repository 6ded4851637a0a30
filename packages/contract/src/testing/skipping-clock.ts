import { type Clock, systemClock } from '../clock';

/**
 * The real clock, which a test moves forward (`skip`) to pass a wait — a sign-in hold's seconds, a code's minutes —
 * without sleeping through it. Its timers stay real; only `now()` jumps.
 */
export function skippingClock(): { clock: Clock; skip(ms: number): Promise<void> } {
  let skippedMs = 0;
  return {
    clock: { ...systemClock, now: () => Date.now() + skippedMs },
    async skip(ms) {
      skippedMs += ms;
    },
  };
}
