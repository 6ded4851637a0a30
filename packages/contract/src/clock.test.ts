import { afterEach, describe, expect, it, vi } from 'vitest';
import { LONGEST_TIMER_MS, systemClock } from './clock';

describe('the system clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits out a delay longer than a Node timer takes, firing once at its time instead of at once', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const thirtyDays = 30 * 24 * 3600_000;
    expect(thirtyDays).toBeGreaterThan(LONGEST_TIMER_MS);
    systemClock.setTimeout(fired, thirtyDays);
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(thirtyDays - 1001);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('cancels a long wait in any of its parts', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const cancel = systemClock.setTimeout(fired, 2 * LONGEST_TIMER_MS + 5);
    vi.advanceTimersByTime(LONGEST_TIMER_MS + 10);
    cancel();
    vi.advanceTimersByTime(2 * LONGEST_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
  });
});
