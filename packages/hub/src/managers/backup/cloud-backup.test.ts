import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cloud } from '@hearth/cloud';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyInStore, signInWithPassword, startEmbeddedCloud } from '../../testing/cloud';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { appsDirectory } from './archive';
import { stagedRestoreDirectory } from './restore';

const SECRET = 'hub-backup-test-internal-secret';
const LIGHT = 'homey:app:com.hearth.virtual:zigbee';

/** Calls the cloud with a token of the provider's internal client. */
async function internal(cloud: Cloud, method: string, path: string, body?: unknown) {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  const tokenAnswer = await fetch(`${cloud.url}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`hearth-internal:${SECRET}`).toString('base64')}`,
    },
    body: form.toString(),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const answer = await fetch(`${cloud.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json().catch(() => undefined)) as Record<string, unknown> };
}

/** A hub linked to the cloud with the internal client's secret, keeping its data in `dataDir` between starts. */
async function linkedHub(cloud: Cloud, id: string, dataDir: string, name: string) {
  const t = await startTestHub({ id, name, dataDir, cloudUrl: cloud.url, cloudClientSecret: SECRET });
  expect(await t.hub.cloudRegistration).toBe(true);
  return t;
}

/** What a restore must carry over, by id and name. */
async function household(t: TestHub) {
  const names = async (path: string) => {
    const answer = await t.call<Record<string, { id: string; name: string }>>('GET', path);
    expect(answer.status).toBe(200);
    return Object.values(answer.body)
      .map((item) => `${item.id} ${item.name}`)
      .sort();
  };
  return {
    zones: await names('/zones/zone'),
    devices: await names('/devices/device'),
    flows: await names('/flow/flow'),
    variables: await names('/logic/variable'),
    users: await names('/users/user'),
  };
}

describe('backups to the cloud and restoring one on another hub', () => {
  let cloud: Cloud;
  let userId: string;
  const root = mkdtempSync(join(tmpdir(), 'hearth-cloud-backup-'));
  const original = { id: randomBytes(12).toString('hex'), dir: join(root, 'original') };
  const replacement = { id: randomBytes(12).toString('hex'), dir: join(root, 'replacement') };
  let hub: TestHub;

  beforeAll(async () => {
    // The demo world (without hubs) brings the app client the owner signs in to the store with.
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET, demoHubs: [] });
    const created = await internal(cloud, 'POST', '/cloud/user', {
      user: { email: 'owner@hearth.test', password: 'a-good-password-1', firstname: 'Ada', lastname: 'Owner' },
    });
    userId = created.body._id as string;
    // Keeping backups in the cloud is what Hearth Plus is for: the owner buys it in the store.
    await buyInStore(cloud, await signInWithPassword(cloud, 'owner@hearth.test', 'a-good-password-1'), 'homey_plus_1m');
    mkdirSync(original.dir);
    mkdirSync(replacement.dir);
    hub = await linkedHub(cloud, original.id, original.dir, 'Original');
    expect((await internal(cloud, 'POST', `/cloud/homey/${original.id}/activate`, { userId })).status).toBe(200);
  });
  afterAll(async () => {
    await hub?.stop();
    await cloud?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('backs a hub up to its owner’s cloud backups and restores it on a replacement hub', async () => {
    // The household: a zone, a paired light in it, a flow, a variable, a second person, and an app's userdata.
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
    expect(flow.status, JSON.stringify(flow.body)).toBe(200);
    expect((await hub.call('POST', '/logic/variable', { name: 'Guests', type: 'number', value: 3 })).status).toBe(200);
    expect((await hub.call('POST', '/users/user', { name: 'Sam', role: 'user' })).status).toBe(200);
    const userdata = join(appsDirectory({ dataDir: original.dir, id: original.id }), 'com.example.notes', 'userdata');
    mkdirSync(userdata, { recursive: true });
    writeFileSync(join(userdata, 'notes.json'), '{"shopping":["tea"]}');
    const before = await household(hub);

    const backup = await hub.call<{ cloudBackupId: string | null; cloudError: string | null; sha256: string; size: number }>(
      'POST',
      '/backup/backup',
    );
    expect(backup.status).toBe(200);
    expect(backup.body.cloudError).toBeNull();
    expect(backup.body.cloudBackupId).toMatch(/^[0-9a-f]{24}$/);
    // The cloud lists it as complete, with the archive's size and hash and what it holds.
    const listed = await internal(cloud, 'GET', `/cloud/homey/${original.id}`);
    expect(listed.status).toBe(200);
    const row = await cloud.context.database.db
      .selectFrom('backups')
      .selectAll()
      .where('id', '=', backup.body.cloudBackupId as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'complete', hash: backup.body.sha256, hub_id: original.id, user_id: userId });
    expect(Number(row.size)).toBe(backup.body.size);
    expect(row.meta).toMatchObject({ zones: before.zones.length, devices: 1, flows: 1, variables: 1, users: 2 });

    // A replacement hub of the same owner restores it: it restarts with the original's household and its own id.
    let replacementHub = await linkedHub(cloud, replacement.id, replacement.dir, 'Replacement');
    expect((await internal(cloud, 'POST', `/cloud/homey/${replacement.id}/activate`, { userId })).status).toBe(200);
    const restore = await replacementHub.call<{ restarting: boolean; homeyId: string }>('POST', '/backup/restore', {
      backupId: backup.body.cloudBackupId,
    });
    expect(restore.status).toBe(200);
    expect(restore.body).toMatchObject({ restarting: true, homeyId: original.id });
    expect(await replacementHub.hub.restartRequested).toContain(backup.body.cloudBackupId);
    await replacementHub.stop();
    replacementHub = await linkedHub(cloud, replacement.id, replacement.dir, 'Replacement');
    try {
      expect(replacementHub.hub.restored?.backupId).toBe(backup.body.cloudBackupId);
      expect(replacementHub.hub.context.config.id).toBe(replacement.id);
      expect(await household(replacementHub)).toEqual(before);
      const restoredUserdata = join(
        appsDirectory({ dataDir: replacement.dir, id: replacement.id }),
        'com.example.notes',
        'userdata',
      );
      expect(readFileSync(join(restoredUserdata, 'notes.json'), 'utf8')).toBe('{"shopping":["tea"]}');
      // Local sign-ins of the original are not carried over: its owner token does not open the replacement.
      expect((await replacementHub.call('GET', '/zones/zone', undefined, hub.token)).status).toBe(401);
    } finally {
      await replacementHub.stop();
    }
  });

  it('refuses an archive that does not match the hash the cloud recorded, and stages nothing', async () => {
    const backup = await hub.call<{ cloudBackupId: string }>('POST', '/backup/backup');
    const row = await cloud.context.database.db
      .selectFrom('backups')
      .select('blob_key')
      .where('id', '=', backup.body.cloudBackupId)
      .executeTakeFirstOrThrow();
    // Bytes changed in storage after the backup was completed.
    const root = (cloud.context.blobs as unknown as { root: string }).root;
    writeFileSync(join(root, ...(row.blob_key as string).split('/')), 'tampered');
    const restore = await hub.call<{ error_description: string }>('POST', '/backup/restore', {
      backupId: backup.body.cloudBackupId,
    });
    expect(restore.status).toBe(409);
    expect(restore.body.error_description).toContain('SHA-256');
    expect(() => readFileSync(join(stagedRestoreDirectory({ dataDir: original.dir, id: original.id }), 'hub.db'))).toThrow();
  });
});
