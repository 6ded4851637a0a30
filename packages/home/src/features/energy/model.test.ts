import { describe, expect, it } from 'vitest';
import { isoWeek, periodKey, shift } from './model';

describe('energy periods', () => {
  it('names ISO weeks, including those that belong to the next or the previous year', () => {
    expect(isoWeek(new Date(2026, 1, 14))).toBe('2026-W07');
    expect(isoWeek(new Date(2026, 10, 28))).toBe('2026-W48');
    // 29 December 2025 is a Monday in the week holding 1 January 2026 (a Thursday): week 1 of 2026.
    expect(isoWeek(new Date(2025, 11, 29))).toBe('2026-W01');
    // 1 January 2027 is a Friday: it belongs to the last week of 2026, which has 53.
    expect(isoWeek(new Date(2027, 0, 1))).toBe('2026-W53');
    expect(isoWeek(new Date(2027, 0, 4))).toBe('2027-W01');
  });

  it('keys each period as the report calls take it, and steps whole periods', () => {
    const day = new Date(2026, 0, 31);
    expect(periodKey('day', day)).toBe('2026-01-31');
    expect(periodKey('month', day)).toBe('2026-01');
    expect(periodKey('year', day)).toBe('2026');
    // A month back from the 31st lands in the month before, not two months back.
    expect(periodKey('month', shift('month', new Date(2026, 2, 31), -1))).toBe('2026-02');
    expect(periodKey('week', shift('week', day, 1))).toBe('2026-W06');
    expect(periodKey('day', shift('day', day, 1))).toBe('2026-02-01');
  });
});
