import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('geolocation manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('stores mode, location and address', async () => {
    expect((await t.call('GET', '/geolocation/state')).body).toEqual({ mode: 'auto', location: null, address: null });
    const location = { latitude: 52.37, longitude: 4.89 };
    expect((await t.call('PUT', '/geolocation/option/location', { value: location })).body).toEqual({ value: location });
    await t.call('PUT', '/geolocation/option/mode', { value: 'manual' });
    const address = { street: 'Dam', houseNumber: '1', city: 'Amsterdam', country: 'NL' };
    expect((await t.call('PUT', '/geolocation/option/address', { value: address })).body).toEqual({ value: address });
    expect((await t.call('GET', '/geolocation/option/location')).body).toEqual({ value: location });
    expect((await t.call('GET', '/geolocation/option/address')).body).toEqual({ value: address });
    expect((await t.call('GET', '/geolocation/option/mode')).body).toEqual({ value: 'manual' });
    expect((await t.call('DELETE', '/geolocation/option/address')).status).toBe(204);
    expect((await t.call('GET', '/geolocation/option/address')).body).toEqual({ value: null });
    expect((await t.call('DELETE', '/geolocation/option/mode')).status).toBe(204);
    expect((await t.call('DELETE', '/geolocation/option/location')).status).toBe(204);
  });

  it('refuses a latitude out of range', async () => {
    const answer = await t.call<{ error_description: string }>('PUT', '/geolocation/option/location', {
      value: { latitude: 123, longitude: 4 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error_description).toContain('value.latitude');
    const notObject = await t.call<{ error_description: string }>('PUT', '/geolocation/option/location', { value: 'home' });
    expect(notObject.body.error_description).toBe('Invalid Parameter Type: value. Got: string. Expected: object,null');
    expect((await t.call('PUT', '/geolocation/option/location', { value: null })).body).toEqual({ value: null });
  });
});
