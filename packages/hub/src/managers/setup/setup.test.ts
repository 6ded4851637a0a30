import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudCall as callCloud, cloudToken, startEmbeddedCloud } from '../../testing/cloud';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

const SECRET = 'hub-setup-test-internal-secret';
const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers of the cloud
type Json = Record<string, any>;

describe('setting a fresh hub up through a cloud setup session, restoring a backup', () => {
  let cloud: Cloud;
  let appToken: string;
  let userId: string;
  const root = mkdtempSync(join(tmpdir(), 'hearth-setup-'));
  const original = { id: randomBytes(12).toString('hex'), dir: join(root, 'original') };
  const fresh = { id: randomBytes(12).toString('hex'), dir: join(root, 'fresh') };
  let hub: TestHub;

  /** A call of the app (the demo account's token) or of anyone else to the cloud. */
  const cloudCall = (method: string, path: string, token: string | null, body?: unknown) =>
    callCloud(cloud, method, path, token, body);
  const tokenOf = (fields: Record<string, string>, client: string) => cloudToken(cloud, fields, client);

  /** The session's state once the hub reported it done (it gets there after the restart its reset needs). */
  type SessionCall = (method: string, suffix: string) => Promise<{ body: Json }>;
  const untilDone = (app: SessionCall) =>
    until(
      async () => (await app('GET', '/state')).body.state,
      (state) => state === 'done',
      10_000,
    );

  const linkedHub = (id: string, dataDir: string, name: string) =>
    startTestHub({ id, name, dataDir, cloudUrl: cloud.url, cloudClientSecret: SECRET });

  /** What a restore must carry over, by id and name. */
  async function household(t: TestHub) {
    const names = async (path: string, field: 'name' | 'role' = 'name') =>
      Object.values((await t.call<Record<string, { id: string; name: string; role: string }>>('GET', path)).body)
        .map((item) => `${item.id} ${item[field]}`)
        .sort();
    return {
      zones: await names('/zones/zone'),
      devices: await names('/devices/device'),
      flows: await names('/flow/flow'),
      variables: await names('/logic/variable'),
      // By role: signing the owner in gives them the account's name.
      users: await names('/users/user', 'role'),
    };
  }

  beforeAll(async () => {
    // The demo world gives the demo account and the app's client; its own hubs are not these. Without hubs of its
    // own the demo account's Premium is for all its hubs: their backups are kept in the cloud.
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET, demoHubs: [] });
    appToken = await tokenOf(
      { grant_type: 'password', username: 'demo@hearth.test', password: 'hearth-demo-password' },
      'hearth-demo:hearth-demo-secret',
    );
    userId = (await cloudCall('GET', '/cloud/user/me', appToken)).body._id;
    mkdirSync(original.dir);
    mkdirSync(fresh.dir);
    hub = await linkedHub(original.id, original.dir, 'Original');
    expect(await hub.hub.cloudRegistration).toBe(true);
    const provider = await tokenOf({ grant_type: 'client_credentials' }, `hearth-internal:${SECRET}`);
    expect((await cloudCall('POST', `/cloud/homey/${original.id}/activate`, provider, { userId })).status).toBe(200);
  });
  afterAll(async () => {
    await hub?.stop();
    await cloud?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('joins the app’s session, answers its commands, is signed in, claimed, named and restored from the backup', async () => {
    // The household of the hub being replaced, backed up to its owner's cloud backups.
    const zones = await hub.call<Record<string, { id: string; parent: string | null }>>('GET', '/zones/zone');
    const home = Object.values(zones.body).find((zone) => zone.parent === null)?.id;
    const kitchen = await hub.call<{ id: string }>('POST', '/zones/zone', { name: 'Kitchen', icon: 'kitchen', parent: home });
    await untilAppRunning(hub);
    const light = await pairDevice(hub, LIGHT, { zoneId: kitchen.body.id });
    const flow = await hub.call('POST', '/flow/flow', {
      name: 'Evening lights',
      trigger: { uri: `homey:device:${light}`, id: 'onoff_true' },
      conditions: [],
      actions: [{ uri: `homey:device:${light}`, id: 'dim_set', args: { value: 0.4 } }],
    });
    expect(flow.status).toBe(200);
    expect((await hub.call('POST', '/logic/variable', { name: 'Guests', type: 'number', value: 3 })).status).toBe(200);
    expect((await hub.call('POST', '/users/user', { name: 'Sam', role: 'user' })).status).toBe(200);
    const before = await household(hub);
    const backup = await hub.call<{ cloudBackupId: string | null; cloudError: string | null }>('POST', '/backup/backup');
    expect(backup.body.cloudError).toBeNull();
    const backupId = backup.body.cloudBackupId as string;

    // A fresh hub starts: registered with the cloud, nobody owns it; it tells the app its claim token.
    let freshHub = await linkedHub(fresh.id, fresh.dir, 'Fresh');
    expect(await freshHub.hub.cloudRegistration).toBe(true);
    const claimToken = freshHub.hub.cloudClaimToken() as string;
    expect(claimToken).toEqual(expect.any(String));

    // The app opens a session and hands its hub token to the hub, which joins.
    const session = await cloudCall('POST', '/setup/', appToken, { sn: 'HRT-FRESH' });
    expect(session.status).toBe(201);
    const sessionPath = `/setup/${session.body._id}`;
    const app = (method: string, suffix: string, body?: unknown) => cloudCall(method, `${sessionPath}${suffix}`, appToken, body);
    const refused = await freshHub.call<Json>('POST', '/setup/session', { sessionId: session.body._id, token: 'not-its-token' });
    expect(refused.status).toBe(403);
    expect((await freshHub.call<Json>('GET', '/setup/state')).body.sessionId).toBeNull();
    const joined = await freshHub.call<Json>('POST', '/setup/session', {
      sessionId: session.body._id,
      token: session.body.hubToken,
    });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ sessionId: session.body._id, state: 'homey_connected', lastError: null });
    expect((await app('GET', '')).body).toMatchObject({ state: 'homey_connected', homeyId: fresh.id });

    // The app's commands reach the hub and come back answered.
    const info = await app('POST', '/command', { manager: 'system', command: 'getInfo' });
    const unknown = await app('POST', '/command', { manager: 'system', command: 'selfDestruct' });
    const answered = await until(
      async () => (await app('GET', '/command')).body as unknown as Json[],
      (commands) => commands.every((command) => command.result !== null),
    );
    expect(answered.find((c) => c._id === info.body._id)?.result).toEqual([
      null,
      expect.objectContaining({ id: fresh.id, name: 'Fresh', owned: false }),
    ]);
    expect(answered.find((c) => c._id === unknown.body._id)?.result).toEqual([
      { code: 'not_found', message: 'Unknown setup command: system.selfDestruct' },
    ]);

    // The app picks a language, a time zone and the backup to restore.
    expect((await app('GET', '/voice?language=en')).body.text).toContain('Hearth');
    expect((await cloudCall('GET', '/setup/timezone', appToken)).body.timezone).toBe('UTC');
    const backups = (await app('GET', '/backup')).body as unknown as Json[];
    expect(backups.map((b) => b._id)).toContain(backupId);

    // Sign-in with the account's delegation token, then the reset: claimed, named, restored.
    const delegation = (await cloudCall('POST', '/cloud/delegation/token?audience=homey', appToken, {}))
      .body as unknown as string;
    expect((await app('POST', '/login-token', { data: { token: delegation } })).body.state).toBe('signed_in');
    const reset = await app('POST', '/reset', {
      data: { factoryreset: false, name: 'Living room', token: claimToken, extraProperties: { backupId } },
    });
    expect(reset.body.state, JSON.stringify(reset.body)).toBe('configured');
    // The hub stages the restore and asks to restart; the session waits for it.
    expect(await freshHub.hub.restartRequested).toContain(backupId);
    expect((await app('GET', '/state')).body.state).toBe('configured');
    await freshHub.stop();

    freshHub = await linkedHub(fresh.id, fresh.dir, 'Fresh');
    try {
      expect(freshHub.hub.restored?.backupId).toBe(backupId);
      expect(await untilDone(app)).toBe('done');
      expect((await freshHub.call<Json>('GET', '/setup/state')).body).toMatchObject({ sessionId: null, state: 'done' });
      // The restored hub has the original's household, keeps its own id and takes the name the app gave it.
      expect(freshHub.hub.context.config.id).toBe(fresh.id);
      expect(await household(freshHub)).toEqual(before);
      expect((await freshHub.call<Json>('GET', '/system/name')).body).toBe('Living room');
      const users = Object.values((await freshHub.call<Record<string, Json>>('GET', '/users/user')).body);
      expect(users.find((user) => user.role === 'owner')).toMatchObject({ athomId: userId, name: 'Dana Demo' });
      // The cloud has it as the account's hub, named as the app asked; the account signs in to it.
      const record = await cloudCall('GET', `/cloud/homey/${fresh.id}`, appToken);
      expect(record.body).toMatchObject({ name: 'Living room', state: 'activated' });
      const login = await fetch(`${freshHub.url}/api/manager/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          token: (await cloudCall('POST', '/cloud/delegation/token?audience=homey', appToken, {})).body,
        }),
      });
      expect(login.status).toBe(200);
    } finally {
      await freshHub.stop();
    }
  });
  it('starts afresh on a factory reset, then takes the language and time zone the app picked', async () => {
    const other = { id: randomBytes(12).toString('hex'), dir: join(root, 'factory') };
    mkdirSync(other.dir);
    let resetHub = await linkedHub(other.id, other.dir, 'Second hand');
    try {
      expect(await resetHub.hub.cloudRegistration).toBe(true);
      const claimToken = resetHub.hub.cloudClaimToken() as string;
      // What the previous household left on it.
      const zones = await resetHub.call<Record<string, Json>>('GET', '/zones/zone');
      const home = Object.values(zones.body).find((zone) => zone.parent === null)?.id;
      const attic = await resetHub.call<{ id: string }>('POST', '/zones/zone', { name: 'Attic', icon: 'attic', parent: home });
      expect(attic.status).toBe(200);
      expect((await resetHub.call('POST', '/logic/variable', { name: 'Old', type: 'boolean', value: true })).status).toBe(200);

      const session = await cloudCall('POST', '/setup/', appToken, { sn: 'HRT-SECOND' });
      const app = (method: string, suffix: string, body?: unknown) =>
        cloudCall(method, `/setup/${session.body._id}${suffix}`, appToken, body);
      const joined = await resetHub.call<Json>('POST', '/setup/session', {
        sessionId: session.body._id,
        token: session.body.hubToken,
      });
      expect(joined.body).toMatchObject({ state: 'homey_connected', resetting: false });
      const delegation = (await cloudCall('POST', '/cloud/delegation/token?audience=homey', appToken, {})).body;
      expect((await app('POST', '/login-token', { data: { token: delegation } })).body.state).toBe('signed_in');

      // A zone the time zone database does not know is refused before anything is claimed or recorded.
      const unknownZone = await app('POST', '/reset', {
        data: { factoryreset: true, token: claimToken, extraProperties: { timezone: 'Mars/Olympus_Mons' } },
      });
      expect(unknownZone.status).toBe(400);
      expect(unknownZone.body.error).toBe('invalid_parameter');
      const badLanguage = await app('POST', '/reset', {
        data: { factoryreset: true, token: claimToken, extraProperties: { language: 'Dutch' } },
      });
      expect(badLanguage.status).toBe(400);
      expect((await app('GET', '/state')).body.state).toBe('signed_in');
      expect((await cloudCall('GET', `/cloud/homey/${other.id}`, appToken)).status).toBe(404);

      const reset = await app('POST', '/reset', {
        data: {
          factoryreset: true,
          name: 'Study',
          token: claimToken,
          extraProperties: { language: 'nl', timezone: 'Pacific/Auckland' },
        },
      });
      expect(reset.body.state, JSON.stringify(reset.body)).toBe('configured');
      expect(await resetHub.hub.restartRequested).toContain('factory reset');
      expect((await resetHub.call<Json>('GET', '/setup/state')).body).toMatchObject({ resetting: true });
      expect((await app('GET', '/state')).body.state).toBe('configured');
      await resetHub.stop();

      resetHub = await linkedHub(other.id, other.dir, 'Second hand');
      expect(await untilDone(app)).toBe('done');
      // Nothing of the previous household is left; the hub has the name, language and zone the app gave it.
      const afresh = Object.values((await resetHub.call<Record<string, Json>>('GET', '/zones/zone')).body);
      expect(afresh.map((zone) => zone.name)).not.toContain('Attic');
      expect(afresh.find((zone) => zone.id === attic.body.id)).toBeUndefined();
      expect(Object.keys((await resetHub.call<Json>('GET', '/logic/variable')).body)).toEqual([]);
      expect((await resetHub.call<Json>('GET', '/system/name')).body).toBe('Study');
      expect((await resetHub.call<Json>('GET', '/i18n/option/language')).body).toEqual({ value: 'nl' });
      expect((await resetHub.call<Json>('GET', '/i18n/option/timezone')).body).toEqual({ value: 'Pacific/Auckland' });
      expect((await resetHub.call<Json>('GET', '/setup/state')).body).toMatchObject({ sessionId: null, resetting: false });
      // The fresh hub's owner is the account that set it up.
      const users = Object.values((await resetHub.call<Record<string, Json>>('GET', '/users/user')).body);
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ role: 'owner', athomId: userId });
      expect((await cloudCall('GET', `/cloud/homey/${other.id}`, appToken)).body).toMatchObject({ name: 'Study' });
    } finally {
      await resetHub.stop();
    }
  });
});
