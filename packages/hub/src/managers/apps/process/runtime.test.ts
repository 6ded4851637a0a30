import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../../testing/hub';
import { ack, connectRealtime, type Realtime } from '../../../testing/socket';
import { until } from '../../../testing/until';
import type { AppTrigger } from './flow-cards';

type Json = Record<string, unknown>;
const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.lamp');
const APP = 'com.test.lamp';
const DRIVER = `homey:app:${APP}:lamp`;

/**
 * The whole path of an app written against the public SDK, through real HTTP and socket.io: installed over the
 * devkit call as an archive, run in its own process, paired with a custom view and list_devices, switched, its
 * values reported, its flow cards run, its web API and settings used, crashed and brought back, uninstalled.
 */
describe('an app with code on a hub', () => {
  let t: TestHub;
  let realtime: Realtime;
  let work: string;
  let sessionId: string;
  let deviceId: string;
  const triggers: AppTrigger[] = [];

  const std = async () =>
    (await t.call<{ line: string }[]>('GET', `/devkit/std/${sessionId}`)).body.map((l) => l.line).join('\n');
  const app = () => t.call<Json>('GET', `/apps/app/${APP}`);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'hearth-lamp-'));
    t = await startTestHub();
    t.hub.services.processes.cards.onTrigger((trigger) => triggers.push(trigger));
    realtime = await connectRealtime(t);
    const file = join(work, 'app.tar.gz');
    await createTar({ gzip: true, cwd: fixture, file, portable: true }, readdirSync(fixture));
    const form = new FormData();
    form.append('app', new Blob([new Uint8Array(readFileSync(file))], { type: 'application/gzip' }), 'app.tar.gz');
    form.append('env', JSON.stringify({ LAMP_MODE: 'test' }));
    const response = await fetch(`${t.url}/api/manager/devkit/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    expect(response.status).toBe(200);
    sessionId = ((await response.json()) as { sessionId: string }).sessionId;
  });
  afterAll(async () => {
    realtime?.close();
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('runs the app in its own process and reports its real usage', async () => {
    const running = await until(app, (a) => a.body.state === 'running');
    expect(running.body).toMatchObject({ state: 'running', ready: true, crashed: false, origin: 'devkit_run', hasDrivers: true });
    expect(await std()).toContain('[log] [LampApp] Lamp app started');
    const usage = await t.call<{ cpu: number; mem: number }>('GET', `/apps/app/${APP}/usage`);
    expect(usage.body.mem).toBeGreaterThan(20 * 1024 * 1024);
    expect(usage.body.mem).toBeLessThan(200 * 1024 * 1024);
    expect(typeof usage.body.cpu).toBe('number');
    const gc = await t.call<{ mem: number }>('POST', `/apps/app/${APP}/gc`);
    expect(gc.status).toBe(200);
    expect(gc.body.mem).toBeGreaterThan(0);
  });

  it("pairs through the driver's custom login view and list_devices", async () => {
    const session = await t.call<Json>('POST', '/drivers/pairsession', { type: 'pair', driverId: DRIVER });
    expect(session.body).toMatchObject({ type: 'pair' });
    const id = String(session.body.id);
    expect((await t.call<Json[]>('GET', '/drivers/pairsession')).body.map((s) => s.id)).toContain(id);
    const early = await t.call<Json>('POST', `/drivers/pairsession/${id}/emit`, { event: 'list_devices' });
    expect(early).toMatchObject({ status: 502, body: { error: 'app_error', error_description: 'Log in first' } });
    const wrong = await t.call<Json>('POST', `/drivers/pairsession/${id}/emit`, {
      event: 'login',
      data: { username: 'ada', password: 'nope' },
    });
    expect(wrong.body).toMatchObject({ error: 'app_error', error_description: 'Wrong password' });
    const login = await t.call<Json>('POST', `/drivers/pairsession/${id}/emit`, {
      event: 'login',
      data: { username: 'ada', password: 'secret' },
    });
    expect(login).toMatchObject({ status: 200, body: { welcome: 'ada' } });
    // The driver moved the views on (session.showView).
    expect((await t.call<Json>('GET', `/drivers/pairsession/${id}`)).body).toMatchObject({ view: 'list_devices' });
    const list = await t.call<Json[]>('POST', `/drivers/pairsession/${id}/emit`, { event: 'list_devices' });
    expect(list.body).toEqual([{ name: 'Desk lamp', data: { id: 'desk' }, store: { serial: 'L-1' } }]);
    const added = await t.call<Json>('POST', `/drivers/pairsession/${id}/device`, list.body[0]);
    expect(added.body).toMatchObject({ name: 'Desk lamp' });
    deviceId = String(added.body.id);
    // onAdded ran in the app before the answer, and reported a value.
    expect(added.body).toMatchObject({ name: 'Desk lamp', driverId: DRIVER, available: true });
    expect((added.body.capabilitiesObj as Record<string, Json>).dim?.value).toBe(0.5);
    expect(await std()).toContain('added Desk lamp serial L-1');
    expect((await t.call('DELETE', `/drivers/pairsession/${id}`)).status).toBe(204);
  });

  it('carries writes to the listener, stores only confirmed values, and publishes what the app reports', async () => {
    const events: [string, Json][] = [];
    realtime.api.on(`homey:device:${deviceId}`, (event: string, data: Json) => events.push([event, data]));
    expect(await ack(realtime.api, 'subscribe', `homey:device:${deviceId}`)).toEqual([null]);
    const on = await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true, transactionId: 'lamp-on' });
    expect(on.status).toBe(204);
    expect(await std()).toContain('switching Desk lamp on');
    // The value the app reported itself (measure_power) arrives over the socket, as does the confirmed write.
    await until(
      () => events,
      (e) => e.some(([name, data]) => name === 'capability' && data.capabilityId === 'measure_power' && data.value === 8.5),
    );
    expect(events.some(([name, data]) => name === 'capability' && data.transactionId === 'lamp-on' && data.value === true)).toBe(
      true,
    );
    const refused = await t.call<Json>('PUT', `/devices/device/${deviceId}/capability/dim`, { value: 0.95 });
    expect(refused).toMatchObject({
      status: 502,
      body: { error: 'app_error', error_description: 'Too bright for this lamp' },
    });
    const device = await t.call<{ capabilitiesObj: Record<string, Json> }>('GET', `/devices/device/${deviceId}`);
    expect(device.body.capabilitiesObj.onoff?.value).toBe(true);
    expect(device.body.capabilitiesObj.dim?.value).toBe(0.5);
    expect(device.body.capabilitiesObj.measure_power?.value).toBe(8.5);
    // Insights logged the app's report.
    const log = await t.call<Json>('GET', `/insights/log/homey:device:${deviceId}:measure_power`);
    expect(log.body).toMatchObject({ lastValue: 8.5 });
    const entries = await t.call<{ values: { v: number }[] }>(
      'GET',
      `/insights/log/homey:device:${deviceId}/measure_power/entry`,
    );
    expect(entries.body.values.length).toBeGreaterThan(0);
  });

  it('fires its trigger card (filtered by its run listener) and answers condition and action cards', async () => {
    const fired = await until(
      () => triggers,
      (list) => list.length > 0,
    );
    expect(fired[0]).toMatchObject({ uri: `homey:app:${APP}`, id: 'lamp_switched', tokens: { on: true }, state: { to: 'on' } });
    await expect(fired[0]?.matches({ to: 'on' })).resolves.toBe(true);
    await expect(fired[0]?.matches({ to: 'off' })).resolves.toBe(false);
    const uri = encodeURIComponent(`homey:app:${APP}`);
    const bright = await t.call<Json>('POST', `/flow/flowcardcondition/${uri}/is_bright/run`, { args: { level: 0.4 } });
    expect(bright).toMatchObject({ status: 200, body: { result: true } });
    const dim = await t.call<Json>('POST', `/flow/flowcardcondition/${uri}/is_bright/run`, { args: { level: 0.8 } });
    expect(dim.body).toMatchObject({ result: false });
    const blink = await t.call<Json>('POST', `/flow/flowcardaction/${uri}/blink/run`, { args: { times: 3 } });
    expect(blink.status).toBe(200);
    expect(await std()).toContain('blinking 3 times');
    const cards = await t.call<Json>('GET', '/flow/flowcardtrigger');
    expect(JSON.stringify(cards.body)).toContain('A lamp was switched');
  });

  it('serves its web API and keeps settings in step both ways', async () => {
    const status = await fetch(`${t.url}/api/app/${APP}/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ lamps: 1, mode: null });
    const anonymous = await fetch(`${t.url}/api/app/${APP}/mode/eco`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const readonly = t.sessionFor('owner', ['homey.app.readonly']);
    const limited = await fetch(`${t.url}/api/app/${APP}/mode/eco`, {
      method: 'POST',
      headers: { authorization: `Bearer ${readonly}` },
    });
    expect(((await limited.json()) as Json).error).toBe('missing_scopes');
    const mode = await fetch(`${t.url}/api/app/${APP}/mode/eco`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'evening' }),
    });
    expect(await mode.json()).toEqual({ mode: 'eco', note: 'evening' });
    expect((await t.call('GET', `/apps/app/${APP}/setting/mode`)).body).toBe('eco');
    expect((await fetch(`${t.url}/api/app/${APP}/nowhere`)).status).toBe(404);
    // A change made through the hub's API reaches the app's settings and its `set` event.
    expect((await t.call('PUT', `/apps/app/${APP}/setting/mode`, { value: 'party' })).status).toBe(200);
    await until(std, (text) => text.includes('setting mode is now "party"'));
    expect(await (await fetch(`${t.url}/api/app/${APP}/status`)).json()).toEqual({ lamps: 1, mode: 'party' });
  });

  it('is marked crashed with its message, comes back after the back-off, and is uninstalled with its data', async () => {
    const userdata = t.hub.services.processes.host.userdataDir(APP);
    expect(existsSync(userdata)).toBe(true);
    await fetch(`${t.url}/api/app/${APP}/crash`, { method: 'POST', headers: { authorization: `Bearer ${t.token}` } });
    const crashed = await until(app, (a) => a.body.crashed === true);
    expect(crashed.body).toMatchObject({
      crashed: true,
      crashedMessage: 'Lamp app crashed on request',
      exitCode: 1,
      exitCount: 1,
    });
    const device = await t.call<Json>('GET', `/devices/device/${deviceId}`);
    expect(device.body).toMatchObject({ available: false, unavailableMessage: 'Lamp test is not running' });
    const back = await until(app, (a) => a.body.state === 'running', 10_000);
    expect(back.body).toMatchObject({ state: 'running', crashed: false, exitCount: 1 });
    expect((await t.call<Json>('GET', `/devices/device/${deviceId}`)).body.available).toBe(true);
    expect((await t.call('DELETE', `/apps/app/${APP}?purgeSettings=true`)).status).toBe(204);
    expect((await app()).status).toBe(404);
    expect((await t.call('GET', `/devices/device/${deviceId}`)).status).toBe(404);
    await until(
      () => existsSync(userdata),
      (exists) => !exists,
    );
    expect(existsSync(userdata)).toBe(false);
  });
});
