import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { energyManager } from '.';

type Json = Record<string, unknown>;
interface Report {
  period: string;
  date: string;
  kWh: number;
  cost: number;
  currency: string;
  kWhCost: number;
  priceType: string;
  items: { id: string; kWh: number; source: string; category: string }[];
  parts?: { date: string; kWh: number; cost: number }[];
}

/** A local time on a day of February 2026 (ISO week 2026-W07 runs from Monday 9 to Sunday 15). */
const feb = (day: number, hour: number) => new Date(2026, 1, day, hour).getTime();

describe('energy reports, prices and options over HTTP', () => {
  let t: TestHub;
  let socket: string;

  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    socket = await pairDevice(t, 'homey:app:com.hearth.virtual:virtualsocket');
    // The socket's meter: 10 kWh before the week; 2 kWh used on the 10th, 0.5 on the 11th, 1 on the 12th.
    t.hub.services.insights.appendHistory(`homey:device:${socket}`, 'meter_power', [
      { t: feb(9, 23), v: 10 },
      { t: feb(10, 12), v: 11 },
      { t: feb(10, 23), v: 12 },
      { t: feb(11, 12), v: 12.5 },
      { t: feb(12, 20), v: 13.5 },
    ]);
    await t.call('PUT', '/energy/option/kWhCost', { value: 0.2 });
  });
  afterAll(() => t.stop());

  it('keeps the fixed prices of electricity (the same as kWhCost), gas and water', async () => {
    expect((await t.call('GET', '/energy/option/electricityPriceFixed')).body).toEqual({ value: 0.2 });
    expect((await t.call('PUT', '/energy/option/electricityPriceFixed', { value: 0.3 })).body).toEqual({ value: 0.3 });
    expect((await t.call('GET', '/energy/option/kWhCost')).body).toEqual({ value: 0.3 });
    await t.call('PUT', '/energy/option/kWhCost', { value: 0.2 });
    expect((await t.call('GET', '/energy/option/electricityPriceFixed')).body).toEqual({ value: 0.2 });
    expect((await t.call('GET', '/energy/option/gasPriceFixed')).body).toEqual({ value: 1.2 });
    expect((await t.call('PUT', '/energy/option/gasPriceFixed', { value: 1.05 })).body).toEqual({ value: 1.05 });
    expect((await t.call('PUT', '/energy/option/waterPriceFixed', { value: 2.5 })).body).toEqual({ value: 2.5 });
    expect((await t.call('DELETE', '/energy/option/waterPriceFixed')).status).toBe(204);
    expect((await t.call('GET', '/energy/option/waterPriceFixed')).body).toEqual({ value: 1.5 });
    const bad = await t.call<Json>('PUT', '/energy/option/gasPriceFixed', { value: -1 });
    expect(bad.status).toBe(400);
    expect(String(bad.body.error_description)).toContain('value');
  });

  it('reports a week, a month and a year from insights, with a part per day or month', async () => {
    const week = await t.call<Report>('GET', '/energy/report/week?isoWeek=2026-W07');
    expect(week.status).toBe(200);
    expect(week.body).toMatchObject({ period: 'week', date: '2026-W07', kWh: 3.5, cost: 0.7, kWhCost: 0.2, priceType: 'fixed' });
    expect(week.body.items).toEqual([
      expect.objectContaining({ id: socket, kWh: 3.5, source: 'meter_power', category: 'other' }),
    ]);
    expect(week.body.parts?.map((p) => p.date)).toEqual([
      '2026-02-09',
      '2026-02-10',
      '2026-02-11',
      '2026-02-12',
      '2026-02-13',
      '2026-02-14',
      '2026-02-15',
    ]);
    expect(week.body.parts?.find((p) => p.date === '2026-02-10')).toEqual({ date: '2026-02-10', kWh: 2, cost: 0.4 });
    const month = await t.call<Report>('GET', '/energy/report/month?yearMonth=2026-02');
    expect(month.body).toMatchObject({ period: 'month', kWh: 3.5, cost: 0.7 });
    expect(month.body.parts).toHaveLength(28);
    const year = await t.call<Report>('GET', '/energy/report/year?year=2026');
    expect(year.body.parts?.find((p) => p.date === '2026-02')).toEqual({ date: '2026-02', kWh: 3.5, cost: 0.7 });
    expect(year.body.kWh).toBeGreaterThanOrEqual(3.5);
    const day = await t.call<Report>('GET', '/energy/report/day?date=2026-02-11');
    expect(day.body).toMatchObject({ period: 'day', kWh: 0.5, cost: 0.1 });
  });

  it('refuses periods that do not exist, naming the parameter', async () => {
    for (const [path, name] of [
      ['/energy/report/week?isoWeek=2026-W54', 'isoWeek'],
      ['/energy/report/week?isoWeek=2026-W00', 'isoWeek'],
      ['/energy/report/week?isoWeek=2026-7', 'isoWeek'],
      ['/energy/report/month?yearMonth=2026-13', 'yearMonth'],
      ['/energy/report/year?year=26', 'year'],
      ['/energy/report/year', 'year'],
    ] as const) {
      const answer = await t.call<Json>('GET', path);
      expect(answer.status, path).toBe(400);
      expect(String(answer.body.error_description), path).toContain(name);
    }
    // A year that starts on a Thursday (2026) has 53 ISO weeks; 2025 has 52.
    expect((await t.call('GET', '/energy/report/week?isoWeek=2025-W53')).status).toBe(400);
    expect((await t.call('GET', '/energy/report/week?isoWeek=2026-W53')).status).toBe(200);
  });

  it('stores past reports: new history shows after cache=false, deleting the reports or resetting the day', async () => {
    const { insights } = t.hub.services;
    const before = (await t.call<Report>('GET', '/energy/report/day?date=2026-02-13')).body;
    expect(before.kWh).toBe(0);
    insights.appendHistory(`homey:device:${socket}`, 'meter_power', [{ t: feb(13, 18), v: 14 }]);
    expect((await t.call<Report>('GET', '/energy/report/day?date=2026-02-13')).body.kWh).toBe(0);
    expect((await t.call<Report>('GET', '/energy/report/day?date=2026-02-13&cache=false')).body.kWh).toBe(0.5);

    insights.appendHistory(`homey:device:${socket}`, 'meter_power', [{ t: feb(13, 20), v: 15 }]);
    const reset = await t.call<Report>('PUT', '/energy/report/day/reset/categories', { options: { date: '2026-02-13' } });
    expect(reset.body).toMatchObject({ date: '2026-02-13', kWh: 1.5 });
    expect((await t.call('PUT', '/energy/report/day/reset/categories', { options: { date: '2026-02-30' } })).status).toBe(400);

    insights.appendHistory(`homey:device:${socket}`, 'meter_power', [{ t: feb(14, 20), v: 16 }]);
    expect((await t.call<Report>('GET', '/energy/report/week?isoWeek=2026-W07')).body.kWh).toBe(5);
    expect((await t.call('DELETE', '/energy/reports')).status).toBe(204);
    expect((await t.call<Report>('GET', '/energy/report/week?isoWeek=2026-W07')).body.kWh).toBe(6);
  });

  it('lists the periods that have energy data', async () => {
    const available = await t.call<{ days: string[]; weeks: string[]; months: string[]; years: string[] }>(
      'GET',
      '/energy/reports/available',
    );
    expect(available.body.days).toEqual(expect.arrayContaining(['2026-02-09', '2026-02-10', '2026-02-14']));
    expect(available.body.days).not.toContain('2026-02-08');
    expect(available.body.weeks).toEqual(expect.arrayContaining(['2026-W07']));
    expect(available.body.months).toEqual(expect.arrayContaining(['2026-02']));
    expect(available.body.years).toEqual(expect.arrayContaining(['2026']));
  });

  it('serves dynamic prices of a price zone with the user costs, and costs reports with them', async () => {
    const zones = await t.call<{ id: string; currency: string }[]>('GET', '/energy/price/electricity/dynamic/zones');
    expect(zones.body).toEqual(expect.arrayContaining([{ id: 'NO1', name: 'Norway (Oslo)', currency: 'NOK' }]));
    expect((await t.call('GET', '/energy/price/electricity/dynamic/zone')).body).toMatchObject({ zoneId: 'NL' });
    expect((await t.call('PUT', '/energy/price/electricity/dynamic/zone', { options: { zoneId: 'NO1' } })).body).toMatchObject({
      zoneId: 'NO1',
      currency: 'NOK',
    });
    expect((await t.call('PUT', '/energy/price/electricity/dynamic/zone', { options: { zoneId: 'XX' } })).status).toBe(404);

    expect((await t.call('GET', '/energy/price/electricity/dynamic/user-costs')).body).toEqual({
      mathExpression: null,
      type: null,
    });
    const costs = await t.call('PUT', '/energy/price/electricity/dynamic/user-costs', {
      mathExpression: '(x + 0.1) * 1.21',
      type: 'expression',
    });
    expect(costs.body).toEqual({ mathExpression: '(x + 0.1) * 1.21', type: 'expression' });
    for (const mathExpression of ['(x + 0.1', 'x ** 2', 'process.exit()', 'x +']) {
      const bad = await t.call<Json>('PUT', '/energy/price/electricity/dynamic/user-costs', { mathExpression });
      expect(bad.status, mathExpression).toBe(400);
      expect(String(bad.body.error_description)).toContain('mathExpression');
    }

    const day = await t.call<{ currency: string; prices: { price: number; priceWithUserCosts: number }[] }>(
      'GET',
      '/energy/price/electricity/dynamic?date=2026-02-11',
    );
    expect(day.body.currency).toBe('NOK');
    expect(day.body.prices).toHaveLength(24);
    for (const p of day.body.prices) expect(p.priceWithUserCosts).toBeCloseTo((p.price + 0.1) * 1.21, 4);
    const evening = day.body.prices[19]?.price ?? 0;
    expect(evening).toBeGreaterThan(day.body.prices[3]?.price ?? 0);
    // The same day always has the same prices.
    expect((await t.call('GET', '/energy/price/electricity/dynamic?date=2026-02-11')).body).toEqual(day.body);

    expect((await t.call('GET', '/energy/price/electricity/type')).body).toEqual({ type: 'fixed' });
    expect((await t.call('PUT', '/energy/price/electricity/dynamic')).body).toEqual({ type: 'dynamic' });
    expect((await t.call('PUT', '/energy/price/electricity/hourly')).status).toBe(400);
    const report = await t.call<Report>('GET', '/energy/report/day?date=2026-02-11&cache=false');
    const average = day.body.prices.reduce((sum, p) => sum + p.priceWithUserCosts, 0) / 24;
    expect(report.body).toMatchObject({ priceType: 'dynamic', currency: 'NOK', kWh: 0.5 });
    expect(report.body.kWhCost).toBeCloseTo(average, 4);
    expect(report.body.cost).toBeCloseTo(0.5 * average, 2);

    expect((await t.call('DELETE', '/energy/price/electricity/dynamic/user-costs')).status).toBe(204);
    expect((await t.call<Json>('GET', '/energy/price/electricity/dynamic/user-costs')).body.mathExpression).toBeNull();
    await t.call('PUT', '/energy/price/electricity/fixed');
  });

  it('keeps demonstration reports private; an internal caller turns them on and off', async () => {
    expect((await t.call<Json>('POST', '/energy/reports/dummy/enable')).body).toMatchObject({ error: 'private_operation' });
    expect((await t.call('POST', '/energy/reports/dummy/disable')).status).toBe(403);
    // No internal session exists on a test hub, so the handlers are called as the transport would after authorising.
    const handlers = Object.fromEntries(
      (t.hub.managers.get(energyManager.name)?.implementations ?? []).map((i) => [i.operation.name, i.handler]),
    );
    const call = (name: string, query: object = {}) => handlers[name]?.({ query } as never);
    expect(
      await call('enableDummyEnergyReports', { fromDate: '2025-03-01', toDate: '2025-03-03', numTopConsumers: '3' }),
    ).toMatchObject({
      enabled: true,
      numTopConsumers: 3,
    });
    const day = await t.call<Report>('GET', '/energy/report/day?date=2025-03-02');
    expect(day.body.items.map((i) => i.id)).toEqual(['dummy-consumer-1', 'dummy-consumer-2', 'dummy-consumer-3']);
    expect(day.body.items.every((i) => i.source === 'dummy' && i.kWh > 0)).toBe(true);
    expect((await t.call<{ days: string[] }>('GET', '/energy/reports/available')).body.days).toContain('2025-03-03');
    await expect(
      Promise.resolve().then(() => call('enableDummyEnergyReports', { fromDate: '2025-03-05', toDate: '2025-03-01' })),
    ).rejects.toMatchObject({ code: 'invalid_parameter' });
    expect(await call('disableDummyEnergyReports')).toEqual({ enabled: false });
    expect((await t.call<Report>('GET', '/energy/report/day?date=2025-03-02')).body.items).toEqual([]);
  });
});
