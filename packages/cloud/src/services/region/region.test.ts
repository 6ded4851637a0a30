import { STATUS_SECRET_HEADER } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { describeOnDatabases, readJson, startTestCloud } from '../../testing';

const SECRET = 'status-secret-0123456789abcdef';

describeOnDatabases('Cloud region', (backend) => {
  let cloud: Cloud;
  let unpublished: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend, { region: 'us-east-1', statusSecret: SECRET });
    unpublished = await startTestCloud(backend);
  });
  afterAll(async () => {
    await cloud.stop();
    await unpublished.stop();
  });

  const status = (headers: Record<string, string> = {}, on = cloud) => fetch(`${on.url}/region/api/system/status`, { headers });

  it('answers the region at the root, to anyone (default eu)', async () => {
    const response = await fetch(`${cloud.url}/region/`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ region: 'us-east-1' });
    expect(await readJson(await fetch(`${unpublished.url}/region/`))).toEqual({ region: 'eu' });
  });

  it('answers the status with the secret header: uptime, version and a live database check', async () => {
    const response = await status({ [STATUS_SECRET_HEADER]: SECRET });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await readJson(response);
    expect(body).toMatchObject({ ok: true, region: 'us-east-1', database: { ok: true, kind: backend } });
    expect(body.uptime).toBeGreaterThanOrEqual(0);
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(body.startedAt)).toBeLessThanOrEqual(Date.now());
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Object.keys(body)).not.toContain('status');
  });

  it('refuses the status without the secret, with a wrong one, a bearer token, or when none is set', async () => {
    const missing = await status();
    expect(missing.status).toBe(401);
    expect((await readJson(missing)).error).toBe('missing_token');
    for (const wrong of [`${SECRET}x`, SECRET.slice(1), 'x'.repeat(SECRET.length)]) {
      const refused = await status({ [STATUS_SECRET_HEADER]: wrong });
      expect(refused.status).toBe(403);
      expect(await readJson(refused)).toMatchObject({ error: 'forbidden', error_description: 'Invalid status secret' });
    }
    expect((await status({ authorization: `Bearer ${SECRET}` })).status).toBe(401);
    const off = await status({ [STATUS_SECRET_HEADER]: SECRET }, unpublished);
    expect(off.status).toBe(503);
    expect((await readJson(off)).error).toBe('unavailable');
  });
});
