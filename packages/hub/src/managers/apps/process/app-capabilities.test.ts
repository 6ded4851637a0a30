import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWithAppDevice, runOverDevkit } from '../../../testing/devkit';
import type { TestHub } from '../../../testing/hub';
import { until } from '../../../testing/until';

type Json = Record<string, unknown>;
interface Capability {
  value: unknown;
  type: string;
  title: string;
  setable: boolean;
  values?: { id: string; title: string }[];
  units?: string;
}

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.camera');
const APP = 'com.test.camera';

/**
 * Capabilities an app declares in its manifest, through a real app process and HTTP: its devices carry them,
 * values are checked against them and reach the app's listener, clients find them in the capability listing,
 * and they go when the app is uninstalled. A manifest declaring one badly is refused at install.
 */
describe("an app's own capabilities", () => {
  let t: TestHub;
  let deviceId: string;

  const capabilities = async () =>
    (await t.call<{ capabilitiesObj: Record<string, Capability> }>('GET', `/devices/device/${deviceId}`)).body.capabilitiesObj;
  const set = (capabilityId: string, value: unknown) =>
    t.call<Json>('PUT', `/devices/device/${deviceId}/capability/${capabilityId}`, { value });

  beforeAll(async () => {
    ({ t, deviceId } = await hubWithAppDevice(fixture, APP, 'doorbell'));
  });
  afterAll(async () => {
    await t.stop();
  });

  it("gives the app's devices its capabilities with their definitions and the values the app reports", async () => {
    const found = await until(capabilities, (c) => c.visitors_today?.value === 3);
    expect(found.chime_tone).toMatchObject({
      type: 'enum',
      title: 'Chime tone',
      setable: true,
      values: [
        { id: 'ding', title: 'Ding' },
        { id: 'dong', title: 'Dong' },
      ],
    });
    expect(found.visitors_today).toMatchObject({ type: 'number', title: 'Visitors today', setable: false, units: 'visitors' });
  });

  it('checks values against them: a valid one reaches the app and is stored, others are refused with a 400', async () => {
    expect((await set('chime_tone', 'dong')).status).toBe(204);
    expect((await capabilities()).chime_tone?.value).toBe('dong');
    const wrong = await set('chime_tone', 'buzz');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_parameter');
    const readOnly = await set('visitors_today', 4);
    expect(readOnly.status).toBe(400);
    expect(String(readOnly.body.error_description)).toContain('not setable');
  });

  it('lists them among the capabilities under the app, and drops them when the app is uninstalled', async () => {
    const listed = (await t.call<Record<string, Json>>('GET', '/devices/capability')).body;
    expect(listed[`homey:app:${APP}:chime_tone`]).toMatchObject({ id: 'chime_tone', type: 'enum', ownerUri: `homey:app:${APP}` });
    expect(listed.onoff).toMatchObject({ id: 'onoff' });
    const one = await t.call<Json>('GET', `/devices/capability/${encodeURIComponent(`homey:app:${APP}`)}/visitors_today`);
    expect(one.body).toMatchObject({ id: 'visitors_today', type: 'number', ownerUri: `homey:app:${APP}` });

    expect((await t.call('DELETE', `/apps/app/${APP}`)).status).toBe(204);
    const after = (await t.call<Record<string, Json>>('GET', '/devices/capability')).body;
    expect(after[`homey:app:${APP}:chime_tone`]).toBeUndefined();
    const gone = await t.call('GET', `/devices/capability/${encodeURIComponent(`homey:app:${APP}`)}/visitors_today`);
    expect(gone.status).toBe(404);
  });

  it('refuses at install a manifest whose capability is declared badly, naming the field', async () => {
    const work = mkdtempSync(join(tmpdir(), 'hearth-capabilities-'));
    try {
      cpSync(fixture, work, { recursive: true });
      const manifest = JSON.parse(readFileSync(join(work, 'app.json'), 'utf8')) as Json;
      (manifest.capabilities as Record<string, Json>).chime_tone = { type: 'enum', title: 'Chime tone' };
      writeFileSync(join(work, 'app.json'), JSON.stringify(manifest));
      await expect(runOverDevkit(t, work)).rejects.toThrow('/capabilities/chime_tone/values: an enum capability needs values');
      (manifest.capabilities as Record<string, Json>).chime_tone = { type: 'colour', title: 'Chime tone' };
      writeFileSync(join(work, 'app.json'), JSON.stringify(manifest));
      await expect(runOverDevkit(t, work)).rejects.toThrow('/capabilities/chime_tone/type');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
