import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
type Entries = {
  values: { t: string; v: number | boolean | null }[];
  step: number;
  lastValue: unknown;
  start: string;
  end: string;
};

describe('insights over HTTP', () => {
  let t: TestHub;
  let deviceId: string;
  let owner: string;

  beforeAll(async () => {
    t = await startTestHub();
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: 'homey:app:com.hearth.virtual:virtualsocket',
    });
    const [candidate] = (await t.call<Json[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' }))
      .body;
    deviceId = (await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).body.id;
    owner = `homey:device:${deviceId}`;
  });
  afterAll(async () => {
    await t.stop();
  });

  it('creates a log per getable number or boolean capability of a new device', async () => {
    const logs = await t.call<Record<string, Json>>('GET', '/insights/log');
    expect(Object.keys(logs.body).sort()).toEqual([`${owner}:measure_power`, `${owner}:meter_power`, `${owner}:onoff`]);
    const log = await t.call<Json>('GET', `/insights/log/${owner}:measure_power`);
    expect(log.body).toMatchObject({
      ownerUri: owner,
      ownerId: 'measure_power',
      type: 'number',
      units: 'W',
      title: 'Power',
      lastValue: 0,
    });
    expect(log.body).not.toHaveProperty('uri');
    expect((await t.call('GET', '/insights/log/homey:device:nope:onoff')).status).toBe(404);
  });

  it('appends an entry on each change and serves it at every resolution', async () => {
    await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: false });
    const onoff = await t.call<Entries>('GET', `/insights/log/${owner}/onoff/entry?resolution=lastHour`);
    expect(onoff.status).toBe(200);
    expect(onoff.body.lastValue).toBe(false);
    expect(onoff.body.values.at(-1)?.v).toBe(false);
    const onoffEntries = t.hub.context.db
      .prepare("SELECT COUNT(*) FROM insights_entry JOIN insights_log USING (log) WHERE owner_id = 'onoff'")
      .pluck()
      .get();
    expect(onoffEntries).toBe(3); // the initial off, on, off: setting on twice is one change
    // Long resolutions read the hourly roll-ups: the last value of the hour is the last one set.
    const onoffWeek = await t.call<Entries>('GET', `/insights/log/${owner}/onoff/entry?resolution=last7Days`);
    expect(onoffWeek.body.values.at(-1)?.v).toBe(false);
    const power = await t.call<Entries>('GET', `/insights/log/${owner}/measure_power/entry?resolution=last7Days`);
    expect(power.body.step).toBe(3_600_000);
    expect(power.body.values.length).toBeGreaterThan(0);
    for (const resolution of [
      'lastHour',
      'last6Hours',
      'last24Hours',
      'last7Days',
      'last14Days',
      'last31Days',
      'lastYear',
      'last2Years',
    ]) {
      expect((await t.call('GET', `/insights/log/${owner}/onoff/entry?resolution=${resolution}`)).status, resolution).toBe(200);
    }
    const bad = await t.call<Json>('GET', `/insights/log/${owner}/onoff/entry?resolution=lastCentury`);
    expect(bad.status).toBe(400);
    expect(String(bad.body.error_description)).toContain('resolution');
  });

  it('down-samples a long history to a bounded number of averaged points', async () => {
    const now = Date.now();
    const history = Array.from({ length: 20_000 }, (_, i) => ({
      t: now - 6 * 86_400_000 + i * 25_000,
      v: i % 2 === 0 ? 100 : 200,
    }));
    t.hub.services.insights.appendHistory(owner, 'measure_power', history);
    const week = await t.call<Entries>('GET', `/insights/log/${owner}/measure_power/entry?resolution=last7Days`);
    expect(week.body.values.length).toBeLessThanOrEqual(169);
    expect(week.body.values.length).toBeGreaterThan(100);
    expect(week.body.values[10]?.v).toBe(150);
    const hourly = t.hub.context.db.prepare('SELECT COUNT(*) FROM insights_hour').pluck().get() as number;
    expect(hourly).toBeGreaterThan(100);
    const year = await t.call<Entries>('GET', `/insights/log/${owner}/measure_power/entry?resolution=lastYear`);
    expect(year.body.values.length).toBeLessThanOrEqual(366);
    expect(year.body.values[1]?.v).toBe(150);
    const hour = await t.call<Entries>('GET', `/insights/log/${owner}/measure_power/entry?resolution=lastHour`);
    expect(hour.body.values.length).toBeLessThanOrEqual(61);
    const storage = await t.call<{ entries: number; logs: number; size: number }>('GET', '/insights/storage');
    expect(storage.body.entries).toBeGreaterThan(20_000);
    expect(storage.body.logs).toBe(3);
  });

  it("names a log in the older description's way (owner URI, short id) or by its whole id after the owner URI", async () => {
    const log = (await t.call<Json>('GET', `/insights/log/${owner}:onoff`)).body;
    const short = await t.call<Entries>('GET', `/insights/log/${log.ownerUri}/${log.ownerId}/entry?resolution=lastHour`);
    const whole = await t.call<Entries>('GET', `/insights/log/${log.ownerUri}/${log.id}/entry?resolution=lastHour`);
    expect(short.status).toBe(200);
    expect(whole.status).toBe(200);
    expect(whole.body.values).toEqual(short.body.values);
    expect(whole.body.lastValue).toBe(false);
    // The whole id of another owner's log is no id of this owner's.
    expect((await t.call('GET', `/insights/log/${owner}/homey:device:other:onoff/entry`)).status).toBe(404);
    expect((await t.call('DELETE', `/insights/log/${log.ownerUri}/${log.id}/entry`)).status).toBe(204);
    expect((await t.call<Entries>('GET', `/insights/log/${owner}/onoff/entry?resolution=lastHour`)).body.values).toEqual([]);
  });

  it('deletes entries, a log, and everything', async () => {
    expect((await t.call('DELETE', `/insights/log/${owner}/measure_power/entry`)).status).toBe(204);
    const empty = await t.call<Entries>('GET', `/insights/log/${owner}/measure_power/entry?resolution=last7Days`);
    expect(empty.body.values).toEqual([]);
    expect((await t.call('DELETE', `/insights/log/${owner}/meter_power`)).status).toBe(204);
    expect((await t.call('GET', `/insights/log/${owner}:meter_power`)).status).toBe(404);
    expect((await t.call('DELETE', `/insights/log/${owner}/meter_power`)).status).toBe(404);
    expect((await t.call('DELETE', '/insights/log')).status).toBe(204);
    expect((await t.call('GET', '/insights/log')).body).toEqual({});
    expect((await t.call<Json>('GET', '/insights/storage')).body).toMatchObject({ logs: 0, entries: 0 });
  });

  it('needs the insights scopes', async () => {
    const user = t.hub.context.users.owner()!;
    const devicesOnly = t.hub.context.sessions.create({
      type: 'PAT',
      userId: user.id,
      name: 'dev',
      scopes: ['homey.device'],
    }).token;
    expect((await t.call('GET', '/insights/log', undefined, devicesOnly)).status).toBe(403);
    const readonly = t.hub.context.sessions.create({
      type: 'PAT',
      userId: user.id,
      name: 'ro',
      scopes: ['homey.insights.readonly'],
    }).token;
    expect((await t.call('GET', '/insights/log', undefined, readonly)).status).toBe(200);
    expect((await t.call('DELETE', '/insights/log', undefined, readonly)).status).toBe(403);
  });
});
