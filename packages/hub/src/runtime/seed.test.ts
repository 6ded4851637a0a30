import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { until } from '../testing/until';
import { seedDemoHub } from './seed';

type Json = Record<string, unknown>;

describe('seedDemoHub', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('populates zones, apps, devices and insights history once', async () => {
    const summary = seedDemoHub(t.hub, { historyDays: 8, historyStepMinutes: 60 });
    expect(summary).toMatchObject({ seeded: true, zones: 9, devices: 20 });
    expect(summary.entries).toBeGreaterThan(1000);
    const apps = (await t.call<Record<string, Json>>('GET', '/apps/app')).body;
    // The demo's nine apps and the two built in (virtual devices, the MQTT bridge).
    expect(Object.keys(apps)).toHaveLength(11);
    // Lumen & Co stays a version behind the cloud catalogue's live 3.3.0: not updated automatically.
    expect(apps['com.lumenco.lights']).toMatchObject({ version: '3.2.1', autoupdate: false });
    expect(apps['com.openweather.station']).toMatchObject({ version: '1.4.0', autoupdate: true });
    // A first-party app of the provider's own apps team.
    expect(apps['com.hearth.chime']).toMatchObject({ version: '1.2.0' });
    const devices = (
      await t.call<Record<string, Json & { id: string; name: string; zone: string; capabilitiesObj: Record<string, Json> }>>(
        'GET',
        '/devices/device',
      )
    ).body;
    const coffee = Object.values(devices).find((d) => d.name === 'Coffee machine');
    expect(coffee?.capabilitiesObj.onoff?.value).toBe(true);
    expect(coffee?.capabilitiesObj.measure_power?.value).toBeGreaterThan(50);
    const week = await t.call<{ values: unknown[] }>(
      'GET',
      `/insights/log/homey:device:${coffee?.id}/measure_power/entry?resolution=last7Days`,
    );
    expect(week.body.values.length).toBeGreaterThan(150);
    const live = await t.call<{ W: number; cumulative: { items: unknown[] } }>('GET', '/energy/live');
    expect(live.body.W).toBeGreaterThan(50);
    expect(live.body.cumulative.items).toHaveLength(1);
    // The demo apps with code run in their own processes, installed from the store like any app, and drive the
    // devices seeded for them: NordHeat's model heats the bathroom floor towards its seeded 24 °C target.
    for (const id of ['com.nordheat.climate', 'com.hearth.chime', 'com.openweather.station']) {
      const app = await until(
        () => t.call<Json>('GET', `/apps/app/${id}`),
        (answer) => answer.body.state === 'running',
        15_000,
      );
      expect(app.body).toMatchObject({ origin: 'appstore', state: 'running' });
      expect(t.hub.services.processes.host.isRunning(id)).toBe(true);
    }
    const floor = Object.values(devices).find((d) => d.name === 'Bathroom floor');
    const power = () =>
      t
        .call<{ capabilitiesObj: Record<string, Json> }>('GET', `/devices/device/${floor?.id}`)
        .then((answer) => answer.body.capabilitiesObj.measure_power?.value);
    expect(await until(power, (watts) => watts === 1450)).toBe(1450);
    expect((await t.call('PUT', `/devices/device/${floor?.id}/capability/thermostat_mode`, { value: 'off' })).status).toBe(204);
    expect(await until(power, (watts) => watts === 1.5)).toBe(1.5);
    expect(seedDemoHub(t.hub).seeded).toBe(false);
    expect(Object.keys((await t.call<Json>('GET', '/devices/device')).body)).toHaveLength(20);
  });

  it('leaves radio devices out on a cloud hub', async () => {
    const cloud = await startTestHub({ model: 'hearth-cloud' });
    try {
      const summary = seedDemoHub(cloud.hub, { historyDays: 1, historyStepMinutes: 60 });
      const devices = (await cloud.call<Record<string, { connectivity: string[] }>>('GET', '/devices/device')).body;
      expect(Object.keys(devices)).toHaveLength(summary.devices);
      for (const device of Object.values(devices)) {
        expect(device.connectivity.some((c) => ['zwave', 'zigbee', 'infrared', '433', 'matter'].includes(c))).toBe(false);
      }
    } finally {
      await cloud.stop();
    }
  });
});

describe('two hubs in one process', () => {
  it('stopping one hub leaves the other hub’s apps and devices running', async () => {
    const a = await startTestHub();
    const b = await startTestHub();
    try {
      const running = (hub: TestHub) =>
        hub.call<Json>('GET', '/apps/app/com.hearth.virtual').then((r) => r.body.state === 'running');
      for (let i = 0; i < 100 && !(await running(b)); i++) await new Promise((r) => setTimeout(r, 20));
      await a.stop();
      await new Promise((r) => setTimeout(r, 700));
      expect(await running(b)).toBe(true);
      const session = await b.call<{ id: string }>('POST', '/drivers/pairsession', {
        type: 'pair',
        driverId: 'homey:app:com.hearth.virtual:socket',
      });
      const [candidate] = (
        await b.call<Json[]>('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'list_devices' })
      ).body;
      const device = (await b.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, candidate)).body;
      expect((await b.call('PUT', `/devices/device/${device.id}/capability/onoff`, { value: true })).status).toBe(204);
    } finally {
      await b.stop();
    }
  });
});
