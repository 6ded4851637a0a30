import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('weather manager', () => {
  let t: TestHub;
  let cloud: Server;
  const seen: string[] = [];
  beforeAll(async () => {
    // A stand-in for the cloud's weather service (`GET /weather/weather`) until the cloud serves it.
    cloud = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ temperature: 11.5, state: 'cloudy', hourly: [{ time: '2026-01-01T10:00:00Z', temperature: 12 }] }),
      );
    });
    await new Promise<void>((resolve) => cloud.listen(0, '127.0.0.1', resolve));
    t = await startTestHub({ cloudUrl: `http://127.0.0.1:${(cloud.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    await t.stop();
    cloud.close();
  });

  it('answers 503 while the location is unknown', async () => {
    const answer = await t.call<{ error: string; error_description: string }>('GET', '/weather/weather');
    expect(answer.status).toBe(503);
    expect(answer.body.error_description).toContain('location');
    expect((await t.call<{ available: boolean }>('GET', '/weather/state')).body.available).toBe(false);
  });

  it("asks the cloud for the weather at the hub's location and caches it", async () => {
    await t.call('PUT', '/geolocation/option/location', { value: { latitude: 52.1, longitude: 5.1 } });
    const current = await t.call<Record<string, unknown>>('GET', '/weather/weather');
    expect(current.body).toEqual({ temperature: 11.5, state: 'cloudy' });
    const hourly = await t.call<unknown[]>('GET', '/weather/forecast/hourly');
    expect(hourly.body).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('latitude=52.1');
    expect(seen[0]).toContain(`homey=${t.hub.context.config.id}`);
    expect((await t.call<{ available: boolean }>('GET', '/weather/state')).body.available).toBe(true);
  });
});
