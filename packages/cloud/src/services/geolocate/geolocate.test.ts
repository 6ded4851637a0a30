import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, readJson, startTestCloud } from '../../testing';

describeOnDatabases('Cloud geolocate', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  const locate = (body: unknown) =>
    fetch(`${cloud.url}/geolocate/geolocate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('finds the country, region, city, coordinates and time zone of an address, with the data source', async () => {
    const response = await locate({ homeyId: 'be0c4000000000000000aaaa', homeyIP: '8.8.8.8', towers: [] });
    expect(response.status).toBe(200);
    const place = await readJson(response);
    expect(place).toMatchObject({ ip: '8.8.8.8', country: 'US', countryName: 'United States', accuracy: 'city' });
    expect(place.region).toBe('California');
    expect(place.latitude).toBeCloseTo(37.4, 0);
    expect(place.longitude).toBeCloseTo(-122.1, 0);
    expect(place.timezone).toBe('America/Los_Angeles');
    expect(place.source).toMatchObject({ licence: 'CC BY 4.0', url: 'https://db-ip.com' });
    const v6 = await readJson(await locate({ homeyIP: '2001:4860:4860::8888' }));
    expect(v6).toMatchObject({ ip: '2001:4860:4860::8888', country: expect.stringMatching(/^[A-Z]{2}$/) });
    const mapped = await readJson(await locate({ homeyIP: '::ffff:8.8.8.8' }));
    expect(mapped.ip).toBe('8.8.8.8');
  });

  it("looks up the caller's own address when none is given, and has no place for private networks", async () => {
    // The test talks over loopback: its own address is a private one.
    for (const body of [{}, { homeyIP: '192.168.1.20' }, { homeyIP: '10.0.0.1' }]) {
      const response = await locate(body);
      expect(response.status).toBe(404);
      expect((await readJson(response)).error).toBe('not_found');
    }
  });

  it('refuses what is no address, naming the field', async () => {
    for (const homeyIP of ['not-an-ip', '999.1.1.1', '1.2.3']) {
      const response = await locate({ homeyIP });
      expect(response.status).toBe(400);
      const body = await readJson(response);
      expect(body.error).toBe('invalid_parameter');
      expect(body.error_description).toContain('homeyIP');
    }
  });
});
