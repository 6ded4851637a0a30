import { join } from 'node:path';
import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsRoot } from '../../runtime/manifest';
import { startEmbeddedCloud } from '../../testing/cloud';
import { runOverDevkit } from '../../testing/devkit';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice } from '../../testing/pairing';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
interface Device {
  id: string;
  name: string;
  warning?: string | null;
  capabilitiesObj: Record<string, { value: unknown }>;
}
interface Trace {
  status: string;
  trigger: { tokens: Json };
}

const store = (id: string) => join(appsRoot, 'store', id);

/**
 * The demo world's apps with code, each run over the devkit calls as a developer would and used through real HTTP:
 * NordHeat's thermostat and its heating model, Hearth Chime's flow cards with autocomplete, and the weather
 * station reading the hub's weather service (the real cloud's, here its model of a typical day) or, while the hub
 * has none, its stand-in model.
 */
describe('the demo apps', () => {
  let t: TestHub;
  let cloud: Cloud;

  const device = (id: string) => t.call<Device>('GET', `/devices/device/${id}`);
  const value = async (id: string, capability: string) => (await device(id)).body.capabilitiesObj[capability]?.value;
  const flow = (name: string, trigger: Json, actions: Json[] = []) =>
    t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', { name, trigger, conditions: [], actions });
  const traces = async (flowId: string) => (await t.call<Trace[]>('GET', `/flow/flow/${flowId}/trace`)).body;
  const running = (appId: string) =>
    until(
      () => t.call<Json>('GET', `/apps/app/${appId}`),
      (app) => app.body.state === 'running',
      15_000,
    );

  beforeAll(async () => {
    cloud = await startEmbeddedCloud();
    t = await startTestHub({ cloudUrl: cloud.url });
    await runOverDevkit(t, store('com.nordheat.climate'), { NORDHEAT_TICK_MS: '100', NORDHEAT_TIME_SCALE: '60' });
    await runOverDevkit(t, store('com.hearth.chime'));
    await runOverDevkit(t, store('com.openweather.station'), { OPENWEATHER_POLL_MS: '600000' });
    for (const id of ['com.nordheat.climate', 'com.hearth.chime', 'com.openweather.station']) await running(id);
  }, 60_000);
  afterAll(async () => {
    await t.stop();
    await cloud.stop();
  });

  describe('NordHeat Climate', () => {
    const APP = 'homey:app:com.nordheat.climate';
    let floor: string;
    let other: string;

    it('pairs the gateway floors it lists, and heats a room towards its target', async () => {
      floor = await pairDevice(t, `${APP}:thermostat`);
      other = await pairDevice(t, `${APP}:thermostat`);
      expect((await device(floor)).body.name).toBe('Bathroom floor');
      expect((await device(other)).body.name).toBe('Kitchen floor');
      // A new floor (20.5 °C) starts heating towards the default target (21 °C); both are turned down first.
      for (const id of [floor, other]) {
        expect((await t.call('PUT', `/devices/device/${id}/capability/target_temperature`, { value: 5 })).status).toBe(204);
        expect(
          await until(
            () => value(id, 'measure_power'),
            (power) => power === 1.5,
          ),
        ).toBe(1.5);
      }
      const started = await flow('Bathroom warms', { uri: APP, id: 'heating_started', args: { device: { id: floor } } });
      const elsewhere = await flow('Kitchen warms', { uri: APP, id: 'heating_started', args: { device: { id: other } } });
      expect(started.body.broken).toBe(false);
      const before = Number(await value(floor, 'measure_temperature'));
      expect((await t.call('PUT', `/devices/device/${floor}/capability/target_temperature`, { value: 26 })).status).toBe(204);
      // The element draws its power at once, and the room warms from tick to tick.
      expect(
        await until(
          () => value(floor, 'measure_power'),
          (power) => power === 1450,
        ),
      ).toBe(1450);
      const warmer = await until(
        () => value(floor, 'measure_temperature'),
        (temperature) => Number(temperature) > before,
      );
      expect(Number(warmer)).toBeGreaterThan(before);
      expect(Number(await value(floor, 'meter_power'))).toBeGreaterThan(0);
      // The device trigger started the flow set up for this floor only.
      const runs = await until(
        () => traces(started.body.id),
        (list) => list.some((run) => run.status === 'completed'),
      );
      expect(runs[0]?.trigger.tokens).toMatchObject({ target: 26 });
      expect(await traces(elsewhere.body.id)).toEqual([]);
      const uri = encodeURIComponent(APP);
      const heating = await t.call<Json>('POST', `/flow/flowcardcondition/${uri}/is_heating/run`, {
        args: { device: { id: floor } },
      });
      expect(heating.body).toEqual({ result: true });
      expect((await value(other, 'measure_power')) as number).toBeLessThan(10);
    });

    it('stops heating below the room, refuses to cool, and boosts for a while', async () => {
      const stopped = await flow('Bathroom done', { uri: APP, id: 'heating_stopped', args: { device: { id: floor } } });
      expect((await t.call('PUT', `/devices/device/${floor}/capability/target_temperature`, { value: 5 })).status).toBe(204);
      expect(
        await until(
          () => value(floor, 'measure_power'),
          (power) => power === 1.5,
        ),
      ).toBe(1.5);
      await until(
        () => traces(stopped.body.id),
        (list) => list.length > 0,
      );
      expect((await traces(stopped.body.id))[0]?.trigger.tokens).toMatchObject({ target: 5 });
      const cool = await t.call<Json>('PUT', `/devices/device/${floor}/capability/thermostat_mode`, { value: 'cool' });
      expect(cool).toMatchObject({ status: 502, body: { error: 'app_error', error_description: 'A floor heating cannot cool' } });
      expect(await value(floor, 'thermostat_mode')).toBe('heat');
      const uri = encodeURIComponent(APP);
      const boost = await t.call<Json>('POST', `/flow/flowcardaction/${uri}/boost/run`, {
        args: { device: { id: floor }, degrees: 2, minutes: 30 },
      });
      expect(boost).toMatchObject({ status: 200, body: { target: 7 } });
      expect(await value(floor, 'target_temperature')).toBe(7);
    });

    it("asks the device's onSettings before storing settings, and tells it its new name", async () => {
      const refused = await t.call<Json>('PUT', `/devices/device/${floor}/settings`, { room_base_temperature: 24 });
      expect(refused).toMatchObject({
        status: 502,
        body: { error: 'app_error', error_description: 'A room that is 24 °C without heating does not need a floor heating' },
      });
      const settings = () => t.call<Json[]>('GET', `/devices/device/${floor}/settings_obj`);
      expect((await settings()).body.find((s) => s.id === 'room_base_temperature')?.value).toBe(17);
      expect((await t.call('PUT', `/devices/device/${floor}/settings`, { heater_power: 2000 })).status).toBe(200);
      expect((await settings()).body.find((s) => s.id === 'heater_power')?.value).toBe(2000);
      // Heating again, the element draws the power its new setting says.
      await t.call('PUT', `/devices/device/${floor}/capability/target_temperature`, { value: 28 });
      expect(
        await until(
          () => value(floor, 'measure_power'),
          (power) => power === 2000,
        ),
      ).toBe(2000);
      expect((await t.call('PUT', `/devices/device/${floor}`, { name: 'Spa floor' })).status).toBe(200);
      await until(
        () => t.hub.services.apps.std('com.nordheat.climate').map((l) => l.line),
        (lines) => lines.some((line) => line.includes('renamed to Spa floor')),
      );
      expect(t.hub.services.apps.std('com.nordheat.climate').some((l) => l.line.includes('renamed to Spa floor'))).toBe(true);
    });
  });

  describe('Hearth Chime', () => {
    const APP = 'homey:app:com.hearth.chime';
    const uri = encodeURIComponent(APP);
    let chime: string;

    it('autocompletes melodies, ignoring case and accents', async () => {
      const found = await t.call<Json[]>('GET', `/flow/flowcardaction/${uri}/play_melody/autocomplete?name=melody&query=ELISE`);
      expect(found.body).toEqual([{ id: 'fur-elise', name: 'Für Elise', description: '10 s' }]);
      const all = await t.call<Json[]>('GET', `/flow/flowcardtrigger/${uri}/rang/autocomplete?name=melody&query=`);
      expect(all.body).toHaveLength(6);
    });

    it('rings when its button is pressed, starting the flows for that melody (or any)', async () => {
      chime = await pairDevice(t, `${APP}:chime`);
      const westminster = { id: 'westminster', name: 'Westminster' };
      const any = await flow('Any ring', { uri: APP, id: 'rang', args: { device: { id: chime } } });
      const matching = await flow('Westminster ring', {
        uri: APP,
        id: 'rang',
        args: { device: { id: chime }, melody: westminster },
      });
      const other = await flow('Big Ben ring', {
        uri: APP,
        id: 'rang',
        args: { device: { id: chime }, melody: { id: 'big-ben', name: 'Big Ben' } },
      });
      expect([any.body.broken, matching.body.broken, other.body.broken]).toEqual([false, false, false]);
      expect((await t.call('PUT', `/devices/device/${chime}/capability/button`, { value: true })).status).toBe(204);
      const runs = await until(
        () => traces(matching.body.id),
        (list) => list.length > 0,
      );
      expect(runs[0]?.trigger.tokens).toMatchObject({ melody: 'Westminster' });
      await until(
        () => traces(any.body.id),
        (list) => list.length > 0,
      );
      expect(await traces(any.body.id)).toHaveLength(1);
      expect(await traces(other.body.id)).toEqual([]);
    });

    it('answers its conditions and actions, and changes its melody setting from a flow', async () => {
      await t.call('PUT', `/devices/device/${chime}/capability/volume_set`, { value: 0.7 });
      const above = (level: number) =>
        t.call<Json>('POST', `/flow/flowcardcondition/${uri}/volume_above/run`, { args: { device: { id: chime }, level } });
      expect((await above(0.5)).body).toEqual({ result: true });
      expect((await above(0.9)).body).toEqual({ result: false });
      const quiet = await t.call<Json>('POST', `/flow/flowcardcondition/${uri}/quiet_hours/run`, { args: {} });
      expect(typeof quiet.body.result).toBe('boolean');
      const played = await t.call<Json>('POST', `/flow/flowcardaction/${uri}/play_melody/run`, {
        args: { device: { id: chime }, melody: { id: 'fur-elise', name: 'Für Elise' }, times: 2 },
      });
      expect(played).toMatchObject({ status: 200, body: { duration: 20 } });
      const set = await t.call<Json>('POST', `/flow/flowcardaction/${uri}/set_melody/run`, {
        args: { melody: { id: 'big-ben', name: 'Big Ben' } },
      });
      expect(set.status).toBe(200);
      expect((await t.call('GET', '/apps/app/com.hearth.chime/setting/melody')).body).toBe('big-ben');
      const wrong = await t.call<Json>('POST', `/flow/flowcardaction/${uri}/play_melody/run`, {
        args: { device: { id: chime }, melody: { id: 'fur-elise' }, times: 9 },
      });
      expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_parameter' } });
    });
  });

  describe('Weather Station', () => {
    const APP = 'homey:app:com.openweather.station';
    let station: string;

    it('reads its stand-in model, and says so, while the hub has no weather (its location is not set)', async () => {
      station = await pairDevice(t, `${APP}:station`);
      const first = await until(
        () => device(station),
        (answer) => typeof answer.body.capabilitiesObj.measure_temperature?.value === 'number',
      );
      expect(first.body.capabilitiesObj.measure_battery?.value).toBe(100);
      expect(first.body.capabilitiesObj.measure_humidity?.value).toEqual(expect.any(Number));
      const warned = await until(
        () => device(station),
        (answer) => typeof answer.body.warning === 'string',
      );
      expect(warned.body.warning).toMatch(/^Readings come from a local stand-in model: /);
      // The app called the hub's weather manager with a session of its own, listed with the owner's sessions.
      const sessions = await t.call<{ type: string; name: string }[]>('GET', '/sessions/session');
      expect(Object.values(sessions.body).some((s) => s.type === 'APP' && s.name === 'App com.openweather.station')).toBe(true);
    });

    it("reads the hub's weather from the cloud once the hub knows its place, and says it is modelled", async () => {
      await t.call('PUT', '/geolocation/option/location', { value: { latitude: 59.9, longitude: 10.7 } });
      const uri = encodeURIComponent(APP);
      const refreshed = await t.call<Json>('POST', `/flow/flowcardaction/${uri}/refresh/run`, {
        args: { device: { id: station } },
      });
      const hub = await t.call<{ temperature: number; humidity: number; source: { name: string } }>('GET', '/weather/weather');
      expect(hub.body.source.name).toBe('Hearth weather model');
      expect(refreshed).toMatchObject({
        status: 200,
        body: { temperature: hub.body.temperature, source: 'Hearth weather model' },
      });
      expect(await value(station, 'measure_temperature')).toBe(hub.body.temperature);
      expect(await value(station, 'measure_humidity')).toBe(Math.round(hub.body.humidity * 100));
      expect((await device(station)).body.warning).toBe(
        'Readings come from Hearth weather model, a model of a typical day: not measured, not a forecast',
      );
      const api = await fetch(`${t.url}/api/app/com.openweather.station/weather`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(await api.json()).toEqual([
        expect.objectContaining({ name: 'Weather station', temperature: hub.body.temperature, source: 'Hearth weather model' }),
      ]);
    });
  });
});
