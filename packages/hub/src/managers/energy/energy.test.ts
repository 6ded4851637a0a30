import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
type Live = {
  W: number;
  items: { id: string; approximated: boolean; values: { W: number } }[];
  cumulative: { W: number; kWh: number; items: Json[] };
  costPerHour: number;
  currency: string;
  kWhCost: number;
};

describe('energy over HTTP', () => {
  let t: TestHub;
  let kitchen: string;
  let socket: string;
  let dummy: string;

  async function pair(driverId: string, zone?: string): Promise<string> {
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId,
      zoneId: zone ?? null,
    });
    const [candidate] = (await t.call<Json[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' }))
      .body;
    return (await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).body.id;
  }

  beforeAll(async () => {
    t = await startTestHub();
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
    const root = (await t.call<Record<string, Json>>('GET', '/zones/zone')).body;
    const rootId = Object.values(root).find((z) => z.parent === null)?.id as string;
    const ground = (await t.call<{ id: string }>('POST', '/zones/zone', { name: 'Ground floor', parent: rootId, icon: 'floor' }))
      .body.id;
    kitchen = (await t.call<{ id: string }>('POST', '/zones/zone', { name: 'Kitchen', parent: ground, icon: 'kitchen' })).body.id;
    socket = await pair('homey:app:com.hearth.virtual:virtualsocket', kitchen);
    dummy = await pair('homey:app:com.hearth.virtual:socket');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('reports measured power and the approximation (usageOn / usageOff)', async () => {
    const off = await t.call<Live>('GET', '/energy/live');
    expect(off.status).toBe(200);
    const byId = (live: Live, id: string) => live.items.find((i) => i.id === id);
    expect(byId(off.body, dummy)).toMatchObject({ approximated: true, values: { W: 0.5 } });
    expect(byId(off.body, socket)).toMatchObject({ approximated: false, values: { W: 0 } });
    await t.call('PUT', `/devices/device/${socket}/capability/onoff`, { value: true });
    await t.call('PUT', `/devices/device/${dummy}/capability/onoff`, { value: true });
    const on = await t.call<Live>('GET', '/energy/live');
    expect(byId(on.body, dummy)?.values.W).toBe(40);
    expect(byId(on.body, socket)?.values.W).toBeGreaterThan(55);
    expect(on.body.W).toBeCloseTo((byId(on.body, socket)?.values.W ?? 0) + 40, 1);
    expect(on.body.costPerHour).toBeCloseTo((on.body.W / 1000) * 0.25, 3);
  });

  it('filters by zone, including the zones below it', async () => {
    const rootZones = (await t.call<Record<string, Json>>('GET', '/zones/zone')).body;
    const ground = Object.values(rootZones).find((z) => z.name === 'Ground floor')?.id as string;
    const live = await t.call<Live>('GET', `/energy/live?zone=${ground}`);
    expect(live.body.items.map((i) => i.id)).toEqual([socket]);
    expect((await t.call<Live>('GET', `/energy/live?zone=${kitchen}`)).body.items.map((i) => i.id)).toEqual([socket]);
    expect((await t.call('GET', '/energy/live?zone=nowhere')).status).toBe(404);
  });

  it('keeps cumulative meters apart from the devices total', async () => {
    await t.call('POST', '/apps/store', { id: 'com.wattwise.meter' });
    await until(
      () => t.call<Json>('GET', '/apps/app/com.wattwise.meter'),
      (a) => a.body.state === 'running',
    );
    const meter = await pair('homey:app:com.wattwise.meter:p1');
    const live = await t.call<Live>('GET', '/energy/live');
    expect(live.body.items.some((i) => i.id === meter)).toBe(false);
    expect(live.body.cumulative.items.map((i) => i.id)).toEqual([meter]);
  });

  it('stores kWhCost and currency options, validated', async () => {
    expect((await t.call('GET', '/energy/option/kWhCost')).body).toEqual({ value: 0.25 });
    expect((await t.call('PUT', '/energy/option/kWhCost', { value: 0.31 })).body).toEqual({ value: 0.31 });
    expect((await t.call('PUT', '/energy/option/kWhCost', { value: -1 })).status).toBe(400);
    expect((await t.call('PUT', '/energy/option/currency', { value: 'NOK' })).body).toEqual({ value: 'NOK' });
    expect((await t.call<Json>('PUT', '/energy/option/currency', { value: 'ABC' })).body.error_description).toContain('value');
    expect((await t.call('GET', '/energy/currency')).body).toEqual({ currency: 'NOK', kWhCost: 0.31 });
    const live = await t.call<Live>('GET', '/energy/live');
    expect(live.body).toMatchObject({ currency: 'NOK', kWhCost: 0.31 });
    expect((await t.call('DELETE', '/energy/option/currency')).status).toBe(204);
    expect((await t.call('GET', '/energy/option/currency')).body).toEqual({ value: 'EUR' });
  });

  it('reports a day’s energy per device from insights', async () => {
    // A fixed past day with no clock change (the hub's zone is the host's): the test does not depend on today.
    const day = new Date(2026, 2, 10);
    const at = (hours: number) => day.getTime() + hours * 3_600_000;
    const { insights } = t.hub.services;
    insights.appendHistory(`homey:device:${socket}`, 'meter_power', [
      { t: at(-2), v: 9.8 },
      { t: at(0.5), v: 10 },
      { t: at(12), v: 10.5 },
      { t: at(23), v: 11.2 },
    ]);
    const date = '2026-03-10';
    const report = await t.call<{ kWh: number; cost: number; items: { id: string; kWh: number; source: string }[] }>(
      'GET',
      `/energy/report/day?date=${date}`,
    );
    expect(report.status).toBe(200);
    expect(report.body.items.find((i) => i.id === socket)).toMatchObject({ kWh: 1.4, source: 'meter_power' });
    expect(report.body.kWh).toBeGreaterThanOrEqual(1.4);
    expect((await t.call('GET', '/energy/report/day?date=2026-02-30')).status).toBe(400);
    expect((await t.call('GET', '/energy/report/day?date=yesterday')).status).toBe(400);
    expect((await t.call('GET', '/energy/report/day')).status).toBe(400);
  });
});
