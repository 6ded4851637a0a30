import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { DEMO_HUBS, describeOnDatabases, internalToken, type Json, readJson } from '../../testing';
import { demoArchive } from './seed';
import { manifestOf, tarball, upload, useCatalogue } from './test-helpers';

describeOnDatabases('app catalogue: publishing', (backend) => {
  const catalogue = useCatalogue(backend);
  const { api, publish } = catalogue;

  it('publishes an app through build, archive upload, submission and approval; a hub installs it', async () => {
    const { cloud, dev, reviewer } = catalogue;
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
    const { cloud, dev, other } = catalogue;
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
    const { cloud, dev, other, reviewer } = catalogue;
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

  it('transfers an app to another author and deletes it', async () => {
    const { dev, other } = catalogue;
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
