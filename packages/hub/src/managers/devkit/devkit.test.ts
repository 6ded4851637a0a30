import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

const manifest = {
  id: 'com.example.devkit',
  version: '0.0.1',
  sdk: 3,
  name: { en: 'Devkit example' },
  author: { name: 'Dev Eloper', email: 'dev@example.test' },
  drivers: [{ id: 'plug', name: 'Plug', class: 'socket', capabilities: ['onoff'], connectivity: ['wifi'], simulation: 'switch' }],
  simulation: { log: ['Hello from the devkit'] },
};

describe('devkit and images over HTTP', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('runs an app from its manifest, streams its output and stops it', async () => {
    const run = await t.call<{ sessionId: string; appId: string; origin: string }>('POST', '/devkit/app', { manifest });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ appId: 'com.example.devkit', origin: 'devkit_run' });
    const app = await until(
      () => t.call<Json>('GET', '/apps/app/com.example.devkit'),
      (a) => a.body.state === 'running',
    );
    expect(app.body).toMatchObject({ origin: 'devkit_run', channel: 'alpha' });
    const std = await t.call<{ line: string }[]>('GET', `/devkit/std/${run.body.sessionId}`);
    expect(std.body.map((l) => l.line)).toContain('Hello from the devkit');
    expect((await t.call('DELETE', `/devkit/${run.body.sessionId}`)).status).toBe(204);
    expect((await t.call('GET', '/apps/app/com.example.devkit')).status).toBe(404);
    expect((await t.call('GET', `/devkit/std/${run.body.sessionId}`)).status).toBe(404);
  });

  it('installs with run false, keeping the app after the session; uninstalls by session', async () => {
    const install = await t.call<{ sessionId: string; origin: string }>('POST', '/devkit/app', { manifest, run: false });
    expect(install.body.origin).toBe('devkit_install');
    expect((await t.call('DELETE', `/devkit/app/${install.body.sessionId}`)).status).toBe(204);
    expect((await t.call('GET', '/apps/app/com.example.devkit')).status).toBe(404);
  });

  it('refuses an invalid manifest naming the problem', async () => {
    const bad = await t.call<Json>('POST', '/devkit/app', {
      manifest: { ...manifest, drivers: [{ ...manifest.drivers[0], capabilities: ['teleport'] }] },
    });
    expect(bad.status).toBe(400);
    expect(String(bad.body.error_description)).toContain('teleport');
    expect(
      (
        await t.call('POST', '/devkit/app', {
          manifest: { id: 'com.hearth.virtual', version: '1.0.0', sdk: 3, name: 'x', author: { name: 'a', email: 'a@b' } },
        })
      ).status,
    ).toBe(403);
  });

  it('lists camera images of devices', async () => {
    await until(
      () => t.call<Json>('GET', '/apps/app/com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
    const session = await t.call<{ id: string }>('POST', '/drivers/pairsession', {
      type: 'pair',
      driverId: 'homey:app:com.hearth.virtual:virtualipcamera',
    });
    expect(
      (await t.call('POST', `/drivers/pairsession/${session.body.id}/emit`, { event: 'login', data: { username: 'admin' } }))
        .status,
    ).toBe(400);
    expect(
      (
        await t.call('POST', `/drivers/pairsession/${session.body.id}/emit`, {
          event: 'login',
          data: { username: 'admin', password: 'secret' },
        })
      ).body,
    ).toBe(true);
    const camera = await t.call<{ id: string }>('POST', `/drivers/pairsession/${session.body.id}/device`, {
      name: 'Front door',
      data: { id: 'cam-1' },
    });
    const images = await t.call<Record<string, Json>>('GET', '/images/image');
    expect(Object.values(images.body)).toEqual([
      expect.objectContaining({ id: `${camera.body.id}-snapshot`, ownerUri: `homey:device:${camera.body.id}` }),
    ]);
    expect((await t.call<Json>('GET', '/images/state')).body).toEqual({ images: 1 });
  });
});
