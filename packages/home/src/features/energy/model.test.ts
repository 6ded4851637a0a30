import { describe, expect, it } from 'vitest';
import { isoWeek, periodLabel as labelOf, partLabel, periodKey, shift, todayIn } from './model';

describe('energy periods', () => {
  it('names ISO weeks, including those that belong to the next or the previous year', () => {
    expect(isoWeek('2026-02-14')).toBe('2026-W07');
    expect(isoWeek('2026-11-28')).toBe('2026-W48');
    // 29 December 2025 is a Monday in the week holding 1 January 2026 (a Thursday): week 1 of 2026.
    expect(isoWeek('2025-12-29')).toBe('2026-W01');
    // 1 January 2027 is a Friday: it belongs to the last week of 2026, which has 53.
    expect(isoWeek('2027-01-01')).toBe('2026-W53');
    expect(isoWeek('2027-01-04')).toBe('2027-W01');
    // A Sunday ends its week; the Monday after starts the next.
    expect(isoWeek('2027-10-31')).toBe('2027-W43');
    expect(isoWeek('2027-11-01')).toBe('2027-W44');
  });

  it('keys each period as the report calls take it, and steps whole periods', () => {
    const day = '2026-01-31';
    expect(periodKey('day', day)).toBe('2026-01-31');
    expect(periodKey('month', day)).toBe('2026-01');
    expect(periodKey('year', day)).toBe('2026');
    // A month back from the 31st lands in the month before, not two months back.
    expect(periodKey('month', shift('month', '2026-03-31', -1))).toBe('2026-02');
    expect(periodKey('week', shift('week', day, 1))).toBe('2026-W06');
    expect(periodKey('day', shift('day', day, 1))).toBe('2026-02-01');
    expect(shift('year', '2028-02-29', 1)).toBe('2029-01-01');
    // Across the nights the clocks change a day is still one step.
    expect(shift('day', '2027-03-27', 1)).toBe('2027-03-28');
    expect(shift('day', '2027-10-31', 1)).toBe('2027-11-01');
  });

  it('counts today in the hub’s time zone, not the browser’s', () => {
    // 23:30 UTC on 30 November is already 1 December in Amsterdam and still 30 November in New York.
    const now = new Date('2026-11-30T23:30:00Z');
    expect(todayIn('Europe/Amsterdam', now)).toBe('2026-12-01');
    expect(todayIn('America/New_York', now)).toBe('2026-11-30');
    expect(todayIn('Pacific/Kiritimati', new Date('2026-11-30T10:30:00Z'))).toBe('2026-12-01');
  });

  it('names periods as people read them, a week by its days across months and years', () => {
    // ICU puts thin and narrow spaces around a range's dash: compared as plain spaces.
    const periodLabel = (...args: Parameters<typeof labelOf>) => labelOf(...args).replace(/\s/g, ' ');
    expect(periodLabel('day', '2026-11-29', 'en-GB')).toBe('Sun, 29 Nov 2026');
    expect(periodLabel('week', '2026-11-26', 'en-GB')).toBe('23 – 29 Nov 2026');
    expect(periodLabel('week', '2026-12-02', 'en-GB')).toBe('30 Nov – 6 Dec 2026');
    expect(periodLabel('week', '2026-01-01', 'en-GB')).toBe('29 Dec 2025 – 4 Jan 2026');
    expect(periodLabel('month', '2026-11-29', 'en-GB')).toBe('November 2026');
    expect(periodLabel('year', '2026-11-29', 'en-GB')).toBe('2026');
    expect(periodLabel('week', '2026-11-26', 'nl')).toBe('23–29 nov 2026');
  });

  it('labels a chart’s parts by weekday, day of the month or month', () => {
    expect(partLabel('week', '2026-11-23', 'en-GB')).toBe('Mon');
    expect(partLabel('month', '2026-11-07', 'en-GB')).toBe('7');
    expect(partLabel('year', '2026-11', 'en-GB')).toBe('Nov');
  });
});
