import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRUSTED_APP_AUTHOR_IDS } from '@hearth/contract';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  INTERNAL_SECRET,
  internalToken,
  type Json,
  readJson,
  signIn,
  startTestCloud,
} from '../../testing';
import { REVIEWER_ROLE } from './access';
import { demoArchive } from './seed';

/** An app package as tar.gz, made with the `tar` library from a folder on disk, like a developer's CLI would. */
async function tarball(manifest: Record<string, unknown>, icon = true): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-app-'));
  try {
    await writeFile(join(dir, 'app.json'), JSON.stringify(manifest));
    const files = ['app.json'];
    if (icon) {
      await mkdir(join(dir, 'assets'));
      await writeFile(join(dir, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      files.push('assets/icon.svg');
    }
    const chunks: Buffer[] = [];
    for await (const chunk of createTar({ gzip: true, cwd: dir, portable: true }, files)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const manifestOf = (id: string, version: string, extra: Record<string, unknown> = {}) => ({
  id,
  version,
  sdk: 3,
  name: { en: 'Aurora Garden Lights', nl: 'Aurora Tuinverlichting' },
  author: { name: 'Dev', email: 'dev@example.test' },
  category: 'lights',
  brandColor: '#FF8800',
  support: 'https://aurora.example/support',
  drivers: [
    {
      id: 'spot',
      name: { en: 'Garden spot' },
      class: 'light',
      capabilities: ['onoff', 'dim'],
      connectivity: ['zigbee'],
      zigbee: { manufacturerName: ['Aurora'], productId: ['AG-SPOT-1'] },
    },
  ],
  ...extra,
});

const upload = (cloud: Cloud, archiveId: string, token: string | null, data: Buffer, type = 'application/gzip') =>
  fetch(`${cloud.url}/apps/archive/${archiveId}`, {
    method: 'PUT',
    headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: data,
  });

async function giveRole(cloud: Cloud, userId: string, role: string) {
  await cloud.context.database.db
    .updateTable('users')
    .set({ role_ids: JSON.stringify([role]) })
    .where('id', '=', userId)
    .execute();
}

describeOnDatabases('app catalogue', (backend) => {
  let cloud: Cloud;
  let dev: { id: string; token: string };
  let other: { id: string; token: string };
  let reviewer: { id: string; token: string };
  let demoToken: string;
  const api = (method: string, path: string, token: string | null, body?: unknown) =>
    call(cloud, method, `/apps${path}`, token, body);

  /** Creates a build and uploads its archive; answers the archive. */
  async function uploadBuild(appId: string, version: string, extra: Record<string, unknown>) {
    const build = await readJson(await api('POST', `/app/${appId}/build`, dev.token, { version }));
    return readJson(await upload(cloud, build.archive._id, dev.token, await tarball(manifestOf(appId, version, extra))));
  }

  /** Creates a build, uploads its archive, submits it and has the reviewer approve it. */
  async function publish(appId: string, version: string, extra: Record<string, unknown> = {}, autoRelease = true) {
    const build = await readJson(await api('POST', `/app/${appId}/build`, dev.token, { version }));
    const archive = await readJson(
      await upload(cloud, build.archive._id, dev.token, await tarball(manifestOf(appId, version, extra))),
    );
    expect(archive.state).toBe('ready');
    expect((await api('POST', `/app/${appId}/build/${build._id}/submission`, dev.token, { autoRelease })).status).toBe(201);
    expect((await api('POST', `/app/${appId}/build/${build._id}/submission/approve`, reviewer.token, {})).status).toBe(200);
    return build;
  }

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    dev = await createUser(cloud, 'dev@apps.test');
    other = await createUser(cloud, 'other@apps.test');
    reviewer = await createUser(cloud, 'reviewer@apps.test');
    await giveRole(cloud, reviewer.id, REVIEWER_ROLE);
    demoToken = (await signIn(cloud)).access_token;
  });
  afterAll(async () => {
    await cloud?.stop();
  });

  it('publishes an app through build, archive upload, submission and approval; a hub installs it', async () => {
    const created = await api('POST', '/app/com.aurora.garden/build', dev.token, {
      version: '1.0.0',
      changelog: { en: 'First release' },
      readme: { en: 'Garden lights', nl: 'Tuinlampen' },
      env: { API_KEY: 'secret-key' },
    });
    expect(created.status).toBe(201);
    const build = await readJson(created);
    expect(build).toMatchObject({
      version: '1.0.0',
      channel: null,
      archive: { state: 'pending' },
      env: { API_KEY: 'secret-key' },
    });
    expect(build.archive.uploadUrl).toBe(`http://hearth-cloud.test/apps/archive/${build.archive._id}`);
    // Unpublished: invisible to others, visible to the author.
    expect((await api('GET', '/app/com.aurora.garden', null)).status).toBe(404);
    expect((await api('GET', '/app/com.aurora.garden', dev.token)).status).toBe(200);

    const data = await tarball(manifestOf('com.aurora.garden', '1.0.0'));
    const archive = await readJson(await upload(cloud, build.archive._id, dev.token, data));
    expect(archive).toMatchObject({
      state: 'ready',
      error: null,
      size: data.length,
      hash: createHash('sha256').update(data).digest('hex'),
      manifest: { id: 'com.aurora.garden', version: '1.0.0' },
    });

    // Not live before approval; only reviewers approve.
    expect(
      (await api('POST', `/app/com.aurora.garden/build/${build._id}/channel`, dev.token, { channel: 'stable' })).status,
    ).toBe(409);
    const submission = await api('POST', `/app/com.aurora.garden/build/${build._id}/submission`, dev.token, {
      autoRelease: true,
    });
    expect(submission.status).toBe(201);
    expect(await readJson(submission)).toMatchObject({ state: 'pending', autoRelease: true });
    const queue = await readJson(await api('GET', '/app/review', reviewer.token));
    expect(queue.map((q: Json) => q.app.id)).toContain('com.aurora.garden');
    expect((await api('GET', '/app/review', dev.token)).status).toBe(403);
    expect((await api('POST', `/app/com.aurora.garden/build/${build._id}/submission/approve`, dev.token, {})).status).toBe(403);
    expect(
      (await api('POST', `/app/com.aurora.garden/build/${build._id}/submission/comment`, reviewer.token, { text: 'Looks good' }))
        .status,
    ).toBe(201);
    const approved = await api('POST', `/app/com.aurora.garden/build/${build._id}/submission/approve`, reviewer.token, {});
    expect(await readJson(approved)).toMatchObject({ state: 'approved' });

    const app = await readJson(await api('GET', '/app/com.aurora.garden', null));
    expect(app).toMatchObject({
      _id: 'com.aurora.garden',
      liveVersion: '1.0.0',
      testBuild: null,
      name: { en: 'Aurora Garden Lights', nl: 'Aurora Tuinverlichting' },
      brandColor: '#FF8800',
      support: 'https://aurora.example/support',
      author: { _id: dev.id, verified: false },
      drivers: [{ id: 'spot', connectivity: ['zigbee'] }],
      liveBuild: { version: '1.0.0', channel: 'stable', facts: { category: ['lights'] } },
    });
    expect(app.liveBuild.env).toBeUndefined();
    // The build itself carries what the support form reads of it, as the ecosystem's apps API has it.
    expect(app.liveBuild).toMatchObject({
      name: { en: 'Aurora Garden Lights', nl: 'Aurora Tuinverlichting' },
      brandColor: '#FF8800',
      icon: app.icon,
      support: 'https://aurora.example/support',
      drivers: [{ id: 'spot', class: 'light', connectivity: ['zigbee'] }],
    });
    expect(app.liveBuild.bugs).toBeUndefined();
    const comments = await readJson(await api('GET', `/app/com.aurora.garden/build/${build._id}/submission/comment`, dev.token));
    expect(comments).toMatchObject([{ text: 'Looks good', reviewer: true }]);

    const install = await readJson(await api('GET', `/app/com.aurora.garden/install?secret=${DEMO_HUBS[0]?.id}`, null));
    expect(install).toMatchObject({
      id: 'com.aurora.garden',
      version: '1.0.0',
      channel: 'stable',
      manifest: { id: 'com.aurora.garden' },
    });
    expect(install.archive.url).toBe(`http://hearth-cloud.test/apps/archive/${build.archive._id}/download`);
    const download = await fetch(`${cloud.url}/apps/archive/${build.archive._id}/download`);
    expect(download.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await download.arrayBuffer()))
        .digest('hex'),
    ).toBe(install.archive.hash);
    expect((await api('GET', '/app/com.aurora.garden/install', null)).status).toBe(400);
    const stats = await readJson(await api('GET', '/app/com.aurora.garden/install/stats', dev.token));
    expect(stats).toEqual({ total: 1, versions: { '1.0.0': 1 }, channels: { stable: 1 } });
    const icon = await fetch(`${cloud.url}/apps/app/com.aurora.garden/icon`);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('records failed archives with the reason and accepts zip packages', async () => {
    const build = await readJson(await api('POST', '/app/com.aurora.broken/build', dev.token, { version: '0.1.0' }));
    const wrongVersion = await readJson(
      await upload(cloud, build.archive._id, dev.token, await tarball(manifestOf('com.aurora.broken', '0.2.0'))),
    );
    expect(wrongVersion).toMatchObject({ state: 'failed', error: expect.stringContaining('version 0.2.0') });
    const invalid = await readJson(
      await upload(cloud, build.archive._id, dev.token, await tarball({ ...manifestOf('com.aurora.broken', '0.1.0'), sdk: 9 })),
    );
    expect(invalid).toMatchObject({ state: 'failed', error: expect.stringContaining('app.json/sdk') });
    const garbage = await readJson(await upload(cloud, build.archive._id, dev.token, Buffer.from('not an archive at all')));
    expect(garbage).toMatchObject({ state: 'failed', error: 'The archive must be a tar.gz or a zip file' });
    expect((await api('POST', `/app/com.aurora.broken/build/${build._id}/submission`, dev.token, {})).status).toBe(409);
    const zip = await readJson(
      await upload(cloud, build.archive._id, dev.token, demoArchive(manifestOf('com.aurora.broken', '0.1.0')), 'application/zip'),
    );
    expect(zip).toMatchObject({ state: 'ready', manifest: { version: '0.1.0' } });
    // The provider's archive processor may report a state and manifest as JSON; authors may not.
    const internal = await internalToken(cloud);
    expect((await api('PUT', `/archive/${build.archive._id}`, dev.token, { state: 'failed' })).status).toBe(403);
    const badManifest = await api('PUT', `/archive/${build.archive._id}`, internal, { manifest: { id: 'com.aurora.broken' } });
    expect(await readJson(badManifest)).toMatchObject({
      statusCode: 400,
      error_description: expect.stringContaining('manifest'),
    });
    const reported = await api('PUT', `/archive/${build.archive._id}`, internal, {
      state: 'ready',
      assetsId: 'assets-1',
      manifest: manifestOf('com.aurora.broken', '0.1.0', { name: 'Aurora Reported' }),
    });
    expect(await readJson(reported)).toMatchObject({ state: 'ready', assetsId: 'assets-1' });
    expect((await readJson(await api('GET', '/app/com.aurora.broken', dev.token))).name).toBe('Aurora Reported');
    // Someone else's archive, and someone else's app.
    expect(
      (await upload(cloud, build.archive._id, other.token, await tarball(manifestOf('com.aurora.broken', '0.1.0')))).status,
    ).toBe(403);
    expect((await api('POST', '/app/com.aurora.broken/build', other.token, { version: '0.3.0' })).status).toBe(403);
    expect((await api('POST', '/app/com.aurora.broken/build', dev.token, { version: '0.1.0' })).status).toBe(409);
    expect(await readJson(await api('POST', '/app/com.aurora.broken/build', dev.token, { version: 'one' }))).toMatchObject({
      statusCode: 400,
      error_description: expect.stringContaining('version'),
    });
  });

  it('waits for the developer when autoRelease is off; beta builds are the test build; retract and reject', async () => {
    await publish('com.aurora.spots', '1.0.0');
    const held = await publish('com.aurora.spots', '1.1.0', {}, false);
    let app = await readJson(await api('GET', '/app/com.aurora.spots', null));
    expect(app.liveVersion).toBe('1.0.0');
    await api('POST', `/app/com.aurora.spots/build/${held._id}/channel`, dev.token, { channel: 'stable' });
    app = await readJson(await api('GET', '/app/com.aurora.spots', null));
    expect(app.liveVersion).toBe('1.1.0');

    const beta = await readJson(await api('POST', '/app/com.aurora.spots/build', dev.token, { version: '1.2.0-beta.1' }));
    await upload(cloud, beta.archive._id, dev.token, await tarball(manifestOf('com.aurora.spots', '1.2.0-beta.1')));
    expect((await api('POST', `/app/com.aurora.spots/build/${beta._id}/channel`, other.token, { channel: 'beta' })).status).toBe(
      403,
    );
    await api('POST', `/app/com.aurora.spots/build/${beta._id}/channel`, dev.token, { channel: 'beta' });
    app = await readJson(await api('GET', '/app/com.aurora.spots', null));
    expect(app).toMatchObject({ liveVersion: '1.1.0', testVersion: '1.2.0-beta.1', testBuild: { channel: 'beta' } });
    const betaInstall = await readJson(await api('GET', '/app/com.aurora.spots/install?secret=hub-2&channel=beta', null));
    expect(betaInstall.version).toBe('1.2.0-beta.1');
    expect((await readJson(await api('GET', '/app/com.aurora.spots/install?secret=hub-2&version=1.0.0', null))).version).toBe(
      '1.0.0',
    );

    const next = await readJson(await api('POST', '/app/com.aurora.spots/build', dev.token, { version: '1.3.0' }));
    await upload(cloud, next.archive._id, dev.token, await tarball(manifestOf('com.aurora.spots', '1.3.0')));
    await api('POST', `/app/com.aurora.spots/build/${next._id}/submission`, dev.token, {});
    expect(
      await readJson(await api('POST', `/app/com.aurora.spots/build/${next._id}/submission/retract`, dev.token, {})),
    ).toMatchObject({
      state: 'retracted',
    });
    expect((await api('POST', `/app/com.aurora.spots/build/${next._id}/submission/approve`, reviewer.token, {})).status).toBe(
      409,
    );
    await api('POST', `/app/com.aurora.spots/build/${next._id}/submission`, dev.token, {});
    expect(
      await readJson(await api('POST', `/app/com.aurora.spots/build/${next._id}/submission/reject`, reviewer.token, {})),
    ).toMatchObject({
      state: 'rejected',
    });
    expect((await readJson(await api('GET', '/app/com.aurora.spots', null))).liveVersion).toBe('1.1.0');
    const changelog = await readJson(await api('GET', '/app/com.aurora.spots/changelog', null));
    expect(Object.keys(changelog)).toEqual(['1.2.0-beta.1', '1.1.0', '1.0.0']);
  });

  it('takes one review per user, developer responses, stats and thanks', async () => {
    await publish('com.aurora.reviewed', '2.0.0');
    expect((await api('PUT', '/app/com.aurora.reviewed/review', null, { version: '2.0.0', rating: 5 })).status).toBe(401);
    const bad = await readJson(await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '2.0.0', rating: 6 }));
    expect(bad).toMatchObject({ statusCode: 400, error_description: expect.stringContaining('rating') });
    expect((await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '9.9.9', rating: 3 })).status).toBe(400);
    await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '2.0.0', rating: 2, comment: 'Meh' });
    const replaced = await readJson(
      await api('PUT', '/app/com.aurora.reviewed/review', other.token, { version: '2.0.0', rating: 4, comment: 'Better' }),
    );
    expect(replaced).toMatchObject({ userId: other.id, rating: 4, comment: 'Better', response: null });
    await api('PUT', '/app/com.aurora.reviewed/review', demoToken, { version: '2.0.0', rating: 5 });
    expect(
      (await api('PUT', `/app/com.aurora.reviewed/review/${other.id}/response`, other.token, { response: 'x' })).status,
    ).toBe(403);
    await api('PUT', `/app/com.aurora.reviewed/review/${other.id}/response`, dev.token, { response: 'Thanks for the feedback' });
    const reviews = await readJson(await api('GET', '/app/com.aurora.reviewed/review', null));
    expect(reviews).toHaveLength(2);
    expect(reviews.find((r: Json) => r.userId === other.id).response.text).toBe('Thanks for the feedback');
    expect(await readJson(await api('GET', '/app/com.aurora.reviewed/review/stats', null))).toEqual({
      count: 2,
      average: 4.5,
      distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 },
    });
    expect((await api('DELETE', `/app/com.aurora.reviewed/review/${other.id}/response`, dev.token)).status).toBe(204);
    expect((await api('DELETE', '/app/com.aurora.reviewed/review/all', dev.token)).status).toBe(403);
    expect((await api('DELETE', '/app/com.aurora.reviewed/review', other.token)).status).toBe(204);
    expect((await readJson(await api('GET', '/app/com.aurora.reviewed', null))).rating).toEqual({ average: 5, count: 1 });
    expect((await api('DELETE', '/app/com.aurora.reviewed/review/all', await internalToken(cloud))).status).toBe(204);

    expect(await readJson(await api('PUT', '/app/com.aurora.reviewed/thanks', other.token, {}))).toEqual({
      count: 1,
      thanked: true,
    });
    expect(await readJson(await api('PUT', '/app/com.aurora.reviewed/thanks', other.token, {}))).toEqual({
      count: 1,
      thanked: true,
    });
    expect(await readJson(await api('GET', '/app/com.aurora.reviewed/thanks', null))).toEqual({ count: 1, thanked: false });

    expect((await api('POST', '/app/com.aurora.reviewed/suggestion', other.token, { suggestionText: 'Add scenes' })).status).toBe(
      201,
    );
    expect((await api('GET', '/app/com.aurora.reviewed/suggestion', other.token)).status).toBe(403);
    expect(await readJson(await api('GET', '/app/com.aurora.reviewed/suggestion', dev.token))).toMatchObject([
      { suggestionText: 'Add scenes', userId: other.id },
    ]);
  });

  it('groups crash reports by stack and mails the developer reply to the hub owner', async () => {
    const build = await publish('com.aurora.crashy', '1.0.0');
    const hub = DEMO_HUBS[0]?.id as string;
    const stack = (line: number) =>
      `TypeError: Cannot read properties of undefined (reading 'x')\n    at Driver.onPoll (/userdata/apps/com.aurora.crashy/app/drivers/spot/driver.js:${line}:7)`;
    const report = (homeyId: string, s: string) =>
      api('POST', '/app/com.aurora.crashy/crash', null, { appVersion: '1.0.0', homeyId, homeyVersion: '12.1.0', stack: s });
    await api('GET', `/app/com.aurora.crashy/install?secret=${hub}`, null);
    const first = await report(hub, stack(42));
    expect(first.status).toBe(201);
    const { _id: crashId, stackHash } = await readJson(first);
    expect((await readJson(await report('5ea7c0de00000000000000b2', stack(42)))).stackHash).toBe(stackHash);
    expect((await readJson(await report(hub, 'RangeError: boom\n    at x (/app/app.js:1:1)'))).stackHash).not.toBe(stackHash);
    expect((await report(hub, '')).status).toBe(400);
    expect(
      (
        await api('POST', '/app/com.aurora.crashy/crash', null, {
          appVersion: '7.0.0',
          homeyId: hub,
          homeyVersion: '1',
          stack: 'x',
        })
      ).status,
    ).toBe(404);

    const groups = await readJson(await api('GET', `/app/com.aurora.crashy/build/${build._id}/crash`, dev.token));
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ stackHash, count: 2, homeys: 2 });
    expect((await api('GET', `/app/com.aurora.crashy/build/${build._id}/crash`, other.token)).status).toBe(403);
    const stats = await readJson(await api('GET', `/app/com.aurora.crashy/build/${build._id}/crash/stats`, dev.token));
    expect(stats).toMatchObject({ total: 3, groups: 2, homeys: 2, perHomeyVersion: { '12.1.0': 3 } });

    const sink = cloud.context.mail.sink;
    if (!sink) throw new Error('tests run with the SMTP sink');
    expect((await api('POST', `/app/crash/${crashId}/reply`, other.token, { subject: 'x', body: 'y' })).status).toBe(403);
    // A report naming a hub that never installed the app cannot be used to mail that hub's owner.
    const forged = await readJson(await report('5ea7c0de00000000000000b2', stack(42)));
    expect((await api('POST', `/app/crash/${forged._id}/reply`, dev.token, { subject: 'x', body: 'y' })).status).toBe(409);
    const reply = await api('POST', `/app/crash/${crashId}/reply`, dev.token, {
      subject: 'About your crash',
      body: 'Fixed in 1.0.1, please update.',
      from: 'Aurora support',
    });
    expect(reply.status).toBe(200);
    const mail = await sink.waitFor((m) => m.subject === 'About your crash');
    expect(mail.to).toContain(DEMO_USER.email);
    expect(mail.text).toContain('Fixed in 1.0.1, please update.');
  });

  it('finds apps by any word of their names in any language, with one typo, and filters', async () => {
    await publish('com.aurora.search', '1.0.0', {
      name: { en: 'Nimbus Weather', de: 'Nimbus Wetterstation' },
      platforms: ['local', 'cloud'],
      compatibility: '>=12.0.0',
    });
    const search = async (q: string, extra = '') =>
      (await readJson(await api('GET', `/app/search?query=${encodeURIComponent(q)}${extra}`, null))).map((a: Json) => a.id);
    expect(await search('nimbus')).toEqual(['com.aurora.search']);
    expect(await search('Wetterstation')).toEqual(['com.aurora.search']);
    expect(await search('wetterstatoin')).toEqual(['com.aurora.search']);
    expect(await search('nimbsu weather')).toEqual(['com.aurora.search']);
    expect(await search('nimb')).toEqual(['com.aurora.search']);
    expect(await search('nimbus zzzz')).toEqual([]);
    expect(await search('lumen')).toEqual(['com.lumenco.lights']);
    expect(await search('verlichting')).toContain('com.lumenco.lights');
    expect(await search('nimbus', '&homeyVersion=11.0.0')).toEqual([]);
    expect(await search('nimbus', '&homeyPlatform=cloud')).toEqual(['com.aurora.search']);
    expect(await search('guardian', '&homeyPlatform=cloud')).toEqual([]);
    expect(await readJson(await api('GET', '/app/search', null))).toMatchObject({ statusCode: 400, error: 'missing_parameter' });

    const browse = await readJson(await api('GET', '/app/browse?connectivity=zwave', null));
    expect(browse.apps.map((a: Json) => a.id)).toEqual(['com.nordheat.climate']);
    const page = await api('GET', '/app?page=1&count=2&category=lights', null);
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
    expect(await readJson(page)).toHaveLength(2);
    const ids = await readJson(await api('GET', '/app/ids', null));
    expect(ids).toContain('com.aurora.search');
    expect(ids).not.toContain('com.aurora.broken');
    const highlighted = await readJson(await api('GET', '/app/highlight?platforms=local', null));
    expect(highlighted.map((a: Json) => a.id).sort()).toEqual(['com.guardian.security', 'com.lumenco.lights']);
    const mine = await readJson(await api('GET', '/app/me', dev.token));
    expect(mine.map((a: Json) => a.id)).toContain('com.aurora.broken');

    const zigbee = await readJson(
      await api('POST', '/app/search-zigbee-driver', null, { manufacturerName: 'aurora', productId: 'AG-SPOT-1' }),
    );
    expect(zigbee.map((m: Json) => `${m.app.id}/${m.driver.id}`)).toContain('com.aurora.garden/spot');
    const zwave = await readJson(
      await api('POST', '/app/search-zwave-driver', null, { manufacturerId: 798, productTypeId: 3, productId: 2 }),
    );
    expect(zwave.map((m: Json) => m.app.id)).toEqual(['com.nordheat.climate']);
    const discovered = await readJson(
      await api('POST', '/discover', null, { 'mdns-sd': ['_lumenco._tcp.local'], mac: ['5C:CF:7F:12:34:56'], ssdp: [], ble: [] }),
    );
    expect(discovered.map((d: Json) => d.app.id).sort()).toEqual(['com.lumenco.lights', 'com.wattwise.meter']);

    const internal = await internalToken(cloud);
    expect((await api('POST', '/app/sync', dev.token, {})).status).toBe(403);
    const synced = await readJson(await api('POST', '/app/sync', internal, {}));
    expect(synced.apps).toBeGreaterThan(8);
    expect(await search('nimbus')).toEqual(['com.aurora.search']);
    expect((await api('GET', '/app/summary?secret=wrong', null)).status).toBe(403);
    expect(await readJson(await api('GET', `/app/summary?secret=${INTERNAL_SECRET}`, null))).toMatchObject({
      liveApps: expect.any(Number),
    });
  });

  it('searches in the asked language and only answers apps that suit the hub: version, platform, model', async () => {
    await publish('com.heatwave.thermo', '1.0.0', {
      name: { en: 'Heatwave Thermostat', nl: 'Heatwave Thermostaat' },
      description: { en: 'Keeps every room cosy', nl: 'Houdt elke kamer behaaglijk' },
      compatibility: '>=12.0.0 <13.0.0',
      platforms: ['local'],
      platformLocalRequiredFeatures: ['zwave'],
    });
    await publish('com.cosyhome.hub', '1.0.0', {
      name: 'Cosy Home',
      description: { en: 'Heating schedules for every room' },
      compatibility: '>=5.0.0',
      platforms: ['local', 'cloud'],
    });
    await publish('com.zeta.heater', '1.0.0', { name: { en: 'Thermo Plus', nl: 'Warmte Plus' } });
    await publish('com.beta.monitor', '1.0.0', { name: { en: 'Warmte Monitor', nl: 'Hitte Monitor' } });
    const search = async (q: string, extra = '') => {
      const response = await api('GET', `/app/search?query=${encodeURIComponent(q)}${extra}`, null);
      expect(response.status).toBe(200);
      return (await readJson(response)).map((a: Json) => a.id);
    };

    // Descriptions are read in the asked language (English when none is asked), else in English.
    expect(await search('behaaglijk', '&language=nl')).toEqual(['com.heatwave.thermo']);
    expect(await search('behaaglijk', '&language=en')).toEqual([]);
    expect(await search('behaaglijk')).toEqual([]);
    expect(await search('schedules', '&language=de')).toEqual(['com.cosyhome.hub']);
    expect(await search('schedlues', '&language=nl')).toEqual(['com.cosyhome.hub']);
    // A name match ranks over a description match; names match in any language.
    expect(await search('cosy', '&language=en')).toEqual(['com.cosyhome.hub', 'com.heatwave.thermo']);
    expect(await search('cosy', '&language=nl')).toEqual(['com.cosyhome.hub']);
    expect(await search('thermostaat', '&language=en')).toEqual(['com.heatwave.thermo']);
    // Names in the asked language rank first, then names in English for apps that have none in it.
    expect(await search('warmte', '&language=en')).toEqual(['com.beta.monitor', 'com.zeta.heater']);
    expect(await search('warmte', '&language=nl')).toEqual(['com.zeta.heater', 'com.beta.monitor']);

    // The hub's software version against the live build's compatibility range.
    expect(await search('heatwave', '&homeyVersion=12.4.0')).toEqual(['com.heatwave.thermo']);
    expect(await search('heatwave', '&homeyVersion=v12.1')).toEqual(['com.heatwave.thermo']);
    expect(await search('heatwave', '&homeyVersion=13.0.0')).toEqual([]);
    expect(await search('heatwave', '&homeyVersion=11.9.9')).toEqual([]);
    expect(await search('room', '&language=en&homeyVersion=13.1.0')).toEqual(['com.cosyhome.hub']);
    // The platform, asked directly or through the model; a local model's hardware against the required features.
    expect(await search('heatwave', '&homeyPlatform=cloud')).toEqual([]);
    expect(await search('cosy', '&language=en&homeyPlatform=cloud')).toEqual(['com.cosyhome.hub']);
    expect(await search('heatwave', '&homeyModel=hearth-pro-5q')).toEqual(['com.heatwave.thermo']);
    expect(await search('heatwave', '&homeyModel=hearth-pro-mini-6q')).toEqual([]);
    expect(await search('heatwave', '&homeyModel=hearth-cloud')).toEqual([]);
    expect(await search('heatwave', '&homeyModel=hearth-pro-9z')).toEqual(['com.heatwave.thermo']);
    expect(await search('cosy', '&language=en&homeyModel=hearth-cloud')).toEqual(['com.cosyhome.hub']);
    expect(await search('cosy', '&language=en&homeyModel=hearth-pro-mini-6q&homeyVersion=12.4.0')).toEqual(['com.cosyhome.hub']);

    // Browse searches in the asked language too.
    const browse = await readJson(await api('GET', '/app/browse?query=behaaglijk&language=nl', null));
    expect(browse.apps.map((a: Json) => a.id)).toEqual(['com.heatwave.thermo']);
    expect(await readJson(await api('GET', '/app/search?query=cosy&language=dutch', null))).toMatchObject({
      statusCode: 400,
      error: 'invalid_parameter',
    });
    // Hardware a manifest may require is one the catalogue knows.
    const failed = await uploadBuild('com.heatwave.thermo', '1.0.1', { platformLocalRequiredFeatures: ['teleport'] });
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringContaining('platformLocalRequiredFeatures') });
  });

  it("searches for the hub's platform version against the live build's platformCompatibility of that platform", async () => {
    await publish('com.gen.two', '1.0.0', {
      name: 'Generation Two',
      platforms: ['local', 'cloud'],
      platformCompatibility: { local: '>=2' },
    });
    await publish('com.gen.one', '1.0.0', { name: 'Generation One', platformCompatibility: { local: '^1.0.0' } });
    await publish('com.gen.any', '1.0.0', { name: 'Generation Any' });
    const search = async (filters: string) => {
      const response = await api('GET', `/app/search?query=generation${filters}`, null);
      expect(response.status).toBe(200);
      return (await readJson(response)).map((a: Json) => a.id).sort();
    };
    expect(await search('')).toEqual(['com.gen.any', 'com.gen.one', 'com.gen.two']);
    // The platform version of the hub's platform; without a platform, any platform the app runs on.
    expect(await search('&homeyPlatformVersion=2')).toEqual(['com.gen.any', 'com.gen.two']);
    expect(await search('&homeyPlatformVersion=1')).toEqual(['com.gen.any', 'com.gen.one', 'com.gen.two']);
    expect(await search('&homeyPlatform=local&homeyPlatformVersion=1')).toEqual(['com.gen.any', 'com.gen.one']);
    expect(await search('&homeyPlatform=local&homeyPlatformVersion=2.1')).toEqual(['com.gen.any', 'com.gen.two']);
    expect(await search('&homeyPlatform=cloud&homeyPlatformVersion=1')).toEqual(['com.gen.two']);
    expect(await search('&homeyModel=hearth-pro-5q&homeyPlatformVersion=2')).toEqual(['com.gen.any', 'com.gen.two']);
    expect(await search('&homeyModel=hearth-pro-5q&homeyPlatformVersion=1&homeyVersion=12.0.0')).toEqual([
      'com.gen.any',
      'com.gen.one',
    ]);
    const app = await readJson(await api('GET', '/app/com.gen.two', null));
    expect(app.platformCompatibility).toEqual({ local: '>=2' });
    expect(await readJson(await api('GET', '/app/search?query=generation&homeyPlatformVersion=two', null))).toMatchObject({
      statusCode: 400,
      error: 'invalid_parameter',
    });
    // A range the catalogue cannot read fails the archive.
    const failed = await uploadBuild('com.gen.any', '1.0.1', { platformCompatibility: { local: 'newest please' } });
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringContaining('platformCompatibility') });
  });

  it('browses live apps by platform, connectivity, category and features, a page at a time', async () => {
    const kit = { category: ['browse-kit'] };
    await publish('com.kit.alpha', '1.0.0', { ...kit, flow: { actions: [{ id: 'go' }] } });
    await publish('com.kit.beta', '1.0.0', {
      category: ['browse-kit', 'security'],
      platforms: ['local', 'cloud'],
      drivers: [{ id: 'lock', name: { en: 'Lock' }, class: 'lock', capabilities: ['locked'], connectivity: ['zwave', 'lan'] }],
    });
    await publish('com.kit.gamma', '1.0.0', { ...kit, platforms: ['cloud'], drivers: [], settings: [{ id: 'token' }] });
    // Approved without release: not live, so never browsed.
    await publish('com.kit.delta', '1.0.0', kit, false);
    const browse = async (filters: string) => {
      const response = await api('GET', `/app/browse?${filters}`, null);
      expect(response.status).toBe(200);
      const { total, apps } = await readJson(response);
      return { total, ids: apps.map((a: Json) => a.id) };
    };
    const all = ['com.kit.gamma', 'com.kit.beta', 'com.kit.alpha'];
    expect(await browse('category=browse-kit')).toEqual({ total: 3, ids: all });
    expect(await browse('category=browse-kit&platform=cloud')).toEqual({ total: 2, ids: ['com.kit.gamma', 'com.kit.beta'] });
    expect(await browse('category=browse-kit&platform=local')).toEqual({ total: 2, ids: ['com.kit.beta', 'com.kit.alpha'] });
    expect(await browse('category=browse-kit&platform=cloud&platform=local')).toEqual({ total: 3, ids: all });
    expect(await browse('category=browse-kit&connectivity=zwave')).toEqual({ total: 1, ids: ['com.kit.beta'] });
    expect(await browse('category=browse-kit&connectivity=lan&connectivity=zigbee')).toEqual({
      total: 2,
      ids: ['com.kit.beta', 'com.kit.alpha'],
    });
    expect(await browse('category=browse-kit&features=drivers')).toEqual({ total: 2, ids: ['com.kit.beta', 'com.kit.alpha'] });
    expect(await browse('category=browse-kit&features=drivers&features=flow')).toEqual({ total: 1, ids: ['com.kit.alpha'] });
    expect(await browse('category=browse-kit&features=settings&platform=local')).toEqual({ total: 0, ids: [] });
    expect(await browse('category=browse-kit&category=security&connectivity=zwave')).toEqual({
      total: 1,
      ids: ['com.kit.beta'],
    });
    expect(await browse('category=browse-kit&limit=1&offset=1')).toEqual({ total: 3, ids: ['com.kit.beta'] });
    expect(await browse('category=browse-kit&offset=5')).toEqual({ total: 3, ids: [] });
    // Without filters every live app, newest first; a category nobody uses finds none.
    const every = await browse('limit=100');
    expect(every.ids.slice(0, 3)).toEqual(all);
    expect(every.ids).not.toContain('com.kit.delta');
    expect(every.total).toBe((await readJson(await api('GET', '/app/ids', null))).length);
    expect(await browse('category=nothing-here')).toEqual({ total: 0, ids: [] });
    expect(await readJson(await api('GET', '/app/browse?limit=0', null))).toMatchObject({ statusCode: 400 });
  });

  it('answers highlighted apps grouped by category, named and described in the asked language', async () => {
    const highlights = async (filters: string) => {
      const response = await api('GET', `/app/highlight2?${filters}`, null);
      expect(response.status).toBe(200);
      const apps = new Map<string, Json>();
      for (const group of (await readJson(response)) as Json[]) for (const app of group.apps) apps.set(app.id, app);
      return apps;
    };
    const dutch = await highlights('language=nl');
    expect(dutch.get('com.lumenco.lights')).toMatchObject({
      name: 'Lumen & Co Verlichting',
      // No Dutch description: the English one.
      description: 'Control your Lumen & Co Zigbee lights.',
    });
    expect(dutch.get('com.guardian.security')?.name).toBe('Guardian Security');
    expect((await highlights('language=de&platform=local')).get('com.guardian.security')?.name).toBe('Guardian Sicherheit');
    expect((await highlights('language=de-CH')).get('com.guardian.security')?.name).toBe('Guardian Sicherheit');
    expect((await highlights('language=fr')).get('com.lumenco.lights')?.name).toBe('Lumen & Co Lights');
    // Without a language every translation is answered.
    expect((await highlights('')).get('com.lumenco.lights')?.name).toEqual({
      en: 'Lumen & Co Lights',
      nl: 'Lumen & Co Verlichting',
    });
    expect(await readJson(await api('GET', '/app/highlight2?language=dutch', null))).toMatchObject({
      statusCode: 400,
      error: 'invalid_parameter',
    });
  });

  it('serves the demo catalogue: verified and community authors, each kind of support link, an update', async () => {
    const get = async (id: string) => readJson(await api('GET', `/app/${id}`, null));
    const lights = await get('com.lumenco.lights');
    expect(lights).toMatchObject({ liveVersion: '3.3.0', testVersion: '3.4.0-beta.1', author: { verified: true } });
    expect(lights.rating.count).toBe(1);
    expect((await get('com.guardian.security')).support).toBe('https://support.hearth.test/guardian');
    // The provider's own apps team publishes a first-party app: its author is one of the trusted authors.
    const chime = await get('com.hearth.chime');
    expect(chime).toMatchObject({ support: 'https://labs.hearth.app/chime', author: { verified: true } });
    expect(TRUSTED_APP_AUTHOR_IDS).toContain(chime.author._id);
    expect((await get('com.nordheat.climate')).support).toBe('mailto:support@nordheat.example');
    const weather = await get('com.openweather.station');
    expect(weather).toMatchObject({
      bugs: 'https://github.com/jdevries/com.openweather.station/issues',
      author: { verified: false },
    });
    expect(weather.support).toBeUndefined();
    expect(weather.liveBuild.bugs).toBe('https://github.com/jdevries/com.openweather.station/issues');
    const speakers = await get('com.soundwave.speakers');
    expect(speakers.homeyCommunityTopicId).toBe(48213);
    expect(speakers.liveBuild.homeyCommunityTopicId).toBe(48213);
    const blinds = await get('net.tinker.blinds');
    expect([blinds.support, blinds.bugs, blinds.homeyCommunityTopicId]).toEqual([undefined, undefined, undefined]);
    const install = await readJson(await api('GET', '/app/com.lumenco.lights/install?secret=hub&version=3.2.1', null));
    expect(install.version).toBe('3.2.1');
  });

  it('transfers an app to another author and deletes it', async () => {
    await publish('com.aurora.moved', '1.0.0');
    expect((await api('PUT', '/app/com.aurora.moved/author', other.token, { userId: other.id })).status).toBe(403);
    const moved = await readJson(await api('PUT', '/app/com.aurora.moved/author', dev.token, { userId: other.id }));
    expect(moved.author._id).toBe(other.id);
    expect((await api('PUT', '/app/com.aurora.moved/settings', dev.token, { sendEmailThanks: true })).status).toBe(403);
    expect(
      await readJson(await api('PUT', '/app/com.aurora.moved/settings', other.token, { sendEmailThanks: true })),
    ).toMatchObject({
      sendEmailThanks: true,
    });
    expect((await api('DELETE', '/app/com.aurora.moved', dev.token)).status).toBe(403);
    expect((await api('DELETE', '/app/com.aurora.moved', other.token)).status).toBe(204);
    expect((await api('GET', '/app/com.aurora.moved', null)).status).toBe(404);
  });
});

describe('search keys', () => {
  it('matches words within one edit', async () => {
    const { withinOneEdit } = await import('./search');
    expect(withinOneEdit('lumen', 'lumne')).toBe(true);
    expect(withinOneEdit('lumen', 'lumen')).toBe(true);
    expect(withinOneEdit('lumen', 'luen')).toBe(true);
    expect(withinOneEdit('lumen', 'lumenx')).toBe(true);
    expect(withinOneEdit('lumen', 'lxmex')).toBe(false);
    expect(withinOneEdit('abcde', 'bcdxe')).toBe(false);
  });

  it('scores exact words over prefixes over typos', async () => {
    const { matchScore } = await import('./search');
    expect(matchScore('lumenco', 'lumenco')).toBe(3);
    expect(matchScore('lum', 'lumenco')).toBe(2);
    expect(matchScore('lumneco', 'lumenco')).toBe(1);
    expect(matchScore('lumneco', 'lumencobulbs')).toBe(1);
    expect(matchScore('lumne', 'lumenco')).toBe(0);
    expect(matchScore('lux', 'lumenco')).toBe(0);
    expect(matchScore('lumxnxo', 'lumenco')).toBe(0);
  });
});
