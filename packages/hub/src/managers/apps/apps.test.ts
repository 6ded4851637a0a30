import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsRoot } from '../../runtime/manifest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type App = Record<string, unknown> & { id: string; state: string; crashed: boolean; exitCount: number };

describe('apps manager over HTTP', () => {
  let t: TestHub;
  const app = (id: string) => t.call<App>('GET', `/apps/app/${id}`);

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('serves the built-in app with every App field, running', async () => {
    const answer = await until(
      () => app('com.hearth.virtual'),
      (a) => a.body.state === 'running',
    );
    expect(answer.status).toBe(200);
    const fields = [
      'enabled',
      'autoupdate',
      'id',
      'sdk',
      'name',
      'origin',
      'channel',
      'version',
      'compatibility',
      'icon',
      'iconObj',
      'author',
      'permissions',
      'images',
      'session',
      'ready',
      'state',
      'crashed',
      'crashedMessage',
      'exitCode',
      'exitSignal',
      'exitCount',
      'settings',
      'brandColor',
      'hasDrivers',
      'usage',
      'updateAvailable',
    ];
    for (const field of fields) expect(answer.body, field).toHaveProperty(field);
    expect(answer.body).toMatchObject({
      sdk: 3,
      name: 'Virtual devices',
      ready: true,
      hasDrivers: true,
      crashed: false,
      updateAvailable: null,
    });
    expect(answer.body).not.toHaveProperty('uri');
    // The icon the view names is served: the app has none of its own, so its initials on its brand colour.
    const icon = await fetch(`${t.url}${String(answer.body.icon)}`);
    expect(icon.status).toBe(200);
    const drawn = await icon.text();
    expect(drawn).toContain('fill="#F28C28"');
    expect(drawn).toMatch(/>VD<\/text>/);
    expect((await fetch(`${t.url}/app/com.unknown.app/assets/icon.svg`)).status).toBe(404);
    const list = await t.call<Record<string, App>>('GET', '/apps/app');
    expect(Object.keys(list.body).sort()).toEqual(['com.hearth.mqtt', 'com.hearth.virtual']);
  });

  it('installs an app from the catalogue with its support link kind, runs it, and answers usage', async () => {
    const installed = await t.call<App>('POST', '/apps/store', { id: 'com.nordheat.climate', channel: 'stable' });
    expect(installed.status).toBe(200);
    expect(installed.body).toMatchObject({
      id: 'com.nordheat.climate',
      origin: 'appstore',
      channel: 'stable',
      support: 'mailto:support@nordheat.example',
    });
    const running = await until(
      () => app('com.nordheat.climate'),
      (a) => a.body.state === 'running',
    );
    expect(running.body.ready).toBe(true);
    // NordHeat has code: it runs in a process of its own, whose real memory the usage answers.
    const usage = await t.call<{ cpu: number; mem: number }>('GET', '/apps/app/com.nordheat.climate/usage');
    expect(usage.body.mem).toBeGreaterThan(20 * 1024 * 1024);
    const gc = await t.call<{ mem: number }>('POST', '/apps/app/com.nordheat.climate/gc');
    expect(gc.status).toBe(200);
    expect(gc.body.mem).toBeGreaterThan(20 * 1024 * 1024);
    expect((await t.call('POST', '/apps/store', { id: 'com.unknown.app' })).status).toBe(404);
    expect((await t.call('POST', '/apps/store', {})).body).toMatchObject({ error: 'missing_parameter' });
  });

  it('disables, enables, and updates autoupdate', async () => {
    const disabled = await t.call<App>('PUT', '/apps/app/com.nordheat.climate/disable');
    // Its process is asked to stop (onUninit runs first) and ends soon after.
    expect(disabled.body).toMatchObject({ enabled: false, ready: false });
    expect(['stopping', 'stopped']).toContain(disabled.body.state);
    const stopped = await until(
      () => app('com.nordheat.climate'),
      (a) => a.body.state === 'stopped',
    );
    expect(stopped.body).toMatchObject({ state: 'stopped', crashed: false });
    expect((await t.call('POST', '/apps/app/com.nordheat.climate/restart')).status).toBe(409);
    await t.call('PUT', '/apps/app/com.nordheat.climate/enable');
    expect(
      (
        await until(
          () => app('com.nordheat.climate'),
          (a) => a.body.state === 'running',
        )
      ).body.enabled,
    ).toBe(true);
    const updated = await t.call<App>('PUT', '/apps/app/com.nordheat.climate', { autoupdate: false });
    expect(updated.body.autoupdate).toBe(false);
  });

  it('keeps settings (CRUD), keeps them over a reinstall, and purges them on request', async () => {
    await t.call('POST', '/apps/store', { id: 'com.lumenco.lights' });
    const base = '/apps/app/com.lumenco.lights/setting';
    expect((await t.call('GET', base)).body).toEqual({ transition: 400 });
    expect((await t.call('PUT', `${base}/scene`, { value: { name: 'Evening', level: 0.4 } })).status).toBe(200);
    expect((await t.call('GET', `${base}/scene`)).body).toEqual({ name: 'Evening', level: 0.4 });
    expect((await t.call('PUT', `${base}/scene`, {})).body).toMatchObject({ error: 'missing_parameter' });
    expect((await t.call('DELETE', `${base}/transition`)).status).toBe(204);
    expect((await t.call('GET', `${base}/transition`)).status).toBe(404);
    expect((await t.call('DELETE', '/apps/app/com.lumenco.lights')).status).toBe(204);
    expect((await t.call('GET', '/apps/app/com.lumenco.lights')).status).toBe(404);
    await t.call('POST', '/apps/store', { id: 'com.lumenco.lights' });
    expect((await t.call('GET', base)).body).toEqual({ scene: { name: 'Evening', level: 0.4 }, transition: 400 });
    expect((await t.call('DELETE', '/apps/app/com.lumenco.lights?purgeSettings=true')).status).toBe(204);
    await t.call('POST', '/apps/store', { id: 'com.lumenco.lights' });
    expect((await t.call('GET', base)).body).toEqual({ transition: 400 });
  });

  it('marks a crashing app crashed without taking the hub down, and restarts it', async () => {
    await t.call('POST', '/apps/store', { id: 'com.flakyhome.sensors' });
    const crashed = await until(
      () => app('com.flakyhome.sensors'),
      (a) => a.body.crashed,
    );
    expect(crashed.body).toMatchObject({ state: 'stopped', crashed: true, exitCode: 1, exitCount: 1, ready: false });
    // Its own code crashed, in its own process: the poller's TypeError.
    expect(crashed.body.crashedMessage).toBe("Cannot read properties of undefined (reading 'co2')");
    expect((await t.call('GET', '/system/ping')).status).toBe(200);
    const restarted = await t.call<App>('POST', '/apps/app/com.flakyhome.sensors/restart');
    expect(restarted.body.crashed).toBe(false);
    const again = await until(
      () => app('com.flakyhome.sensors'),
      (a) => a.body.exitCount === 2,
    );
    expect(again.body.crashed).toBe(true);
  });

  it('refuses to uninstall a built-in app and answers 404 for unknown apps', async () => {
    expect((await t.call('DELETE', '/apps/app/com.hearth.virtual')).body).toMatchObject({ statusCode: 403 });
    expect((await t.call('GET', '/apps/app/com.nope.nope')).status).toBe(404);
    expect((await t.call('GET', '/apps/app/com.hearth.virtual/locale')).status).toBe(200);
  });

  it('needs a token and the right scope', async () => {
    expect((await t.call('GET', '/apps/app', undefined, null)).status).toBe(401);
    const user = t.hub.context.users.owner();
    const readonly = t.hub.context.sessions.create({
      type: 'PAT',
      userId: user!.id,
      name: 'ro',
      scopes: ['homey.app.readonly'],
    }).token;
    expect((await t.call('GET', '/apps/app', undefined, readonly)).status).toBe(200);
    expect((await t.call('PUT', '/apps/app/com.hearth.virtual/disable', {}, readonly)).status).toBe(403);
    expect((await t.call('GET', '/apps/app/com.hearth.virtual/setting', undefined, readonly)).status).toBe(403);
  });
});

