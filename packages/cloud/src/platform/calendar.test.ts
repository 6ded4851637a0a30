import { HearthError } from '@hearth/contract';
import { describe, expect, it } from 'vitest';
import { addMonths, addPeriod, parsePeriod } from './calendar';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe('calendar arithmetic', () => {
  it('keeps the day of the month, or takes the month’s last day when the target month is shorter', () => {
    expect(iso(addPeriod(at('2027-01-31T10:15:00.000Z'), 'P1M'))).toBe('2027-02-28T10:15:00.000Z');
    expect(iso(addPeriod(at('2028-01-31T10:15:00.000Z'), 'P1M'))).toBe('2028-02-29T10:15:00.000Z');
    expect(iso(addPeriod(at('2027-03-31T00:00:00.000Z'), 'P1M'))).toBe('2027-04-30T00:00:00.000Z');
    expect(iso(addPeriod(at('2026-11-29T12:00:00.000Z'), 'P1M', 3))).toBe('2027-02-28T12:00:00.000Z');
    expect(iso(addPeriod(at('2026-11-30T23:59:59.999Z'), 'P3M'))).toBe('2027-02-28T23:59:59.999Z');
    expect(iso(addPeriod(at('2027-01-15T08:00:00.000Z'), 'P1M'))).toBe('2027-02-15T08:00:00.000Z');
  });

  it('crosses years both ways and counts a year as twelve months', () => {
    expect(iso(addPeriod(at('2026-12-31T00:00:00.000Z'), 'P2M'))).toBe('2027-02-28T00:00:00.000Z');
    expect(iso(addMonths(at('2027-01-31T00:00:00.000Z'), -2))).toBe('2026-11-30T00:00:00.000Z');
    expect(iso(addMonths(at('2027-03-15T00:00:00.000Z'), -15))).toBe('2025-12-15T00:00:00.000Z');
    expect(iso(addPeriod(at('2028-02-29T06:00:00.000Z'), 'P1Y'))).toBe('2029-02-28T06:00:00.000Z');
    expect(iso(addPeriod(at('2028-02-29T06:00:00.000Z'), 'P4Y'))).toBe('2032-02-29T06:00:00.000Z');
    expect(iso(addPeriod(at('2028-02-29T06:00:00.000Z'), 'P1Y', -1))).toBe('2027-02-28T06:00:00.000Z');
  });

  it('counts days and weeks as 24 hours in UTC, across the nights clocks change anywhere', () => {
    // Europe's spring and autumn changes of 2027, and the United States' spring change.
    for (const night of ['2027-03-28T00:30:00.000Z', '2027-10-31T00:30:00.000Z', '2027-03-14T06:30:00.000Z']) {
      const start = at(night);
      expect(addPeriod(start, 'P1D').getTime() - start.getTime()).toBe(86_400_000);
      expect(addPeriod(start, 'P2W').getTime() - start.getTime()).toBe(14 * 86_400_000);
      expect(iso(addPeriod(addPeriod(start, 'P1D'), 'P1D', -1))).toBe(night);
    }
  });

  it('is not invertible across a clamped month end, which is why refunds keep what a grant moved', () => {
    const end = addPeriod(at('2026-11-30T12:00:00.000Z'), 'P3M');
    expect(iso(end)).toBe('2027-02-28T12:00:00.000Z');
    expect(iso(addPeriod(end, 'P3M', -1))).toBe('2026-11-28T12:00:00.000Z');
  });

  it('reads periods of one unit and refuses anything else with a 400 naming the field', () => {
    expect(parsePeriod('P12M')).toEqual({ count: 12, unit: 'M' });
    expect(parsePeriod('P1Y')).toEqual({ count: 1, unit: 'Y' });
    for (const bad of ['P0M', 'P100D', 'P1H', 'PT1H', '1M', 'P1M2D', '']) {
      let thrown: unknown;
      try {
        parsePeriod(bad, 'subscriptionDuration');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HearthError);
      expect((thrown as HearthError).statusCode).toBe(400);
      expect((thrown as HearthError).message).toContain('subscriptionDuration');
    }
  });
});
