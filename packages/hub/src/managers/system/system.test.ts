import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

let t: TestHub;
beforeAll(async () => {
  t = await startTestHub({ id: '0123456789abcdef01234567' });
});
afterAll(() => t.stop());

describe('system manager over HTTP', () => {
  it('answers the ping with the hub id, version and tier headers, with and without ?id', async () => {
    for (const path of ['/system/ping?id=0123456789abcdef01234567', '/system/ping']) {
      const answer = await t.call('GET', path, undefined, null);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-homey-id')).toBe('0123456789abcdef01234567');
      expect(answer.headers.get('x-homey-version')).toBe('12.4.0');
      expect(answer.headers.get('x-homey-tier')).toBe('free');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.body).not.toBe(false);
    }
  });

  it('exposes the id headers to browsers (CORS)', async () => {
    const response = await fetch(`${t.url}/api/manager/system/ping`, { headers: { origin: 'http://example.test' } });
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Homey-ID');
    const preflight = await fetch(`${t.url}/api/manager/system/name`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,x-homey-id',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-homey-id');
  });

  it('serves getInfo at GET /system/ with its trailing slash', async () => {
    const answer = await t.call<Json>('GET', '/system/');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: '0123456789abcdef01234567', model: 'hearth-pro-5q', softwareVersion: '12.4.0' });
    expect(answer.body.videoCoreUnderVoltageCurrentlyRatio).toBeTypeOf('number');
  });

  it('renames the hub durably and validates the name', async () => {
    expect((await t.call<Json>('PUT', '/system/name', { name: 'Cottage' })).body).toBe('Cottage');
    expect((await t.call<Json>('GET', '/system/name')).body).toBe('Cottage');
    expect((await t.call<Json>('PUT', '/system/name', {})).body).toEqual({
      error: 'missing_parameter',
      error_description: 'Missing Parameter: name',
      statusCode: 400,
    });
    const wrongType = await t.call<Json>('PUT', '/system/name', { name: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error_description).toBe('Invalid Parameter Type: name. Got: number. Expected: string');
  });

  it('refuses calls without a token (401) and with too narrow a scope (403)', async () => {
    expect((await t.call<Json>('GET', '/system/', undefined, null)).body).toMatchObject({
      error: 'missing_token',
      statusCode: 401,
    });
    expect((await t.call<Json>('GET', '/system/', undefined, 'hpat_forged')).body).toMatchObject({
      error: 'invalid_token',
    });
    const owner = t.hub.context.users.owner();
    const readonly = t.hub.context.sessions.create({ type: 'PAT', userId: owner!.id, scopes: ['homey.system.readonly'] }).token;
    expect((await t.call<Json>('GET', '/system/name', undefined, readonly)).status).toBe(200);
    expect((await t.call<Json>('PUT', '/system/name', { name: 'x' }, readonly)).body).toMatchObject({
      error: 'missing_scopes',
      statusCode: 403,
    });
  });

  it('answers 404 with the uniform error body for unknown routes', async () => {
    expect((await t.call<Json>('GET', '/system/nope')).body).toMatchObject({ error: 'route_not_found', statusCode: 404 });
  });
});
