import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOverDevkit } from '../../../testing/devkit';
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
  let sessionId: string;
  let deviceId: string;
  const triggers: AppTrigger[] = [];
  /** The devkit's live output events (`std` on homey:manager:devkit), as a devkit client receives them. */
  const live: Json[] = [];

  const std = async () =>
    (await t.call<{ line: string }[]>('GET', `/devkit/std/${sessionId}`)).body.map((l) => l.line).join('\n');
  const app = () => t.call<Json>('GET', `/apps/app/${APP}`);

  beforeAll(async () => {
    t = await startTestHub();
    t.hub.services.processes.cards.onTrigger((trigger) => triggers.push(trigger));
    realtime = await connectRealtime(t);
    realtime.api.on('homey:manager:devkit', (event: string, data: Json) => {
      if (event === 'std') live.push(data);
    });
    expect(await ack(realtime.api, 'subscribe', 'homey:manager:devkit')).toEqual([null]);
    ({ sessionId } = await runOverDevkit(t, fixture, { LAMP_MODE: 'test' }));
  });
  afterAll(async () => {
    realtime?.close();
    await t.stop();
  });

  it('runs the app in its own process and reports its real usage', async () => {
    const running = await until(app, (a) => a.body.state === 'running');
    expect(running.body).toMatchObject({ state: 'running', ready: true, crashed: false, origin: 'devkit_run', hasDrivers: true });
    expect(await std()).toContain('[log] [LampApp] Lamp app started');
    // The devkit client's view: each line live as a `std` event, and the recent output with the same ids.
    const started = await until(
      () => live,
      (events) => events.some((e) => String(e.chunk).includes('Lamp app started')),
    );
    const line = started.find((e) => String(e.chunk).includes('Lamp app started'));
    expect(line).toMatchObject({ session: sessionId, type: 'stdout', stream: 'stdout' });
    expect(String(line?.chunk).endsWith('Lamp app started\n')).toBe(true);
    const cached = (await t.call<Json[]>('GET', `/devkit/std/${sessionId}`)).body;
    expect(cached.find((l) => l.id === line?.id)).toEqual(line);
    // Another user of the hub does not see the session's output.
    const other = await connectRealtime(t, t.sessionFor('manager', ['homey.app']));
    const seen: Json[] = [];
    other.api.on('homey:manager:devkit', (_event: string, data: Json) => seen.push(data));
    await ack(other.api, 'subscribe', 'homey:manager:devkit');
    const before = live.length;
    await t.call('POST', `/flow/flowcardaction/${encodeURIComponent(`homey:app:${APP}`)}/blink/run`, { args: { times: 1 } });
    await until(
      () => live.length,
      (count) => count > before,
    );
    expect(live.length).toBeGreaterThan(before);
    other.close();
    expect(seen).toEqual([]);
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
    // The custom login view is served for the client to show, without a session; the app's code never is.
    const view = await fetch(`${t.url}/app/${APP}/drivers/lamp/pair/login.html`);
    expect(view.status).toBe(200);
    expect(view.headers.get('content-type')).toContain('text/html');
    expect(await view.text()).toContain("Homey.emit('login', data)");
    for (const hidden of ['app.js', 'env.json', 'drivers/lamp/device.js', 'drivers/lamp/pair/../driver.js', 'assets/../app.js']) {
      expect((await fetch(`${t.url}/app/${APP}/${hidden}`)).status, hidden).toBe(404);
    }
    expect((await fetch(`${t.url}/app/${APP}/drivers/lamp/pair/%2e%2e%2fdriver.js`)).status).toBe(404);
    const icon = await fetch(`${t.url}/app/${APP}/drivers/lamp/assets/icon.svg`);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    // The client follows the session's views live: the driver's showView arrives on the session's URI.
    const pairEvents: [string, Json][] = [];
    realtime.api.on(`homey:pairsession:${id}`, (event: string, data: Json) => pairEvents.push([event, data]));
    expect(await ack(realtime.api, 'subscribe', `homey:pairsession:${id}`)).toEqual([null]);
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
    await until(
      () => pairEvents,
      (events) => events.some(([event, data]) => event === 'showView' && data.view === 'list_devices'),
    );
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
    // The app spoke through the hub's voice, on the household's behalf.
    const speech = await t.call<{ lastUtterance: { text: string; voice: string } }>('GET', '/speech-output/state');
    expect(speech.body.lastUtterance).toMatchObject({ text: 'Blinking 3 times', voice: 'en-us-female' });
    const cards = await t.call<Json>('GET', '/flow/flowcardtrigger');
    expect(JSON.stringify(cards.body)).toContain('A lamp was switched');
  });

  it('runs the flows using its trigger card whose arguments its run listener accepts, with its action card', async () => {
    const appUri = `homey:app:${APP}`;
    const flowFor = (to: string) =>
      t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', {
        name: `Lamp switched ${to}`,
        trigger: { uri: appUri, id: 'lamp_switched', args: { to } },
        conditions: [{ uri: appUri, id: 'is_bright', args: { level: 0.4 } }],
        actions: [{ uri: appUri, id: 'blink', args: { times: to === 'on' ? 5 : 6 } }],
      });
    const [on, off] = [await flowFor('on'), await flowFor('off')];
    expect(on.body.broken).toBe(false);
    await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: false });
    await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    const trace = await until(
      () => t.call<{ status: string; trigger: { tokens: Json } }[]>('GET', `/flow/flow/${on.body.id}/trace`),
      (answer) => answer.body.length > 0 && answer.body[0]?.status === 'completed',
    );
    expect(trace.body[0]?.trigger.tokens).toEqual({ on: true });
    await until(std, (text) => text.includes('blinking 5 times'));
    const offTraces = await t.call<{ trigger: { tokens: Json } }[]>('GET', `/flow/flow/${off.body.id}/trace`);
    // Switched off first, then on: the "off" flow ran once, for the off switch only.
    expect(offTraces.body.map((run) => run.trigger.tokens)).toEqual([{ on: false }]);
  });

  it('reads the arguments of the flows using its card, and hears when they change', async () => {
    const switchFlows = async () =>
      (await (
        await fetch(`${t.url}/api/app/${APP}/switch-flows`, { headers: { authorization: `Bearer ${t.token}` } })
      ).json()) as { values: Json[]; updates: number };
    const before = await switchFlows();
    // The flows of the test before: one for 'on', one for 'off'.
    expect(before.values).toEqual(expect.arrayContaining([{ to: 'on' }, { to: 'off' }]));
    const flow = await t.call<{ id: string }>('POST', '/flow/flow', {
      name: 'Lamp switched on again',
      trigger: { uri: `homey:app:${APP}`, id: 'lamp_switched', args: { to: 'on' } },
      conditions: [],
      actions: [],
    });
    const added = await until(switchFlows, (answer) => answer.updates > before.updates);
    expect(added.values.filter((args) => args.to === 'on')).toHaveLength(2);
    await t.call('DELETE', `/flow/flow/${flow.body.id}`);
    const removed = await until(switchFlows, (answer) => answer.updates > added.updates);
    expect(removed.values).toHaveLength(before.values.length);
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
    // Without a session, an unknown route and an app that is not installed answer alike, before any 404.
    expect((await fetch(`${t.url}/api/app/${APP}/nowhere`)).status).toBe(401);
    expect((await fetch(`${t.url}/api/app/com.example.absent/status`)).status).toBe(401);
    const authorised = { headers: { authorization: `Bearer ${t.token}` } };
    expect((await fetch(`${t.url}/api/app/${APP}/nowhere`, authorised)).status).toBe(404);
    expect((await fetch(`${t.url}/api/app/com.example.absent/status`, authorised)).status).toBe(404);
    // The lamp does not hold homey:manager:api: the hub gives it no token to act as the owner with.
    const zones = await fetch(`${t.url}/api/app/${APP}/hub-zones`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(zones.status).toBe(502);
    expect(await zones.json()).toMatchObject({
      error: 'app_error',
      error_description: `App ${APP} needs the homey:manager:api permission to use the hub's web API`,
    });
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
