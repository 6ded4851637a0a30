import { invalidParameter } from '@hearth/contract';
import { isoNow } from '../../core/clock';
import {
  addDays,
  addMonths,
  compareDates,
  formatLocalDate,
  isoWeekOf,
  isoWeekStart,
  type LocalDate,
  localDateOf,
  parseLocalDate,
  startOfDay,
} from '../../platform/calendar';
import type { HubContext } from '../../platform/context';
import type { Migration } from '../../store/database';
import { hubTimezone } from '../i18n/timezone';
import type { InsightsService } from '../insights/service';
import { readOption } from '../options';
import type { ElectricityPrices } from './prices';
import { ENERGY_DEFAULTS, type EnergyService } from './service';

export const energyReportMigrations: Migration[] = [
  {
    id: 'energy-001-reports',
    up: (db) => db.exec('CREATE TABLE energy_report (date TEXT PRIMARY KEY, report TEXT NOT NULL, created_at TEXT NOT NULL)'),
  },
];

export type Period = 'day' | 'week' | 'month' | 'year';

interface Item {
  id: string;
  name: string;
  zone: string;
  kWh: number;
  source: string;
  category: string;
}

export interface DayReport {
  period: 'day';
  date: string;
  start: string;
  end: string;
  kWh: number;
  cost: number;
  currency: string;
  kWhCost: number;
  priceType: string;
  items: Item[];
  cumulative: { id: string; name: string; kWh: number }[];
}

interface DummySettings {
  fromDate: string;
  toDate: string;
  randomness: number;
  numTopConsumers: number;
}

const DUMMY_KEY = 'energy.dummyReports';
const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** A device's report category, from its class. */
function categoryOf(deviceClass: string): string {
  if (deviceClass === 'solarpanel') return 'solar';
  if (deviceClass === 'battery' || deviceClass === 'evcharger') return deviceClass;
  if (deviceClass === 'light') return 'lights';
  if (['thermostat', 'heater', 'heatpump', 'airconditioning', 'boiler'].includes(deviceClass)) return 'climate';
  return 'other';
}

/**
 * The local days of a period as asked (`2026-02-14`, `2026-W07`, `2026-02`, `2026`), checked: its first day,
 * the day after its last, and the instants they start at in the hub's time zone `zone` (so a period holding a
 * change of the clocks is an hour shorter or longer).
 */
export function periodRange(
  period: Period,
  value: string,
  field: string,
  zone: string,
): { first: LocalDate; after: LocalDate; start: Date; end: Date } {
  const bad = (): never => {
    throw invalidParameter(field, `${value} is not a ${period === 'week' ? 'ISO week' : period}`);
  };
  const within = (first: LocalDate, after: LocalDate) => ({
    first,
    after,
    start: new Date(startOfDay(first, zone)),
    end: new Date(startOfDay(after, zone)),
  });
  if (period === 'day') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) bad();
    const first = parseLocalDate(value, field);
    return within(first, addDays(first, 1));
  }
  const match = /^(\d{4})(?:-W?(\d{2}))?$/.exec(value);
  const year = Number(match?.[1]);
  const n = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || year < 1970) bad();
  if (period === 'week') {
    const monday = value.includes('-W') && n !== undefined ? isoWeekStart(year, n) : null;
    if (!monday) return bad();
    return within(monday, addDays(monday, 7));
  }
  if (period === 'month') {
    if (n === undefined || n < 1 || n > 12 || value.includes('W')) bad();
    const first = { year, month: n ?? 1, day: 1 };
    return within(first, addMonths(first, 1));
  }
  if (n !== undefined) bad();
  return within({ year, month: 1, day: 1 }, { year: year + 1, month: 1, day: 1 });
}

/** A number from 0 to 1 that is always the same for the same text. */
function stableRandom(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return ((hash >>> 0) % 10_000) / 10_000;
}

/**
 * Energy reports of days, ISO weeks, months and years, from insights. A past day's report is stored once
 * computed (a week, month or year adds up its days), so reports stay cheap; `cache=false`, resetting a day's
 * categories or deleting the reports computes them again. Cost is the kWh at the fixed price, or with dynamic
 * prices at the day's average market price including the user's costs.
 */
