import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, type CoreHubAPI, HubAPI } from '../node';
import { type RunningHub, startRealHub } from '../testing/servers';

// The hub's lamp test app: code written against the public SDK, with a public and a session-only route.
const lampDir = join(dirname(fileURLToPath(import.meta.url)), '../../../hub/src/managers/apps/process/fixtures/com.test.lamp');

describe('HubAPI.callAppApi', () => {
  let hub: RunningHub;
  let api: CoreHubAPI;

  beforeAll(async () => {
    hub = await startRealHub();
    const { apps } = hub.hub.services;
    const manifest = JSON.parse(readFileSync(join(lampDir, 'app.json'), 'utf8'));
    manifest.drivers = manifest.drivers.map((d: Record<string, unknown>) => ({ connectivity: [], ...d }));
    apps.install({ dir: lampDir, manifest, builtin: false }, 'devkit_install', 'alpha');
    for (let i = 0; i < 500 && !apps.isRunning('com.test.lamp'); i++) await new Promise((r) => setTimeout(r, 10));
    api = await HubAPI.local({ address: hub.url, token: hub.token });
  });
  afterAll(async () => {
    await hub.stop();
  });

  it("calls an app's routes and carries its answer, its refusals and the session", async () => {
    await expect(api.callAppApi('com.test.lamp', 'GET', '/status')).resolves.toEqual({ lamps: 0, mode: null });
    await expect(api.callAppApi('com.test.lamp', 'POST', '/mode/eco', { note: 'from the client' })).resolves.toEqual({
      mode: 'eco',
      note: 'from the client',
    });
    await expect(api.callAppApi('com.test.lamp', 'GET', '/status')).resolves.toEqual({ lamps: 0, mode: 'eco' });
    const missing = await api.callAppApi('com.test.lamp', 'GET', '/nowhere').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(APIError);
    expect(missing).toMatchObject({ statusCode: 404 });
  });
});
