import type { hubOperations, OperationResult } from '@hearth/contract';

export type LiveReport = OperationResult<typeof hubOperations.energy.getLiveReport>;
export type Report = OperationResult<typeof hubOperations.energy.getReportWeek>;
export type Period = 'day' | 'week' | 'month' | 'year';

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The ISO 8601 week of a date (weeks start on Monday; week 1 holds the year's first Thursday): `2026-W07`. */
export function isoWeek(date: Date): string {
  const thursday = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 3 - ((date.getDay() + 6) % 7));
  const firstThursday = new Date(thursday.getFullYear(), 0, 4);
  const week =
    1 +
    Math.round((thursday.getTime() - firstThursday.getTime()) / 86_400_000 / 7 - (3 - ((firstThursday.getDay() + 6) % 7)) / 7);
  return `${thursday.getFullYear()}-W${pad(week)}`;
}

/** The period holding `date`, as the report calls take it. */
export function periodKey(period: Period, date: Date): string {
  if (period === 'day') return localDate(date);
  if (period === 'week') return isoWeek(date);
  if (period === 'month') return `${date.getFullYear()}-${pad(date.getMonth() + 1)}`;
  return String(date.getFullYear());
}

/** `date` moved by `steps` whole periods (back when negative). */
export function shift(period: Period, date: Date, steps: number): Date {
  const next = new Date(date);
  if (period === 'day') next.setDate(next.getDate() + steps);
  else if (period === 'week') next.setDate(next.getDate() + 7 * steps);
  else if (period === 'month') next.setMonth(next.getMonth() + steps, 1);
  else next.setFullYear(next.getFullYear() + steps);
  return next;
}

/** Asks the energy manager for the report of the period holding `date`. */
export function loadReport(
  energy: { [name: string]: (args: Record<string, string>) => Promise<unknown> },
  period: Period,
  date: Date,
): Promise<Report> {
  const key = periodKey(period, date);
  const calls = {
    day: () => energy.getReportDay({ date: key }),
    week: () => energy.getReportWeek({ isoWeek: key }),
    month: () => energy.getReportMonth({ yearMonth: key }),
    year: () => energy.getReportYear({ year: key }),
  };
  return calls[period]() as Promise<Report>;
}

export const formatKWh = (kWh: number) => `${kWh.toLocaleString(undefined, { maximumFractionDigits: 2 })} kWh`;
export const formatWatts = (W: number) => `${Math.round(W).toLocaleString()} W`;
export const formatMoney = (amount: number, currency: string) => {
  try {
    return amount.toLocaleString(undefined, { style: 'currency', currency });
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};
