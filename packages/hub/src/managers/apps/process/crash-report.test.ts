import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../core/clock';
import { appsRoot } from '../../../runtime/manifest';
import { runOverDevkit } from '../../../testing/devkit';
import { startTestHub, type TestHub } from '../../../testing/hub';
import { until } from '../../../testing/until';

type Json = Record<string, unknown>;
const FLAKY = 'com.flakyhome.sensors';
const lamp = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.lamp');

/**
 * FlakyHome Sensors, the demo world's app that crashes on purpose, installed from the catalogue: each crash is
 * reported to the cloud's crash endpoint, restarts back off (1, 2, 4, 8 s on the hub's clock), and after the fifth
 * crash within ten minutes the hub gives up and tells the household. An app run over the devkit is not reported.
 */
describe('crashing apps', () => {
  let t: TestHub;
  let cloud: Server;
  const clock = new FakeClock(Date.now());
  const reports: { appId: string; body: Json }[] = [];

  beforeAll(async () => {
    // The cloud's catalogue and crash endpoint, as far as this test needs them.
    const manifest = JSON.parse(readFileSync(join(appsRoot, 'store', FLAKY, 'app.json'), 'utf8')) as Json;
    cloud = createServer((request, response) => {
      const url = request.url ?? '';
      response.setHeader('content-type', 'application/json');
      if (request.method === 'GET' && url.startsWith(`/apps/app/${FLAKY}/install`)) {
        response.end(JSON.stringify({ version: manifest.version, channel: 'stable', manifest }));
        return;
      }
      const crash = /^\/apps\/app\/([^/]+)\/crash$/.exec(url);
      if (request.method === 'POST' && crash) {
        let text = '';
        request.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        request.on('end', () => {
          reports.push({ appId: crash[1] as string, body: JSON.parse(text) as Json });
          response.statusCode = 201;
          response.end(JSON.stringify({ _id: String(reports.length), stackHash: 'x' }));
        });
        return;
      }
      response.statusCode = 404;
      response.end('{"error":"not_found"}');
    });
    await new Promise<void>((resolve) => cloud.listen(0, '127.0.0.1', resolve));
    t = await startTestHub({ cloudUrl: `http://127.0.0.1:${(cloud.address() as AddressInfo).port}` }, { clock });
  });
  afterAll(async () => {
    await t.stop();
    cloud.close();
  });

  const app = (id: string) => t.call<Json>('GET', `/apps/app/${id}`);

  it('reports each crash of a catalogue app, backs off, and gives up after five with a notification', async () => {
    const installed = await t.call<Json>('POST', '/apps/store', { id: FLAKY, channel: 'stable' });
    expect(installed.body).toMatchObject({ id: FLAKY, origin: 'appstore' });
    for (const [crash, backoff] of [
      [1, 1_000],
      [2, 2_000],
      [3, 4_000],
      [4, 8_000],
      [5, null],
    ] as const) {
      const crashed = await until(
        () => app(FLAKY),
        (answer) => answer.body.exitCount === crash && answer.body.state === 'stopped',
        15_000,
      );
      expect(crashed.body).toMatchObject({ crashed: true, exitCount: crash });
      expect(String(crashed.body.crashedMessage)).toContain("Cannot read properties of undefined (reading 'co2')");
      await until(
        () => reports.length,
        (count) => count === crash,
      );
      if (backoff === null) break;
      // Not restarted before its back-off is over; restarted once it is.
      await clock.advance(backoff - 10);
      expect((await app(FLAKY)).body.state).toBe('stopped');
      await clock.advance(10);
      await until(
        () => app(FLAKY),
        (answer) => answer.body.state !== 'stopped',
      );
    }
    expect(reports).toHaveLength(5);
    expect(reports[0]).toMatchObject({
      appId: FLAKY,
      body: { appVersion: '1.0.3', homeyId: t.hub.context.config.id, homeyModelId: 'hearth-pro-5q' },
    });
    expect(String(reports[0]?.body.stack)).toContain('TypeError');
    // Given up: no restart however long the hub waits, and the household was told.
    await clock.advance(15 * 60_000);
    expect((await app(FLAKY)).body).toMatchObject({ state: 'stopped', crashed: true, exitCount: 5 });
    const notifications = await t.call<Record<string, { excerpt: string; ownerUri: string }>>(
      'GET',
      '/notifications/notification',
    );
    const told = Object.values(notifications.body).filter((n) => n.ownerUri === 'homey:manager:apps');
    expect(told).toHaveLength(1);
    expect(told[0]?.excerpt).toMatch(/^\*\*FlakyHome Sensors\*\* crashed 5 times within 10 minutes and was stopped: /);
    // Someone starting it again gives it a fresh record.
    expect((await t.call('POST', `/apps/app/${FLAKY}/restart`)).status).toBe(200);
    await until(
      () => app(FLAKY),
      (answer) => answer.body.exitCount === 6,
      15_000,
    );
    expect(reports).toHaveLength(6);
  });

  it('does not report an app run over the devkit', async () => {
    await runOverDevkit(t, lamp);
    await until(
      () => app('com.test.lamp'),
      (answer) => answer.body.state === 'running',
      15_000,
    );
    await fetch(`${t.url}/api/app/com.test.lamp/crash`, { method: 'POST', headers: { authorization: `Bearer ${t.token}` } });
    const crashed = await until(
      () => app('com.test.lamp'),
      (answer) => answer.body.crashed === true,
    );
    expect(crashed.body.crashedMessage).toBe('Lamp app crashed on request');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reports.filter((r) => r.appId === 'com.test.lamp')).toEqual([]);
  });

  it('ends a crash report still under way when the hub stops', async () => {
    // A cloud that takes the report and never answers.
    let closed = false;
    let arrived = false;
    const slow = createServer((request) => {
      if (!request.url?.endsWith('/crash')) return request.socket.destroy();
      arrived = true;
      request.socket.on('close', () => {
        closed = true;
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const hub = await startTestHub({ cloudUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}` });
    try {
      const manifest = JSON.parse(readFileSync(join(appsRoot, 'store', FLAKY, 'app.json'), 'utf8'));
      hub.hub.services.apps.install({ dir: join(appsRoot, 'store', FLAKY), manifest, builtin: false }, 'appstore', 'stable');
      expect(
        await until(
          () => arrived,
          (yes) => yes,
          15_000,
        ),
      ).toBe(true);
    } finally {
      await hub.stop();
    }
    expect(
      await until(
        () => closed,
        (yes) => yes,
        2_000,
      ),
    ).toBe(true);
    slow.closeAllConnections();
    slow.close();
  });
});
