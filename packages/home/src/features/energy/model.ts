import type { hubOperations, OperationResult } from '@hearth/contract';
import { format } from '../../app/strings';

export type LiveReport = OperationResult<typeof hubOperations.energy.getLiveReport>;
export type Report = OperationResult<typeof hubOperations.energy.getReportWeek>;
export type Period = 'day' | 'week' | 'month' | 'year';

/**
 * A day of the calendar, `YYYY-MM-DD`, as the hub counts days: in the hub's time zone, never the browser's (a person
 * abroad looks at their home's days). Its arithmetic runs on UTC dates, which have no clock changes.
 */
export type CalendarDay = string;

const pad = (n: number) => String(n).padStart(2, '0');
const asUtc = (day: CalendarDay): Date => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date));
};
const dayOf = (date: Date): CalendarDay => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;

/** The day it is at `now` in `timeZone` (an IANA zone; the browser's when the hub's is not known). */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): CalendarDay {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    now,
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The ISO 8601 week of a day (weeks start on Monday; week 1 holds the year's first Thursday): `2026-W07`. */
export function isoWeek(day: CalendarDay): string {
  const date = asUtc(day);
  const thursday = new Date(date);
  thursday.setUTCDate(date.getUTCDate() + 3 - ((date.getUTCDay() + 6) % 7));
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = 1 + Math.floor((thursday.getTime() - yearStart) / 86_400_000 / 7);
  return `${thursday.getUTCFullYear()}-W${pad(week)}`;
}

/** The period holding `day`, as the report calls take it; keys of one period sort as their periods do. */
export function periodKey(period: Period, day: CalendarDay): string {
  if (period === 'day') return day;
  if (period === 'week') return isoWeek(day);
  if (period === 'month') return day.slice(0, 7);
  return day.slice(0, 4);
}

/** `day` moved by `steps` whole periods (back when negative); a month or year step lands on the 1st. */
export function shift(period: Period, day: CalendarDay, steps: number): CalendarDay {
  const next = asUtc(day);
  if (period === 'day') next.setUTCDate(next.getUTCDate() + steps);
  else if (period === 'week') next.setUTCDate(next.getUTCDate() + 7 * steps);
  else if (period === 'month') next.setUTCMonth(next.getUTCMonth() + steps, 1);
  else next.setUTCFullYear(next.getUTCFullYear() + steps, 0, 1);
  return dayOf(next);
}

/** Asks the energy manager for the report of the period holding `day`. */
export function loadReport(
  energy: { [name: string]: (args: Record<string, string>) => Promise<unknown> },
  period: Period,
  day: CalendarDay,
): Promise<Report> {
  const key = periodKey(period, day);
  const calls = {
    day: () => energy.getReportDay({ date: key }),
    week: () => energy.getReportWeek({ isoWeek: key }),
    month: () => energy.getReportMonth({ yearMonth: key }),
    year: () => energy.getReportYear({ year: key }),
  };
  return calls[period]() as Promise<Report>;
}

export const formatKWh = (kWh: number) => format.unit(kWh, 'kWh', { maximumFractionDigits: 2 });
export const formatWatts = (W: number) => format.unit(Math.round(W), 'W');
export const formatMoney = (amount: number, currency: string) => {
  try {
    return format.currency(amount, currency);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};

/** The Monday that starts the ISO week of `day`. */
function mondayOf(day: CalendarDay): Date {
  const date = asUtc(day);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date;
}

/**
 * The period holding `day` as people read it, in `locale` (the browser's when undefined): a day "Sun, 29 Nov 2026", a
 * week by its days "23–29 Nov 2026" (across months and years as needed), a month "November 2026", a year "2026".
 * Calendar days are UTC dates here, so they are formatted in UTC.
 */
export function periodLabel(period: Period, day: CalendarDay, locale?: string): string {
  const date = asUtc(day);
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
  if (period === 'day') return format({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(date);
  if (period === 'week') {
    const monday = mondayOf(day);
    const sunday = new Date(monday);
    sunday.setUTCDate(monday.getUTCDate() + 6);
    return format({ day: 'numeric', month: 'short', year: 'numeric' }).formatRange(monday, sunday);
  }
  if (period === 'month') return format({ month: 'long', year: 'numeric' }).format(date);
  return format({ year: 'numeric' }).format(date);
}

/**
 * A part of a report's chart by its place in the period: a week's days by weekday ("Mon"), a month's by their number,
 * a year's months by name ("Nov"). Parts are `YYYY-MM-DD` days or `YYYY-MM` months.
 */
export function partLabel(period: Period, part: string, locale?: string): string {
  const date = asUtc(part.length === 7 ? `${part}-01` : part);
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(date);
  if (period === 'week') return format({ weekday: 'short' });
  if (period === 'year') return format({ month: 'short' });
  return format({ day: 'numeric' });
}
