import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  hubSecretQuery,
  internalToken,
  type Json,
  readJson,
  signIn,
  startTestCloud,
} from '../../testing';
import { buy } from '../store/test-helpers';
import { backupStore } from './store';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const HOME = DEMO_HUBS[0]?.id as string;
const HOLIDAY = DEMO_HUBS[1]?.id as string;
const STUDIO = DEMO_HUBS[2]?.id as string;
/** The cloud's public address in links is not where the test cloud listens: keep the path and query. */
const local = (cloud: Cloud, url: string) => `${cloud.url}${new URL(url).pathname}${new URL(url).search}`;

describeOnDatabases('backup service', (backend) => {
  let cloud: Cloud;
  let userToken: string;
  let owner: string;

  beforeAll(async () => {
    cloud = await startTestCloud(backend, { backupRetention: 2, backupMaxBytes: 1024 * 1024 });
    userToken = (await signIn(cloud)).access_token;
    owner = await delegation(userToken);
  });
  afterAll(() => cloud.stop());

  /** A delegation token for the backup service's owner calls. */
  async function delegation(token: string, audience = 'backup'): Promise<string> {
    const answer = await call(cloud, 'POST', `/cloud/delegation/token?audience=${audience}`, token, {});
    expect(answer.status).toBe(200);
    return (await answer.json()) as string;
  }

  const create = (hubId: string, body: object = {}, userId: string = DEMO_USER.id, secret = hubSecretQuery(hubId)) =>
    call(cloud, 'POST', `/backup/user/${userId}/homey/${hubId}?secret=${secret}`, null, body);
  const upload = (link: string, bytes: Buffer | Uint8Array, contentType = 'application/octet-stream') =>
    fetch(local(cloud, link), { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  const complete = (hubId: string, backupId: string, body: object) =>
    call(
      cloud,
      'PUT',
      `/backup/user/${DEMO_USER.id}/homey/${hubId}/backup/${backupId}/complete?secret=${hubSecretQuery(hubId)}`,
      null,
      body,
    );
  const mine = async (token = owner) =>
    readJson(await call(cloud, 'GET', `/backup/user/me?token=${token}`, null)) as Promise<Json[]>;

  /** Creates, uploads and completes a backup of `hubId`; answers it and its archive. */
  async function backUp(hubId: string, size = 10_000) {
    const bytes = randomBytes(size);
    const created = await readJson(await create(hubId, { homeyName: 'Home', version: '12.4.0', channel: 'stable' }));
    expect((await upload(created.url, bytes)).status).toBe(200);
    const done = await complete(hubId, created._id, { size, hash: sha256(bytes), meta: { zones: 4 } });
    expect(done.status).toBe(200);
    return { backup: await readJson(done), bytes };
  }

  it('keeps backups only of hubs whose owner’s subscriptions include them, and stores nothing for the others', async () => {
    // The demo account's Plus and Premium were sold for its Home hub: its cloud hub has neither.
    const refused = await create(STUDIO, { homeyName: 'Studio', version: '12.4.0' });
    expect(refused.status).toBe(402);
    expect(await readJson(refused)).toMatchObject({ error: 'subscription_required', statusCode: 402 });
    const rows = () => cloud.context.database.db.selectFrom('backups').select('id').where('hub_id', '=', STUDIO).execute();
    expect(await rows()).toEqual([]);
    // Premium bought in the store is for every hub of the account, its backups included.
    await buy(cloud, userToken, 'homey_premium_1m');
    const created = await create(STUDIO, { homeyName: 'Studio', version: '12.4.0' });
    expect(created.status).toBe(201);
    expect(await rows()).toHaveLength(1);
  });

  it('lists a backup only once its archive is uploaded and its size and hash confirmed', async () => {
    const bytes = randomBytes(300_000);
    const created = await create(HOME, {
      homeyName: 'Home',
      homeyPlatform: 'local',
      homeyPlatformVersion: 2,
      homeyModel: 'hearth-pro-5q',
      version: '12.4.0',
      channel: 'beta',
    });
    expect(created.status).toBe(201);
    const backup = await readJson(created);
    expect(backup).toMatchObject({ homeyId: HOME, userId: DEMO_USER.id, state: 'pending', size: null, channel: 'beta' });
    expect(backup.url).toMatch(new RegExp(`/backup/upload/${backup._id}\\?token=`));
    expect(await mine()).toEqual([]);

    const uploaded = await upload(backup.url, bytes);
    expect(await readJson(uploaded)).toEqual({ size: bytes.length, hash: sha256(bytes) });
    expect(await mine()).toEqual([]);

    const wrongHash = await complete(HOME, backup._id, { size: bytes.length, hash: sha256(Buffer.from('other')) });
    expect(wrongHash.status).toBe(400);
    expect((await readJson(wrongHash)).error_description).toContain(sha256(bytes));
    const wrongSize = await complete(HOME, backup._id, { size: bytes.length - 1, hash: sha256(bytes) });
    expect(wrongSize.status).toBe(400);
    expect(await mine()).toEqual([]);

    const done = await complete(HOME, backup._id, { size: bytes.length, hash: sha256(bytes).toUpperCase(), meta: { zones: 7 } });
    expect(done.status).toBe(200);
    expect(await readJson(done)).toMatchObject({
      state: 'complete',
      size: bytes.length,
      hash: sha256(bytes),
      meta: { zones: 7 },
    });

    const listed = await mine();
    expect(listed.map((b) => b._id)).toEqual([backup._id]);
    const download = await fetch(local(cloud, listed[0]?.url));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));

    // The archive of a complete backup no longer changes.
    expect((await upload(backup.url, randomBytes(10))).status).toBe(409);
    // Completing again with the same archive is answered as before; with another it is refused.
    expect((await complete(HOME, backup._id, { size: bytes.length, hash: sha256(bytes) })).status).toBe(200);
    expect((await complete(HOME, backup._id, { size: 10, hash: sha256(Buffer.from('x')) })).status).toBe(409);
  });

  it('lets a hub of the owner list and download the backups to restore one', async () => {
    const { backup, bytes } = await backUp(HOLIDAY);
    // Another hub of the same owner (a replacement) reads them with its own secret.
    const list = await call(cloud, 'GET', `/backup/user/${DEMO_USER.id}?secret=${hubSecretQuery(STUDIO)}`, null);
    expect(list.status).toBe(200);
    expect((await readJson(list)).map((b: Json) => b._id)).toContain(backup._id);
    const one = await readJson(
      await call(cloud, 'GET', `/backup/user/${DEMO_USER.id}/backup/${backup._id}?secret=${hubSecretQuery(STUDIO)}`, null),
    );
    expect(one).toMatchObject({ _id: backup._id, homeyId: HOLIDAY, state: 'complete' });
    const download = await fetch(local(cloud, one.url));
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses wrong secrets, tokens and links, and other people’s backups', async () => {
    const { backup } = await backUp(STUDIO);
    // A secret the provider did not make, another hub's secret, a hub of another account.
    expect((await create(HOME, {}, DEMO_USER.id, 'not-a-secret')).status).toBe(403);
    expect((await create(HOME, {}, DEMO_USER.id, `${HOME}.${'A'.repeat(43)}`)).status).toBe(403);
    expect((await create(HOME, {}, DEMO_USER.id, hubSecretQuery(STUDIO))).status).toBe(403);
    const stranger = await createUser(cloud, `backup-stranger-${backend}@hearth.test`);
    const refused = await create(HOME, {}, stranger.id);
    expect(refused.status).toBe(403);
    expect((await readJson(refused)).error_description).toBe('This hub does not belong to that account');
    expect((await call(cloud, 'GET', `/backup/user/${stranger.id}?secret=${hubSecretQuery(HOME)}`, null)).status).toBe(403);
    expect(
      (await call(cloud, 'GET', `/backup/user/${stranger.id}/backup/${backup._id}?secret=${hubSecretQuery(HOME)}`, null)).status,
    ).toBe(403);
    // An unregistered hub.
    const unknownHub = 'abcdefabcdefabcdefabcdef';
    expect((await create(unknownHub, {}, DEMO_USER.id, hubSecretQuery(unknownHub))).status).toBe(404);

    // The stranger sees none of the owner's backups and cannot delete them.
    const strangerToken = await delegation(stranger.token);
    expect(await mine(strangerToken)).toEqual([]);
    const theirs = await call(
      cloud,
      'DELETE',
      `/backup/user/me/homey/${STUDIO}/backup/${backup._id}?token=${strangerToken}`,
      null,
    );
    expect(theirs.status).toBe(404);
    expect((await call(cloud, 'DELETE', `/backup/user/${DEMO_USER.id}`, stranger.token)).status).toBe(403);
    // A delegation token for another audience, a tampered one, none at all.
    const forHubs = await delegation(userToken, 'homey');
    expect((await call(cloud, 'GET', `/backup/user/me?token=${forHubs}`, null)).status).toBe(403);
    expect((await call(cloud, 'GET', `/backup/user/me?token=${owner}x`, null)).status).toBe(403);
    expect((await call(cloud, 'GET', '/backup/user/me', null)).status).toBe(400);

    // Links: an upload link does not download, a download link does not upload, and neither names another backup.
    const listed = (await mine()).find((b) => b._id === backup._id) as Json;
    const downloadToken = new URL(listed.url).searchParams.get('token');
    expect((await fetch(`${cloud.url}/backup/upload/${backup._id}?token=${downloadToken}`, { method: 'PUT' })).status).toBe(403);
    const other = (await mine()).find((b) => b._id !== backup._id) as Json;
    expect((await fetch(`${cloud.url}/backup/download/${other._id}?token=${downloadToken}`)).status).toBe(403);
    expect((await fetch(`${cloud.url}/backup/download/${backup._id}?token=${downloadToken}`)).status).toBe(200);
  });

  it('refuses an archive over the size limit or not sent as octet-stream, and stores nothing of it', async () => {
    const created = await readJson(await create(HOME));
    const tooLarge = await upload(created.url, randomBytes(1024 * 1024 + 1));
    expect(tooLarge.status).toBe(413);
    // Without a length announced, the stream is cut off at the limit all the same.
    const streamed = await fetch(local(cloud, created.url), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(randomBytes(100_000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const json = await upload(created.url, Buffer.from('{"archive": 1}'), 'application/json');
    expect(json.status).toBe(415);
    const early = await complete(HOME, created._id, { size: 10, hash: sha256(Buffer.from('x')) });
    expect(early.status).toBe(409);
    expect((await readJson(early)).error_description).toBe('Upload the archive before completing the backup');
  });

  it('keeps the newest backups of each hub within the retention', async () => {
    const first = await backUp(HOME);
    const second = await backUp(HOME);
    const third = await backUp(HOME);
    const ofHome = (await mine()).filter((b) => b.homeyId === HOME);
    expect(ofHome.map((b) => b._id)).toEqual([third.backup._id, second.backup._id]);
    // The removed backup's archive went with it.
    const store = backupStore(cloud.context);
    await expect(store.archive(first.backup._id)).rejects.toThrow('Backup not found');
    // Other hubs' backups are not counted against this one's.
    expect((await mine()).some((b) => b.homeyId === HOLIDAY)).toBe(true);
  });

  it('deletes one backup, and all of a user’s, with their archives', async () => {
    const { backup } = await backUp(HOLIDAY);
    const deleted = await call(cloud, 'DELETE', `/backup/user/me/homey/${HOLIDAY}/backup/${backup._id}?token=${owner}`, null);
    expect(deleted.status).toBe(204);
    expect((await mine()).some((b) => b._id === backup._id)).toBe(false);
    await expect(backupStore(cloud.context).archive(backup._id)).rejects.toThrow('Backup not found');

    const stranger = await createUser(cloud, `backup-leaver-${backend}@hearth.test`);
    const internal = await internalToken(cloud);
    expect((await call(cloud, 'DELETE', `/backup/user/${stranger.id}`, stranger.token)).status).toBe(204);
    expect((await call(cloud, 'DELETE', `/backup/user/${DEMO_USER.id}`, internal)).status).toBe(204);
    expect(await mine()).toEqual([]);
  });

  it('sweeps backups never completed, with what was uploaded of them', async () => {
    const created = await readJson(await create(STUDIO));
    await upload(created.url, randomBytes(100));
    const store = backupStore(cloud.context);
    expect(await store.sweepIncomplete(24 * 3600 * 1000)).toBe(0);
    expect(await store.sweepIncomplete(-1000)).toBeGreaterThanOrEqual(1);
    expect((await complete(STUDIO, created._id, { size: 100, hash: sha256(Buffer.from('x')) })).status).toBe(404);
  });
});
