import { invalidParameter } from '@hearth/contract';

/**
 * The cloud's calendar arithmetic, in one place. Periods are ISO 8601 durations of one unit (`P1D`, `P2W`, `P1M`,
 * `P1Y`, up to 99 of it) and are counted in UTC, the cloud's one time zone: a day is 24 hours, so a period never
 * gains or loses an hour across a daylight-saving change anywhere.
 *
 * Months and years keep the day of the month, and a day the target month does not have is the month's last day:
 * 31 January + 1 month is 28 February (29 in a leap year), 29 February 2028 + 1 year is 28 February 2029. That is
 * what people expect of "a month" and never skips a month (JavaScript's `setUTCMonth` would make 31 January + 1
 * month 3 March).
 *
 * Calendar arithmetic is not invertible: 30 November + 3 months is 28 February, and 28 February − 3 months is
 * 28 November. Whatever must later be undone exactly (a refund of what an order granted) keeps the instants it
 * moved between instead of subtracting a period again.
 */

const PERIOD = /^P([1-9][0-9]?)(D|W|M|Y)$/;

export interface Period {
  readonly count: number;
  readonly unit: 'D' | 'W' | 'M' | 'Y';
}

/** Reads an ISO 8601 period of one unit; anything else is a 400 naming `field`. */
export function parsePeriod(period: string, field = 'duration'): Period {
  const match = PERIOD.exec(period);
  if (!match) throw invalidParameter(field, `${period} is no period (P1D, P2W, P1M, P1Y)`);
  return { count: Number(match[1]), unit: match[2] as Period['unit'] };
}

const DAY_MS = 86_400_000;

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** `from` moved by `months` calendar months (negative goes back), the day clamped to the target month's end. */
export function addMonths(from: Date, months: number): Date {
  const monthIndex = from.getUTCMonth() + months;
  const year = from.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const day = Math.min(from.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(year, month, day, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()),
  );
}

/** `from` moved by `period` × `times` (negative goes back): see the rules above. */
export function addPeriod(from: Date, period: string | Period, times = 1): Date {
  const { count, unit } = typeof period === 'string' ? parsePeriod(period) : period;
  const steps = count * times;
  if (unit === 'D') return new Date(from.getTime() + steps * DAY_MS);
  if (unit === 'W') return new Date(from.getTime() + 7 * steps * DAY_MS);
  return addMonths(from, unit === 'M' ? steps : 12 * steps);
}
