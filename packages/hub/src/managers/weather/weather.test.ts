import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCloud } from '../../testing/cloud';
import { startTestHub, type TestHub } from '../../testing/hub';

const HUB_ID = 'abcdef0123456789abcdef77';

describe('weather manager', () => {
  let cloud: Cloud;
  let t: TestHub;
  let alone: TestHub;
  beforeAll(async () => {
    // The real cloud, embedded (PGlite), with its weather model (no provider configured).
    cloud = await startEmbeddedCloud();
    t = await startTestHub({ id: HUB_ID, cloudUrl: cloud.url });
    alone = await startTestHub({ cloudUrl: null });
  });
  afterAll(async () => {
    await t?.stop();
    await alone?.stop();
    await cloud?.stop();
  });

  it('answers 503 while the location is unknown, and on a hub without a cloud', async () => {
    const answer = await t.call<{ error: string; error_description: string }>('GET', '/weather/weather');
    expect(answer.status).toBe(503);
    expect(answer.body.error_description).toContain('location');
    expect((await t.call<{ available: boolean }>('GET', '/weather/state')).body.available).toBe(false);
    await alone.call('PUT', '/geolocation/option/location', { value: { latitude: 52.1, longitude: 5.1 } });
    const noCloud = await alone.call<{ error_description: string }>('GET', '/weather/weather');
    expect(noCloud.status).toBe(503);
    expect(noCloud.body.error_description).toContain('cloud');
  });

  it("asks the cloud's weather service for the weather at the hub's location, in its language, and keeps it", async () => {
    await t.call('PUT', '/geolocation/option/location', { value: { latitude: 52.1, longitude: 5.1 } });
    await t.call('PUT', '/i18n/option/language', { value: 'nl' });
    const current = await t.call<Record<string, unknown>>('GET', '/weather/weather');
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ latitude: 52.1, longitude: 5.1, language: 'nl', source: { model: true } });
    expect(current.body).not.toHaveProperty('hourly');
    const hourly = await t.call<{ time: string; temperature: number }[]>('GET', '/weather/forecast/hourly');
    expect(hourly.body).toHaveLength(24);
    expect(typeof hourly.body[0]?.temperature).toBe('number');
    expect((await t.call<Record<string, unknown>>('GET', '/weather/weather')).body).toEqual(current.body);
    const state = await t.call<{ available: boolean; lastFetched: string }>('GET', '/weather/state');
    expect(state.body.available).toBe(true);
    expect(Date.parse(state.body.lastFetched)).not.toBeNaN();
  });
});