export class EnergyReports {
  constructor(
    private readonly context: HubContext,
    private readonly energy: EnergyService,
    private readonly insights: InsightsService,
    private readonly prices: ElectricityPrices,
  ) {}

  /** The hub's time zone, which local days are counted in. */
  private zone(): string {
    return hubTimezone(this.context);
  }

  private stored(date: string): DayReport | null {
    const row = this.context.db.prepare('SELECT report FROM energy_report WHERE date = ?').get(date) as
      | { report: string }
      | undefined;
    return row ? (JSON.parse(row.report) as DayReport) : null;
  }

  private dummy(): DummySettings | null {
    return this.context.settings.get<DummySettings | null>(DUMMY_KEY, null);
  }

  private computeDay(date: string, start: Date, end: Date): DayReport {
    const usage = this.energy.usage(start.getTime(), end.getTime());
    const items: Item[] = usage.items.map(({ class: deviceClass, ...item }) => ({ ...item, category: categoryOf(deviceClass) }));
    const dummy = this.dummy();
    if (dummy && date >= dummy.fromDate && date <= dummy.toDate) {
      for (let n = 1; n <= dummy.numTopConsumers; n++) {
        const jitter = 1 + dummy.randomness * (stableRandom(`${date}:${n}`) * 2 - 1);
        items.push({
          id: `dummy-consumer-${n}`,
          name: `Consumer ${n}`,
          zone: '',
          kWh: round((6 / n) * jitter, 3),
          source: 'dummy',
          category: ['climate', 'other', 'lights', 'evcharger'][n % 4] as string,
        });
      }
    }
    const kWh = round(
      items.reduce((sum, item) => sum + item.kWh, 0),
      3,
    );
    const priceType = this.prices.type();
    let kWhCost: number;
    let currency: string;
    if (priceType === 'dynamic') {
      const day = this.prices.day(date);
      kWhCost = round(day.prices.reduce((sum, p) => sum + p.priceWithUserCosts, 0) / day.prices.length, 5);
      currency = day.currency;
    } else {
      kWhCost = readOption<number>(this.context, 'energy', 'kWhCost', ENERGY_DEFAULTS.kWhCost);
      currency = readOption<string>(this.context, 'energy', 'currency', ENERGY_DEFAULTS.currency);
    }
    return {
      period: 'day',
      date,
      start: start.toISOString(),
      end: end.toISOString(),
      kWh,
      cost: round(kWh * kWhCost, 2),
      currency,
      kWhCost,
      priceType,
      items: items.sort((a, b) => b.kWh - a.kWh),
      cumulative: usage.cumulative,
    };
  }

  /** One day's report: stored once the day is over, unless `fresh`. */
  day(date: string, fresh = false, field = 'date'): DayReport {
    const { start, end } = periodRange('day', date, field, this.zone());
    if (!fresh) {
      const stored = this.stored(date);
      if (stored) return stored;
    }
    const report = this.computeDay(date, start, end);
    if (end.getTime() <= this.context.clock.now()) {
      this.context.db
        .prepare(
          'INSERT INTO energy_report (date, report, created_at) VALUES (?, ?, ?) ON CONFLICT (date) DO UPDATE SET report = excluded.report, created_at = excluded.created_at',
        )
        .run(date, JSON.stringify(report), isoNow(this.context.clock));
    } else {
      this.context.db.prepare('DELETE FROM energy_report WHERE date = ?').run(date);
    }
    return report;
  }

