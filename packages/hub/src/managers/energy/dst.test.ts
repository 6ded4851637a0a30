import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';

interface Prices {
  date: string;
  prices: { start: string; end: string; price: number }[];
}
interface Report {
  start: string;
  end: string;
  kWh: number;
  parts?: { date: string; kWh: number }[];
}

const HOUR = 3_600_000;

/**
 * The hub counts local days in its own time zone, which need not be the host's: two zones whose clocks change on
 * different days, so that whatever zone the test process runs in, at least one of them is not it.
 */
const ZONES = [
  {
    zone: 'Europe/Amsterdam',
    spring: '2027-03-28',
    autumn: '2027-10-31',
    week: '2027-W43',
    springMidnight: '2027-03-27T23:00:00Z',
  },
  {
    zone: 'America/New_York',
    spring: '2027-03-14',
    autumn: '2027-11-07',
    week: '2027-W44',
    springMidnight: '2027-03-14T05:00:00Z',
  },
] as const;

describe('energy on the days the clocks change, in the hub’s time zone', () => {
  let t: TestHub;
  let socket: string;
  const clock = new FakeClock(Date.parse('2027-12-01T12:00:00Z'));

  beforeAll(async () => {
    t = await startTestHub({}, { clock });
    await untilAppRunning(t);
    socket = await pairDevice(t, 'homey:app:com.hearth.virtual:virtualsocket');
  });
  afterAll(() => t.stop());

  for (const { zone, spring, autumn, week, springMidnight } of ZONES) {
    it(`has 23 hourly prices on ${spring} and 25 on ${autumn} in ${zone}, end to end from midnight to midnight`, async () => {
      expect((await t.call('PUT', '/i18n/option/timezone', { value: zone })).status).toBe(200);
      for (const [date, hours] of [
        [spring, 23],
        [autumn, 25],
        ['2027-06-15', 24],
      ] as const) {
        const day = (await t.call<Prices>('GET', `/energy/price/electricity/dynamic?date=${date}`)).body;
        expect(day.prices, `${zone} ${date}`).toHaveLength(hours);
        const starts = day.prices.map((p) => Date.parse(p.start));
        const ends = day.prices.map((p) => Date.parse(p.end));
        for (const [i, start] of starts.entries()) {
          expect(ends[i]! - start, `${zone} ${date} hour ${i}`).toBe(HOUR);
          if (i > 0) expect(start, `${zone} ${date} hour ${i}`).toBe(ends[i - 1]);
        }
        // The prices' day is the report's day.
        const report = (await t.call<Report>('GET', `/energy/report/day?date=${date}`)).body;
        expect(report.start).toBe(day.prices[0]?.start);
        expect(report.end).toBe(day.prices.at(-1)?.end);
      }
      const springDay = (await t.call<Report>('GET', `/energy/report/day?date=${spring}`)).body;
      expect(springDay.start).toBe(new Date(springMidnight).toISOString());
      expect(Date.parse(springDay.end) - Date.parse(springDay.start)).toBe(23 * HOUR);
    });

    it(`counts energy on the local day it was used in ${zone}, through the 25-hour day`, async () => {
      expect((await t.call('PUT', '/i18n/option/timezone', { value: zone })).status).toBe(200);
      const autumnDay = (await t.call<Report>('GET', `/energy/report/day?date=${autumn}`)).body;
      const start = Date.parse(autumnDay.start);
      const end = Date.parse(autumnDay.end);
      expect(end - start).toBe(25 * HOUR);
      const { insights } = t.hub.services;
      const base = 100 * (ZONES.findIndex((z) => z.zone === zone) + 1);
      // 1 kWh in the day's first hour, 2 in its 25th (the hour a 24-hour day would give to the next day), 4 in the
      // next day's first half hour (the hour a host-zone day would give to this one).
      insights.appendHistory(`homey:device:${socket}`, 'meter_power', [
        { t: start - HOUR, v: base },
        { t: start + HOUR / 2, v: base + 1 },
        { t: end - HOUR / 2, v: base + 3 },
        { t: end + HOUR / 2, v: base + 7 },
      ]);
      expect((await t.call('DELETE', '/energy/reports')).status).toBe(204);
      const day = (await t.call<Report>('GET', `/energy/report/day?date=${autumn}`)).body;
      expect(day.kWh).toBe(3);
      const weekReport = (await t.call<Report>('GET', `/energy/report/week?isoWeek=${week}`)).body;
      expect(weekReport.parts).toHaveLength(7);
      expect(weekReport.parts?.find((p) => p.date === autumn)?.kWh).toBe(3);
      expect(Date.parse(weekReport.end) - Date.parse(weekReport.start)).toBe((7 * 24 + 1) * HOUR);
    });
  }
});