describe('apps.getAppStd (crash log e-mail through the cloud)', () => {
  let mail: Server;
  let received: Record<string, unknown>[] = [];
  const catalogueCalls: string[] = [];
  let t: TestHub;

  beforeAll(async () => {
    mail = createServer((request, response) => {
      // The cloud's app catalogue, as its contract describes it: an install answer and an app record.
      const url = new URL(request.url ?? '/', 'http://cloud');
      const install = /^\/apps\/app\/([^/]+)\/install$/.exec(url.pathname);
      const record = /^\/apps\/app\/([^/]+)$/.exec(url.pathname);
      const appId = (install ?? record)?.[1];
      if (appId === 'com.flakyhome.sensors' && install) {
        // Served as published: the same manifest as the hub's own package of it.
        const manifest = JSON.parse(readFileSync(join(appsRoot, 'store', appId, 'app.json'), 'utf8'));
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: appId, version: manifest.version, channel: 'stable', manifest }));
        return;
      }
      if (appId !== undefined && appId !== 'com.lumenco.lights') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      if (install) {
        catalogueCalls.push(url.search);
        const version = url.searchParams.get('version') ?? '3.3.0';
        const manifest = {
          id: 'com.lumenco.lights',
          sdk: 3,
          name: { en: 'Lumen & Co Lights' },
          author: { _id: 'u1', name: 'Lumen & Co', verified: true },
          brandColor: '#1E6FD9',
          permissions: ['homey:wireless:zigbee'],
          support: 'https://support.lumenco.example/hearth',
          drivers: [
            {
              id: 'bulb-e27',
              name: { en: 'Bulb E27' },
              class: 'light',
              capabilities: ['onoff', 'dim', 'lumenco_scene'],
              connectivity: ['zigbee'],
            },
          ],
        };
        const answer = {
          id: 'com.lumenco.lights',
          version,
          channel: 'stable',
          buildId: 7,
          manifest,
          archive: { url: '/x', hash: 'h', size: 1 },
        };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        return;
      }
      if (record) {
        const answer = {
          id: 'com.lumenco.lights',
          liveVersion: '3.3.0',
          testVersion: '3.4.0-beta.1',
          liveBuild: { manifest: { permissions: ['homey:wireless:zigbee'] } },
        };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        return;
      }
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ url: request.url, ...JSON.parse(body) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => mail.listen(0, '127.0.0.1', resolve));
    t = await startTestHub({ cloudUrl: `http://127.0.0.1:${(mail.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    await t.stop();
    await new Promise((resolve) => mail.close(resolve));
  });

  it("mails the author the message with the app's recent output and the hub's facts", async () => {
    received = [];
    await t.call('POST', '/apps/store', { id: 'com.flakyhome.sensors' });
    await until(
      () => t.call<App>('GET', '/apps/app/com.flakyhome.sensors'),
      (a) => a.body.body === undefined && a.body.crashed,
    );
    const answer = await t.call<{ to: string; lines: number }>('POST', '/apps/app/com.flakyhome.sensors/crashlog', {
      message: 'It keeps crashing',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.to).toBe('dev@flakyhome.example');
    // The cloud also heard of the crash itself, at its crash endpoint (a catalogue app's crash is reported).
    const reported = await until(
      () => received.some((r) => r.url === '/apps/app/com.flakyhome.sensors/crash'),
      (yes) => yes,
    );
    expect(reported).toBe(true);
    const mails = received.filter((r) => r.url === '/cloud/mail/formatted');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ url: '/cloud/mail/formatted', to: 'dev@flakyhome.example' });
    expect(String(mails[0]?.body)).toContain('It keeps crashing');
    expect(String(mails[0]?.body)).toContain('TypeError');
    expect(String(mails[0]?.body)).toContain(t.hub.context.config.id);
    expect((await t.call('POST', '/apps/app/com.flakyhome.sensors/crashlog', {})).body).toMatchObject({
      error: 'missing_parameter',
    });
  });

  it('installs from the cloud catalogue and shows an update when the catalogue has a newer version', async () => {
    const old = await t.call<App>('POST', '/apps/store', { id: 'com.lumenco.lights', channel: 'stable', version: '3.2.1' });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({
      version: '3.2.1',
      origin: 'appstore',
      author: { name: 'Lumen & Co', email: 'developers@lumenco.example' },
    });
    expect(old.body.updateAvailable).toEqual({ version: '3.3.0', permissions: ['homey:wireless:zigbee'] });
    expect(catalogueCalls.at(-1)).toContain(`secret=${t.hub.context.config.id}`);
    // The app's code comes from the hub's package of it, so its drivers are the package's (the code was written for
    // them), not the catalogue's (which names a capability the hub does not know).
    const driver = await t.call<{ pair: unknown[]; capabilities: string[] }>(
      'GET',
      '/drivers/driver/homey:app:com.lumenco.lights:bulb-e27',
    );
    expect(driver.body.capabilities).toEqual([
      'onoff',
      'dim',
      'light_hue',
      'light_saturation',
      'light_temperature',
      'light_mode',
    ]);
    expect(driver.body.pair.length).toBeGreaterThan(0);
    const updated = await t.call<App>('POST', '/apps/store', { id: 'com.lumenco.lights' });
    expect(updated.body).toMatchObject({ version: '3.3.0', updateAvailable: null });
    expect((await t.call('POST', '/apps/store', { id: 'com.nordheat.climate' })).status).toBe(404);
  });

  it('answers 500 offline when the cloud cannot be reached', async () => {
    const offline = await startTestHub({ cloudUrl: 'http://127.0.0.1:9' });
    try {
      const answer = await offline.call('POST', '/apps/app/com.hearth.virtual/crashlog', { message: 'hello' });
      expect(answer.status).toBe(500);
      // Without the cloud, apps install from the hub's own catalogue folder.
      expect((await offline.call<App>('POST', '/apps/store', { id: 'com.nordheat.climate' })).body).toMatchObject({
        version: '2.0.4',
      });
      expect(answer.body).toMatchObject({ error: 'offline', statusCode: 500 });
    } finally {
      await offline.stop();
    }
    const noCloud = await startTestHub({ cloudUrl: null });
    try {
      const answer = await noCloud.call('POST', '/apps/app/com.hearth.virtual/crashlog', { message: 'hello' });
      expect(answer).toMatchObject({ status: 500, body: { error: 'offline' } });
    } finally {
      await noCloud.stop();
    }
  });
});