  /** A week's, month's or year's report: its days added up, with a part per day (per month for a year). */
  period(period: Exclude<Period, 'day'>, value: string, field: string, fresh = false) {
    const { first, after, start, end } = periodRange(period, value, field, this.zone());
    const items = new Map<string, Item>();
    const cumulative = new Map<string, { id: string; name: string; kWh: number }>();
    const parts = new Map<string, { date: string; kWh: number; cost: number }>();
    let kWh = 0;
    let cost = 0;
    let currency = readOption<string>(this.context, 'energy', 'currency', ENERGY_DEFAULTS.currency);
    const today = localDateOf(this.context.clock.now(), this.zone());
    const last = compareDates(after, today) > 0 ? addDays(today, 1) : after;
    for (let day = first; compareDates(day, last) < 0; day = addDays(day, 1)) {
      const report = this.day(formatLocalDate(day), fresh);
      currency = report.currency;
      kWh += report.kWh;
      cost += report.cost;
      for (const item of report.items) {
        const sum = items.get(item.id);
        items.set(item.id, sum ? { ...sum, kWh: sum.kWh + item.kWh } : { ...item });
      }
      for (const meter of report.cumulative) {
        const sum = cumulative.get(meter.id);
        cumulative.set(meter.id, { ...meter, kWh: (sum?.kWh ?? 0) + meter.kWh });
      }
      const key = period === 'year' ? report.date.slice(0, 7) : report.date;
      const part = parts.get(key) ?? { date: key, kWh: 0, cost: 0 };
      parts.set(key, { date: key, kWh: part.kWh + report.kWh, cost: part.cost + report.cost });
    }
    const fixed = readOption<number>(this.context, 'energy', 'kWhCost', ENERGY_DEFAULTS.kWhCost);
    return {
      period,
      date: value,
      start: start.toISOString(),
      end: end.toISOString(),
      kWh: round(kWh, 3),
      cost: round(cost, 2),
      currency,
      kWhCost: kWh > 0 ? round(cost / kWh, 5) : fixed,
      priceType: this.prices.type(),
      items: [...items.values()].map((i) => ({ ...i, kWh: round(i.kWh, 3) })).sort((a, b) => b.kWh - a.kWh),
      cumulative: [...cumulative.values()].map((c) => ({ ...c, kWh: round(c.kWh, 3) })),
      parts: [...parts.values()].map((p) => ({ ...p, kWh: round(p.kWh, 3), cost: round(p.cost, 2) })),
    };
  }

  /** The days, weeks, months and years with energy data (measured, or demonstration data), up to today. */
  available() {
    const zone = this.zone();
    const days = new Set(this.insights.energyHours().map((hour) => formatLocalDate(localDateOf(hour, zone))));
    const dummy = this.dummy();
    if (dummy) {
      const today = localDateOf(this.context.clock.now(), zone);
      const to = parseLocalDate(dummy.toDate);
      const last = compareDates(to, today) < 0 ? to : today;
      for (let d = parseLocalDate(dummy.fromDate); compareDates(d, last) <= 0; d = addDays(d, 1)) {
        days.add(formatLocalDate(d));
      }
    }
    const sorted = [...days].sort();
    const unique = (list: string[]) => [...new Set(list)].sort();
    return {
      days: sorted,
      weeks: unique(sorted.map((day) => isoWeekOf(parseLocalDate(day)))),
      months: unique(sorted.map((day) => day.slice(0, 7))),
      years: unique(sorted.map((day) => day.slice(0, 4))),
    };
  }

  /** Forgets every stored report. */
  deleteAll(): void {
    this.context.db.prepare('DELETE FROM energy_report').run();
  }

  /** Demonstration data from `fromDate` to `toDate` (default: the last 30 days); reports are computed again. */
  enableDummy(query: { fromDate?: string; toDate?: string; randomness?: string; numTopConsumers?: string }) {
    const today = localDateOf(this.context.clock.now(), this.zone());
    const toDate = query.toDate ?? formatLocalDate(today);
    const fromDate = query.fromDate ?? formatLocalDate(addDays(today, -29));
    parseLocalDate(fromDate, 'fromDate');
    parseLocalDate(toDate, 'toDate');
    if (fromDate > toDate) throw invalidParameter('fromDate', 'Must not be after toDate');
    const numTopConsumers = Number(query.numTopConsumers ?? 5);
    if (numTopConsumers < 1 || numTopConsumers > 20) throw invalidParameter('numTopConsumers', 'Expected 1 to 20');
    const settings: DummySettings = { fromDate, toDate, randomness: Number(query.randomness ?? 0.2), numTopConsumers };
    this.context.settings.set(DUMMY_KEY, settings);
    this.deleteAll();
    return { enabled: true, ...settings };
  }

  disableDummy() {
    this.context.settings.delete(DUMMY_KEY);
    this.deleteAll();
    return { enabled: false };
  }
}
