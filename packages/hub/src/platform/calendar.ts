import { invalidParameter } from '@hearth/contract';

/**
 * The hub's calendar arithmetic, in one place. The hub keeps local time in its own time zone (the `i18n` option
 * `timezone`, which need not be the host's), so nothing here reads the process's zone: every function takes the
 * zone, and Intl (the runtime's time zone database) does the zone arithmetic.
 *
 * Rules:
 * - A local date is a calendar date without a zone (`{ year, month: 1–12, day }`); days and months are added to
 *   it as calendar dates, never as 24-hour steps, so a day is one day whether it has 23, 24 or 25 hours.
 * - Months keep the day of the month, and a day the target month does not have is its last day: 31 January
 *   + 1 month is 28 February (29 in a leap year). That never skips a month, and it is not invertible.
 * - A wall-clock time that does not exist (the hour the clocks skip in spring) is moved on by the length of the
 *   gap (02:30 on a 23-hour day in Amsterdam is 03:30); one that exists twice (the hour repeated in autumn) is
 *   the earlier of the two.
 * - A local day starts at its first instant (local midnight, or the end of a gap at midnight) and ends where the
 *   next one starts: 23, 24 or 25 hours.
 */

export interface LocalDate {
  readonly year: number;
  /** 1 (January) to 12. */
  readonly month: number;
  readonly day: number;
}

export interface LocalDateTime extends LocalDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The date as `2027-03-28`. */
export const formatLocalDate = (date: LocalDate): string => `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Reads `YYYY-MM-DD`; anything else, or a day the month does not have, is a 400 naming `field`. */
export function parseLocalDate(text: string, field = 'date'): LocalDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw invalidParameter(field, `Expected a date as YYYY-MM-DD, got ${text}`);
  }
  return { year, month, day };
}

/** The calendar date `days` days after `date` (before, when negative). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** The calendar date `months` months after `date` (before, when negative), the day clamped to the month's end. */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** The day of the week of a date: 0 is Sunday. */
export const weekdayOf = (date: LocalDate): number => new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();

/** Days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: LocalDate, to: LocalDate): number =>
  Math.round((Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / DAY_MS);

/** Compares two dates as calendar dates (negative, 0 or positive). */
export const compareDates = (a: LocalDate, b: LocalDate): number => daysBetween(b, a);

/** The ISO 8601 week (`2026-W07`: weeks start on Monday, week 1 holds the year's first Thursday) of a date. */
export function isoWeekOf(date: LocalDate): string {
  const thursday = addDays(date, 3 - ((weekdayOf(date) + 6) % 7));
  const week = 1 + Math.floor(daysBetween({ year: thursday.year, month: 1, day: 1 }, thursday) / 7);
  return `${thursday.year}-W${pad(week)}`;
}

/** The Monday that starts ISO week `week` of `year`, or `null` when that year has no such week (0, 53 of most). */
export function isoWeekStart(year: number, week: number): LocalDate | null {
  const jan4: LocalDate = { year, month: 1, day: 4 };
  const monday = addDays(jan4, -((weekdayOf(jan4) + 6) % 7) + (week - 1) * 7);
  return week >= 1 && isoWeekOf(monday) === `${year}-W${pad(week)}` ? monday : null;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall-clock date and time in `zone` at instant `at` (epoch ms). */
export function localDateTimeOf(at: number, zone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const part of formatIn(zone).formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: ((at % 1000) + 1000) % 1000,
  };
}

/** The local date in `zone` at instant `at`. */
export function localDateOf(at: number, zone: string): LocalDate {
  const { year, month, day } = localDateTimeOf(at, zone);
  return { year, month, day };
}

const wallClockMs = (local: LocalDateTime) =>
  Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);

/** How far `zone`'s wall clock is ahead of UTC at instant `at`, in ms (Amsterdam in summer: 7,200,000). */
export const offsetAt = (at: number, zone: string): number => wallClockMs(localDateTimeOf(at, zone)) - at;

/** The instant a wall-clock time in `zone` names; a skipped time moves on by the gap, a repeated one is the earlier. */
export function instantOf(local: LocalDate & Partial<LocalDateTime>, zone: string): number {
  const wall = wallClockMs({ hour: 0, minute: 0, second: 0, millisecond: 0, ...local });
  // Offsets change at most once around any wall time in practice: the offsets a day either side are the candidates.
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const fits = [before, after].map((offset) => wall - offset).filter((at) => offsetAt(at, zone) === wall - at);
  // No candidate fits inside a gap: the offset before it, applied, lands as far past the gap's end as asked.
  return fits.length > 0 ? Math.min(...fits) : wall - before;
}

/** The first instant of local date `date` in `zone`. */
export const startOfDay = (date: LocalDate, zone: string): number => instantOf(date, zone);

/** The first instant of the local day holding instant `at`. */
export const startOfLocalDay = (at: number, zone: string): number => startOfDay(localDateOf(at, zone), zone);

/** The instants [start, end) of local date `date` in `zone`. */
export function dayRange(date: LocalDate, zone: string): { start: number; end: number } {
  return { start: startOfDay(date, zone), end: startOfDay(addDays(date, 1), zone) };
}

/** The length of local date `date` in `zone`, in hours: 24, or 23 and 25 on the days the clocks change. */
export function dayLengthHours(date: LocalDate, zone: string): number {
  const { start, end } = dayRange(date, zone);
  return (end - start) / HOUR_MS;
}

/**
 * The hours a local day really has, each with its start and end instants and its local hour: 23 on the day the
 * clocks skip an hour (no hour 2 in Amsterdam), 25 on the day they repeat one (hour 2 twice).
 */
export function hoursOfDay(date: LocalDate, zone: string): { start: number; end: number; hour: number }[] {
  const { start, end } = dayRange(date, zone);
  const hours: { start: number; end: number; hour: number }[] = [];
  for (let at = start; at < end; at += HOUR_MS) {
    hours.push({ start: at, end: Math.min(at + HOUR_MS, end), hour: localDateTimeOf(at, zone).hour });
  }
  return hours;
}

/** Instant `at` moved by `days` local days, keeping its wall-clock time (see the rules for gaps and repeats). */
export function addLocalDays(at: number, days: number, zone: string): number {
  const local = localDateTimeOf(at, zone);
  return instantOf({ ...local, ...addDays(local, days) }, zone);
}

/** Instant `at` moved by `months` local months, keeping its wall-clock time, the day clamped to the month's end. */
export function addLocalMonths(at: number, months: number, zone: string): number {
  const local = localDateTimeOf(at, zone);
  return instantOf({ ...local, ...addMonths(local, months) }, zone);
}
