import { describe, expect, it } from 'vitest';
import {
  addDays,
  addLocalDays,
  addLocalMonths,
  addMonths,
  dayLengthHours,
  dayRange,
  formatLocalDate,
  hoursOfDay,
  instantOf,
  isoWeekOf,
  isoWeekStart,
  localDateOf,
  localDateTimeOf,
  parseLocalDate,
  startOfLocalDay,
} from './calendar';

const AMSTERDAM = 'Europe/Amsterdam';
const NEW_YORK = 'America/New_York';
const SYDNEY = 'Australia/Sydney';
const iso = (at: number) => new Date(at).toISOString();
const date = (text: string) => parseLocalDate(text);

describe('calendar dates', () => {
  it('adds days across month ends, year ends and leap days', () => {
    expect(formatLocalDate(addDays(date('2027-01-31'), 1))).toBe('2027-02-01');
    expect(formatLocalDate(addDays(date('2027-02-28'), 1))).toBe('2027-03-01');
    expect(formatLocalDate(addDays(date('2028-02-28'), 1))).toBe('2028-02-29');
    expect(formatLocalDate(addDays(date('2026-12-31'), 1))).toBe('2027-01-01');
    expect(formatLocalDate(addDays(date('2028-03-01'), -1))).toBe('2028-02-29');
    expect(formatLocalDate(addDays(date('2027-03-01'), -1))).toBe('2027-02-28');
  });

  it('adds months keeping the day, clamped to the end of a shorter month', () => {
    expect(formatLocalDate(addMonths(date('2027-01-31'), 1))).toBe('2027-02-28');
    expect(formatLocalDate(addMonths(date('2028-01-31'), 1))).toBe('2028-02-29');
    expect(formatLocalDate(addMonths(date('2026-11-30'), 3))).toBe('2027-02-28');
    expect(formatLocalDate(addMonths(date('2027-03-31'), -1))).toBe('2027-02-28');
    expect(formatLocalDate(addMonths(date('2028-02-29'), 12))).toBe('2029-02-28');
    expect(formatLocalDate(addMonths(date('2027-01-15'), -13))).toBe('2025-12-15');
    // Not invertible, by rule: 28 February − 3 months is 28 November, not 30.
    expect(formatLocalDate(addMonths(addMonths(date('2026-11-30'), 3), -3))).toBe('2026-11-28');
  });

  it('refuses dates that do not exist, naming the field', () => {
    for (const text of ['2027-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '26-01-01', 'yesterday', '2026-1-1']) {
      expect(() => parseLocalDate(text, 'fromDate'), text).toThrow(/fromDate/);
    }
    expect(parseLocalDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
  });

  it('names ISO weeks and finds their Mondays, 53-week years included', () => {
    expect(isoWeekOf(date('2026-02-14'))).toBe('2026-W07');
    expect(isoWeekOf(date('2025-12-29'))).toBe('2026-W01');
    expect(isoWeekOf(date('2027-01-01'))).toBe('2026-W53');
    expect(isoWeekOf(date('2027-01-04'))).toBe('2027-W01');
    expect(formatLocalDate(isoWeekStart(2026, 7) ?? date('1970-01-01'))).toBe('2026-02-09');
    expect(formatLocalDate(isoWeekStart(2026, 53) ?? date('1970-01-01'))).toBe('2026-12-28');
    expect(isoWeekStart(2025, 53)).toBeNull();
    expect(isoWeekStart(2026, 0)).toBeNull();
  });
});

describe('local time in a zone', () => {
  it('has a 23-hour day when the clocks go forward and a 25-hour day when they go back (Amsterdam, 2027)', () => {
    expect(dayLengthHours(date('2027-03-27'), AMSTERDAM)).toBe(24);
    expect(dayLengthHours(date('2027-03-28'), AMSTERDAM)).toBe(23);
    expect(dayLengthHours(date('2027-10-31'), AMSTERDAM)).toBe(25);
    expect(dayLengthHours(date('2027-11-01'), AMSTERDAM)).toBe(24);
    expect(dayRange(date('2027-03-28'), AMSTERDAM)).toEqual({
      start: Date.parse('2027-03-27T23:00:00Z'),
      end: Date.parse('2027-03-28T22:00:00Z'),
    });
    expect(dayRange(date('2027-10-31'), AMSTERDAM)).toEqual({
      start: Date.parse('2027-10-30T22:00:00Z'),
      end: Date.parse('2027-10-31T23:00:00Z'),
    });
    // Elsewhere the same rule on other days: New York changes on 14 March and 7 November 2027, Sydney in reverse.
    expect(dayLengthHours(date('2027-03-14'), NEW_YORK)).toBe(23);
    expect(dayLengthHours(date('2027-11-07'), NEW_YORK)).toBe(25);
    expect(dayLengthHours(date('2027-04-04'), SYDNEY)).toBe(25);
    expect(dayLengthHours(date('2027-10-03'), SYDNEY)).toBe(23);
    expect(dayLengthHours(date('2027-03-28'), 'UTC')).toBe(24);
  });

  it('lists the hours a local day really has', () => {
    const spring = hoursOfDay(date('2027-03-28'), AMSTERDAM);
    expect(spring.map((h) => h.hour)).toEqual([0, 1, ...Array.from({ length: 21 }, (_, i) => i + 3)]);
    const autumn = hoursOfDay(date('2027-10-31'), AMSTERDAM);
    expect(autumn.map((h) => h.hour)).toEqual([0, 1, 2, 2, ...Array.from({ length: 21 }, (_, i) => i + 3)]);
    for (const hours of [spring, autumn]) {
      // Contiguous, each one hour long, from the day's start to the next day's.
      for (const [i, h] of hours.entries()) {
        expect(h.end - h.start).toBe(3_600_000);
        if (i > 0) expect(h.start).toBe(hours[i - 1]?.end);
      }
    }
    expect(iso(autumn[2]?.start ?? 0)).toBe('2027-10-31T00:00:00.000Z');
    expect(iso(autumn[3]?.start ?? 0)).toBe('2027-10-31T01:00:00.000Z');
  });

  it('moves a skipped wall time on by the gap and takes the earlier of a repeated one', () => {
    expect(iso(instantOf({ ...date('2027-03-28'), hour: 2, minute: 30 }, AMSTERDAM))).toBe('2027-03-28T01:30:00.000Z');
    expect(localDateTimeOf(instantOf({ ...date('2027-03-28'), hour: 2, minute: 30 }, AMSTERDAM), AMSTERDAM).hour).toBe(3);
    expect(iso(instantOf({ ...date('2027-10-31'), hour: 2, minute: 30 }, AMSTERDAM))).toBe('2027-10-31T00:30:00.000Z');
    expect(iso(instantOf({ ...date('2027-07-01'), hour: 12 }, AMSTERDAM))).toBe('2027-07-01T10:00:00.000Z');
    expect(iso(instantOf({ ...date('2027-01-01'), hour: 12 }, AMSTERDAM))).toBe('2027-01-01T11:00:00.000Z');
  });

  it('starts the local day at local midnight, whatever the hour and the day length', () => {
    expect(iso(startOfLocalDay(Date.parse('2027-03-28T21:59:00Z'), AMSTERDAM))).toBe('2027-03-27T23:00:00.000Z');
    expect(iso(startOfLocalDay(Date.parse('2027-03-28T22:00:00Z'), AMSTERDAM))).toBe('2027-03-28T22:00:00.000Z');
    expect(iso(startOfLocalDay(Date.parse('2027-10-31T22:59:00Z'), AMSTERDAM))).toBe('2027-10-30T22:00:00.000Z');
    expect(formatLocalDate(localDateOf(Date.parse('2027-10-31T22:59:00Z'), AMSTERDAM))).toBe('2027-10-31');
    expect(formatLocalDate(localDateOf(Date.parse('2027-10-31T23:00:00Z'), AMSTERDAM))).toBe('2027-11-01');
  });

  it('adds local days and months keeping the wall-clock time across both changes', () => {
    // 07:00 the day before each change, a day later, is 07:00 again: 23 and 25 hours later.
    const beforeSpring = Date.parse('2027-03-27T06:00:00Z');
    expect(iso(addLocalDays(beforeSpring, 1, AMSTERDAM))).toBe('2027-03-28T05:00:00.000Z');
    expect(addLocalDays(beforeSpring, 1, AMSTERDAM) - beforeSpring).toBe(23 * 3_600_000);
    const beforeAutumn = Date.parse('2027-10-30T05:00:00Z');
    expect(iso(addLocalDays(beforeAutumn, 1, AMSTERDAM))).toBe('2027-10-31T06:00:00.000Z');
    expect(addLocalDays(beforeAutumn, 1, AMSTERDAM) - beforeAutumn).toBe(25 * 3_600_000);
    expect(addLocalDays(addLocalDays(beforeAutumn, 7, AMSTERDAM), -7, AMSTERDAM)).toBe(beforeAutumn);
    // 31 January 08:00 (winter) + 2 months is 31 March 08:00 (summer); + 1 month is 28 February 08:00.
    const endOfJanuary = Date.parse('2027-01-31T07:00:00Z');
    expect(iso(addLocalMonths(endOfJanuary, 2, AMSTERDAM))).toBe('2027-03-31T06:00:00.000Z');
    expect(iso(addLocalMonths(endOfJanuary, 1, AMSTERDAM))).toBe('2027-02-28T07:00:00.000Z');
    expect(iso(addLocalMonths(Date.parse('2028-01-31T07:00:00Z'), 1, AMSTERDAM))).toBe('2028-02-29T07:00:00.000Z');
    // 02:30 a month before the spring change lands in its gap and moves on to 03:30.
    expect(iso(addLocalMonths(Date.parse('2027-02-28T01:30:00Z'), 1, AMSTERDAM))).toBe('2027-03-28T01:30:00.000Z');
  });
});
