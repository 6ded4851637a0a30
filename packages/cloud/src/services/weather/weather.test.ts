import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, readJson, startTestCloud } from '../../testing';
import { modelConditions } from './model';

const HUB = 'be0c4000000000000000aaaa';

describeOnDatabases('Cloud weather', (backend) => {
  let cloud: Cloud;
  let forecast: Cloud;
  let provider: Server;
  let providerUp = true;
  const asked: URLSearchParams[] = [];
  beforeAll(async () => {
    // A stand-in for Open-Meteo's forecast API (which this machine cannot reach), answering in its documented shape.
    provider = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      asked.push(url.searchParams);
      if (!providerUp || url.pathname !== '/v1/forecast') {
        response.statusCode = 502;
        response.end();
        return;
      }
      const now = new Date();
      const hour = (offset: number) =>
        new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 + offset * 3_600_000).toISOString().slice(0, 16);
      const hours = Array.from({ length: 26 }, (_, i) => i - 1);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          latitude: 52.37,
          longitude: 4.9,
          timezone: 'GMT',
          current: {
            time: now.toISOString().slice(0, 16),
            temperature_2m: 7.4,
            apparent_temperature: 4.1,
            relative_humidity_2m: 81,
            pressure_msl: 1009.5,
            cloud_cover: 90,
            precipitation: 1.2,
            wind_speed_10m: 5.5,
            wind_direction_10m: 230,
            weather_code: 63,
          },
          hourly: {
            time: hours.map(hour),
            temperature_2m: hours.map((h) => 7 + h / 10),
            apparent_temperature: hours.map(() => 4),
            relative_humidity_2m: hours.map(() => 70),
            pressure_msl: hours.map(() => 1010),
            cloud_cover: hours.map(() => 10),
            precipitation: hours.map(() => 0),
            wind_speed_10m: hours.map(() => 3),
            wind_direction_10m: hours.map(() => 180),
            weather_code: hours.map(() => 0),
          },
        }),
      );
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    cloud = await startTestCloud(backend);
    forecast = await startTestCloud(backend, { weather: { provider: 'open-meteo', url } });
  });
  afterAll(async () => {
    await cloud.stop();
    await forecast.stop();
    provider.close();
  });

  const weather = (query: Record<string, string>, on = cloud) => fetch(`${on.url}/weather/weather?${new URLSearchParams(query)}`);

  it('answers the modelled weather of a place, labelled as a model, for the next 24 hours, kept ten minutes', async () => {
    const response = await weather({ latitude: '52.3731', longitude: '4.8922', homey: HUB, language: 'nl' });
    expect(response.status).toBe(200);
    const report = await readJson(response);
    expect(report.source).toMatchObject({ id: 'hearth-model', model: true });
    expect(report.source.description).toContain('Not a forecast');
    expect(report).toMatchObject({ latitude: 52.37, longitude: 4.89, language: 'nl' });
    expect(report.hourly).toHaveLength(24);
    const times = report.hourly.map((hour: { time: string }) => Date.parse(hour.time));
    expect(times.every((time: number, i: number) => i === 0 || time - (times[i - 1] as number) === 3_600_000)).toBe(true);
    expect(times[0]).toBeGreaterThan(Date.parse(report.time));
    expect(['Onbewolkt', 'Half bewolkt', 'Bewolkt', 'Mist', 'Motregen', 'Regen', 'Sneeuw']).toContain(report.description);
    expect(report.humidity).toBeGreaterThanOrEqual(0);
    expect(report.humidity).toBeLessThanOrEqual(1);
    // Kept: a second asker nearby (the same place to two decimals) gets the very same answer.
    const again = await readJson(await weather({ latitude: '52.3749', longitude: '4.8901', homey: HUB, language: 'nl' }));
    expect(again).toEqual(report);
  });

  it('models a warmer July than January, a warmer afternoon than night, and colder poles than the equator', () => {
    const at = (month: number, hour: number) => Date.UTC(2026, month, 15, hour);
    const mean = (latitude: number, month: number) =>
      Array.from({ length: 24 }, (_, h) => modelConditions(latitude, 0, at(month, h), 'en').temperature).reduce(
        (sum, t) => sum + t,
        0,
      ) / 24;
    expect(mean(52, 6)).toBeGreaterThan(mean(52, 0) + 8);
    expect(mean(-34, 0)).toBeGreaterThan(mean(-34, 6));
    expect(mean(0, 3)).toBeGreaterThan(mean(70, 3) + 20);
    const days = Array.from({ length: 30 }, (_, d) => Date.UTC(2026, 6, d + 1));
    const afternoon = days.map((day) => modelConditions(52, 0, day + 15 * 3_600_000, 'en').temperature);
    const night = days.map((day) => modelConditions(52, 0, day + 4 * 3_600_000, 'en').temperature);
    expect(afternoon.reduce((a, b) => a + b) / 30).toBeGreaterThan(night.reduce((a, b) => a + b) / 30 + 3);
  });

  it('refuses a place that is none, naming the field', async () => {
    for (const [query, field] of [
      [{ latitude: '91', longitude: '4', homey: HUB }, 'latitude'],
      [{ latitude: '52', longitude: '-180.5', homey: HUB }, 'longitude'],
      [{ latitude: 'north', longitude: '4', homey: HUB }, 'latitude'],
    ] as const) {
      const response = await weather(query);
      expect(response.status).toBe(400);
      const body = await readJson(response);
      expect(body.error).toBe('invalid_parameter');
      expect(body.error_description).toContain(field);
    }
    expect((await weather({ latitude: '52', longitude: '4' })).status).toBe(400);
  });

  it('takes the weather from Open-Meteo when configured, in its units, and says the provider is unreachable', async () => {
    const report = await readJson(await weather({ latitude: '52.37', longitude: '4.9', homey: HUB }, forecast));
    expect(report.source).toMatchObject({ id: 'open-meteo', model: false });
    expect(report).toMatchObject({ temperature: 7.4, apparentTemperature: 4.1, humidity: 0.81, cloudCover: 0.9 });
    expect(report).toMatchObject({ precipitation: 1.2, windSpeed: 5.5, windDirection: 230, state: 'rain', description: 'Rain' });
    expect(report.hourly).toHaveLength(24);
    expect(Date.parse(report.hourly[0].time)).toBeGreaterThan(Date.parse(report.time));
    expect(report.hourly[0]).toMatchObject({ state: 'clear', cloudCover: 0.1 });
    const query = asked.at(-1) as URLSearchParams;
    expect(query.get('wind_speed_unit')).toBe('ms');
    expect(query.get('current')).toContain('weather_code');

    providerUp = false;
    const down = await weather({ latitude: '10', longitude: '10', homey: HUB }, forecast);
    expect(down.status).toBe(503);
    expect((await readJson(down)).error).toBe('unavailable');
    providerUp = true;
  });

  it('limits how often one hub may ask, with Retry-After', async () => {
    const hub = 'be0c4000000000000000bbbb';
    let last: Response | undefined;
    for (let i = 0; i < 121; i++) {
      last = await weather({ latitude: '40', longitude: '3', homey: hub });
      if (last.status === 429) break;
      await last.arrayBuffer();
    }
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await weather({ latitude: '40', longitude: '3', homey: HUB })).status).toBe(200);
  });
});

describe('the weather model', () => {
  it('is the same for the same place and moment, and moves gradually from hour to hour', () => {
    const at = Date.UTC(2026, 10, 25, 12);
    expect(modelConditions(52.37, 4.89, at, 'en')).toEqual(modelConditions(52.37, 4.89, at, 'en'));
    for (let h = 0; h < 48; h++) {
      const a = modelConditions(52.37, 4.89, at + h * 3_600_000, 'en');
      const b = modelConditions(52.37, 4.89, at + (h + 1) * 3_600_000, 'en');
      expect(Math.abs(a.temperature - b.temperature)).toBeLessThan(3);
      expect(Math.abs(a.cloudCover - b.cloudCover)).toBeLessThan(0.2);
    }
  });
});
