import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postOverDevkit, runOverDevkit } from '../../testing/devkit';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'org.community.airsense');
const APP = 'org.community.airsense';
const APP_URI = `homey:app:${APP}`;

/**
 * An app written the way the ecosystem's community writes them (fixtures/org.community.airsense: no author
 * e-mail, `runtime: "nodejs"`, a driver id with capitals, a settings group without id, a token without type,
 * dropdown values with `label`, lower-case API methods, `.catch(this.error)`, a `null` value, and system
 * capabilities Hearth's own table did not have), installed unchanged over the devkit call and used for real.
 */
describe('an app in the ecosystem’s shape, over the devkit', () => {
  let t: TestHub;
  let work: string;
  let sessionId: string;
  let deviceId: string;

  const std = async () =>
    (await t.call<{ line: string }[]>('GET', `/devkit/std/${sessionId}`)).body.map((l) => l.line).join('\n');

  /** Sends the fixture with its app.json changed by `change`, as `homey app run` packs it; answers status and body. */
  async function postChanged(change: (manifest: Json) => void) {
    const dir = mkdtempSync(join(work, 'app-'));
    cpSync(fixture, dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as Json;
    change(manifest);
    writeFileSync(join(dir, 'app.json'), JSON.stringify(manifest));
    return postOverDevkit(t, dir);
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'hearth-ecosystem-app-'));
    t = await startTestHub();
    ({ sessionId } = await runOverDevkit(t, fixture));
    await untilAppRunning(t, APP);
  });
  afterAll(async () => {
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('installs unchanged and runs; a detached this.error logs instead of killing the app', async () => {
    const app = await t.call<Json>('GET', `/apps/app/${APP}`);
    expect(app.body).toMatchObject({ state: 'running', crashed: false, author: { name: 'Community Developer' } });
    const output = await until(std, (text) => text.includes('AirSense has been initialized'));
    expect(output).toContain('[err] [AirSenseApp] Error: The station lookup is not available offline');
    // Timers taken off this.homey work detached: the cleared one never runs.
    expect(await until(std, (text) => text.includes('first poll done'))).not.toContain('never polled');
  });

  it('pairs a device with the capabilities, units and settings the ecosystem defines', async () => {
    deviceId = await pairDevice(t, `${APP_URI}:LivingRoomSensor`);
    const device = await until(
      () => t.call<{ capabilitiesObj: Record<string, Json>; settings: Json }>('GET', `/devices/device/${deviceId}`),
      (d) => d.body.capabilitiesObj?.alarm_co?.value === false,
    );
    const caps = device.body.capabilitiesObj;
    expect(caps.measure_pm25).toMatchObject({ type: 'number', title: 'PM2.5', units: 'μg/m³', value: 12.5, setable: false });
    // The driver's capabilitiesOptions apply over the catalogue's entry.
    expect(caps.meter_gas).toMatchObject({ units: 'm³', min: 0, decimals: 1, value: 1234.5 });
    expect(caps.alarm_co).toMatchObject({ type: 'boolean', title: 'Carbon monoxide alarm', value: false });
    // The device said it does not know its CO level yet: null, the ecosystem's "unknown", not an error.
    expect(caps.measure_co).toMatchObject({ units: 'ppm', value: null });
    expect(caps.fan_speed).toMatchObject({ min: 0, max: 1, setable: true });
    // The settings of the group are the device's settings, with their defaults.
    expect(device.body.settings).toMatchObject({ interval: 60, station: 'living-room' });
    const output = await std();
    expect(output).toContain('interval 60 station living-room');
    expect(output).not.toContain('does not accept null');
    // They are checked against their declarations inside the group.
    const tooOften = await t.call<Json>('PUT', `/devices/device/${deviceId}/settings`, { interval: 5 });
    expect(tooOften).toMatchObject({ status: 400, body: { error: 'invalid_parameter' } });
    expect(String(tooOften.body.error_description)).toContain('settings.interval');
    const fine = await t.call<Json>('PUT', `/devices/device/${deviceId}/settings`, { interval: 120 });
    expect(fine.status).toBe(200);
    expect((await t.call<{ settings: Json }>('GET', `/devices/device/${deviceId}`)).body.settings).toMatchObject({
      interval: 120,
    });
  });

  it('writes a setable capability of the catalogue to the app’s listener', async () => {
    const write = await t.call('PUT', `/devices/device/${deviceId}/capability/fan_speed`, { value: 0.4 });
    expect(write.status).toBe(204);
    await until(std, (text) => text.includes('fan speed set to 0.4'));
    const refused = await t.call<Json>('PUT', `/devices/device/${deviceId}/capability/fan_speed`, { value: 1.5 });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_parameter' } });
  });

  it('runs flows on the new capabilities’ cards and the app’s own cards, through its lower-case web API', async () => {
    const flow = await t.call<{ id: string; broken: boolean }>('POST', '/flow/flow', {
      name: 'CO alarm: boost the fan',
      trigger: { uri: `homey:device:${deviceId}`, id: 'alarm_co_true' },
      conditions: [{ uri: `homey:device:${deviceId}`, id: 'measure_pm25_greater_than', args: { value: 20 } }],
      actions: [{ uri: APP_URI, id: 'set_fan_mode', args: { mode: 'boost' } }],
    });
    expect(flow.body.broken).toBe(false);
    // The app's dropdown values, named with label in its manifest, reach clients with their titles.
    const action = await t.call<{ args: { values?: Json[] }[] }>(
      'GET',
      `/flow/flowcardaction/${encodeURIComponent(APP_URI)}/set_fan_mode`,
    );
    expect(action.body.args[0]?.values).toEqual([
      { id: 'eco', title: 'Eco' },
      { id: 'boost', title: 'Boost' },
    ]);
    // Its trigger's token was declared without a type: a string token.
    const trigger = await t.call<{ tokens: Json[] }>('GET', `/flow/flowcardtrigger/${encodeURIComponent(APP_URI)}/air_report`);
    expect(trigger.body.tokens).toEqual([expect.objectContaining({ id: 'summary', type: 'string' })]);

    const reading = await fetch(`${t.url}/api/app/${APP}/reading`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pm25: 35, co: true }),
    });
    expect(reading.status).toBe(200);
    const traces = await until(
      () => t.call<{ status: string }[]>('GET', `/flow/flow/${flow.body.id}/trace`),
      (answer) => answer.body[0]?.status === 'completed',
    );
    expect(traces.body).toHaveLength(1);
    await until(std, (text) => text.includes('fan mode is now boost'));
    const status = await fetch(`${t.url}/api/app/${APP}/status`);
    expect(await status.json()).toEqual({ fanMode: 'boost', sensors: 1 });
    // The catalogue's condition on a new capability answers from the device's value.
    const pm = await t.call<Json>(
      'POST',
      `/flow/flowcardcondition/${encodeURIComponent(`homey:device:${deviceId}`)}/measure_pm25_less_than/run`,
      { args: { value: 40 } },
    );
    expect(pm.body).toMatchObject({ result: true });
  });

  it('still refuses a manifest that is really wrong, naming the field, and installs nothing', async () => {
    const cases: [(manifest: Json) => void, RegExp][] = [
      [
        (m) => {
          const [driver] = m.drivers as Json[];
          (driver as Json).capabilities = ['measure_teleportation'];
        },
        /drivers\/LivingRoomSensor: unknown capability measure_teleportation/,
      ],
      [
        (m) => {
          const [driver] = m.drivers as Json[];
          (driver as Json).settings = [{ type: 'group', label: { en: 'Polling' }, children: [{ type: 'number', label: 'x' }] }];
        },
        /settings\/0\/children\/0\/id/,
      ],
      [
        (m) => {
          const [driver] = m.drivers as Json[];
          (driver as Json).class = 'teleporter';
        },
        /drivers\/LivingRoomSensor\/class: teleporter is not a device class of the ecosystem/,
      ],
      [
        (m) => {
          m.api = { getStatus: { method: 'patch', path: '/status' } };
        },
        /api\.getStatus\.method/,
      ],
      [
        (m) => {
          m.author = { email: 'someone@example.test' };
        },
        /author\.name is required/,
      ],
    ];
    await t.call('DELETE', `/devkit/${sessionId}`);
    for (const [change, field] of cases) {
      const answer = await postChanged(change);
      expect(answer.status, String(field)).toBe(400);
      expect(answer.body.error).toBe('invalid_parameter');
      expect(String(answer.body.error_description)).toMatch(field);
      expect((await t.call('GET', `/apps/app/${APP}`)).status).toBe(404);
    }
  });
});
