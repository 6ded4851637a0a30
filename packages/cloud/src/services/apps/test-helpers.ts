import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Cloud } from '../../server';
import { type Backend, call, createUser, type Json, readJson, signIn, startTestCloud } from '../../testing';
import { REVIEWER_ROLE } from './access';

// Test helpers of the catalogue's suites: app packages made as a developer's CLI makes them, and a cloud with a
// developer, another user and a reviewer.

/** An app package as tar.gz, made with the `tar` library from a folder on disk, like a developer's CLI would. */
export async function tarball(manifest: Record<string, unknown>, icon = true): Promise<Buffer> {
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

export const manifestOf = (id: string, version: string, extra: Record<string, unknown> = {}) => ({
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

export const upload = (cloud: Cloud, archiveId: string, token: string | null, data: Buffer, type = 'application/gzip') =>
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

interface Account {
  id: string;
  token: string;
}

/** A suite's cloud and people (set before its first test), and the catalogue's calls as they make them. */
export interface Catalogue {
  cloud: Cloud;
  dev: Account;
  other: Account;
  reviewer: Account;
  demoToken: string;
  api(method: string, path: string, token: string | null, body?: unknown): Promise<Response>;
  /** Creates a build and uploads its archive; answers the archive. */
  uploadBuild(appId: string, version: string, extra: Record<string, unknown>): Promise<Json>;
  /** Creates a build, uploads its archive, submits it and has the reviewer approve it; answers the build. */
  publish(appId: string, version: string, extra?: Record<string, unknown>, autoRelease?: boolean): Promise<Json>;
}

/** Starts a test cloud on `backend` before the suite's tests, with its people, and stops it after them. */
export function useCatalogue(backend: Backend): Catalogue {
  const catalogue = {} as Catalogue;
  const api = (method: string, path: string, token: string | null, body?: unknown) =>
    call(catalogue.cloud, method, `/apps${path}`, token, body);

  async function uploadBuild(appId: string, version: string, extra: Record<string, unknown>) {
    const { cloud, dev } = catalogue;
    const build = await readJson(await api('POST', `/app/${appId}/build`, dev.token, { version }));
    return readJson(await upload(cloud, build.archive._id, dev.token, await tarball(manifestOf(appId, version, extra))));
  }

  async function publish(appId: string, version: string, extra: Record<string, unknown> = {}, autoRelease = true) {
    const { cloud, dev, reviewer } = catalogue;
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
    const cloud = await startTestCloud(backend);
    catalogue.cloud = cloud;
    catalogue.dev = await createUser(cloud, 'dev@apps.test');
    catalogue.other = await createUser(cloud, 'other@apps.test');
    catalogue.reviewer = await createUser(cloud, 'reviewer@apps.test');
    await giveRole(cloud, catalogue.reviewer.id, REVIEWER_ROLE);
    catalogue.demoToken = (await signIn(cloud)).access_token;
  });
  afterAll(async () => {
    await catalogue.cloud?.stop();
  });
  return Object.assign(catalogue, { api, uploadBuild, publish });
}
