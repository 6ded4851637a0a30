import { cloudOperations } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  describeOnDatabases,
  INTERNAL_SECRET,
  internalToken,
  type Json,
  readJson,
  startTestCloud,
} from '../../testing';
import { REVIEWER_ROLE } from './access';
import { demoArchive } from './seed';

type CallerName = 'anonymous' | 'user' | 'author' | 'reviewer' | 'provider';
const CALLERS: CallerName[] = ['anonymous', 'user', 'author', 'reviewer', 'provider'];
const ORDER: CallerName[] = ['anonymous', 'user', 'reviewer', 'author', 'provider'];

/**
 * Who may call what, one letter per caller in the order anonymous, signed-in user, the app's author, a reviewer
 * (role `app_reviewer`), the provider (internal client): `o` passes authorization (any answer but 401/403), `1` is
 * refused with 401 (no token), `3` with 403.
 */
const PUBLIC = 'ooooo';
const ACCOUNT = '1ooo3'; // a person's own account: the internal client acts for nobody
const AUTHOR = '13o3o';
const AUTHOR_ACCOUNT = '13o33'; // creating builds needs the author's own account
const AUTHOR_OR_REVIEWER = '13ooo';
const REVIEWER = '133oo';
const PROVIDER = '1333o';

interface Fixture {
  app: string;
  build: number;
  archive: string;
  crash: string;
  userId: string;
  authorId: string;
  zip: Buffer;
}

type Row = [rule: string, method: string, path: (f: Fixture) => string, body?: (f: Fixture) => unknown];

const table: Record<keyof typeof cloudOperations.apps, Row> = {
  updateArchive: [AUTHOR, 'PUT', (f) => `/archive/${f.archive}`, (f) => f.zip],
  getApps: [PUBLIC, 'GET', () => '/app'],
  searchApps: [PUBLIC, 'GET', () => '/app/search?query=authz'],
  searchZigbeeDriver: [PUBLIC, 'POST', () => '/app/search-zigbee-driver', () => ({ productId: 'a', manufacturerName: 'b' })],
  searchZwaveDriver: [
    PUBLIC,
    'POST',
    () => '/app/search-zwave-driver',
    () => ({ productId: 1, productTypeId: 2, manufacturerId: 3 }),
  ],
  searchMatterDriver: [PUBLIC, 'POST', () => '/app/search-matter-driver', () => ({ productId: 1, vendorId: 2 })],
  browseApps: [PUBLIC, 'GET', () => '/app/browse'],
  syncApps: [PROVIDER, 'POST', () => '/app/sync', () => ({})],
  getAppsSummary: [PUBLIC, 'GET', () => `/app/summary?secret=${INTERNAL_SECRET}`],
  getHighlightedApps: [PUBLIC, 'GET', () => '/app/highlight'],
  getHighlightedAppsV2: [PUBLIC, 'GET', () => '/app/highlight2'],
  getMyApps: [ACCOUNT, 'GET', () => '/app/me'],
  getAllLiveAppIDs: [PUBLIC, 'GET', () => '/app/ids'],
  getAllLiveApps: [PUBLIC, 'GET', () => '/app/all'],
  getReviewApps: [REVIEWER, 'GET', () => '/app/review'],
  getApp: [PUBLIC, 'GET', (f) => `/app/${f.app}`],
  deleteApp: [AUTHOR, 'DELETE', () => '/app/com.authz.doomed'],
  getAppSettings: [AUTHOR, 'GET', (f) => `/app/${f.app}/settings`],
  updateAppSettings: [AUTHOR, 'PUT', (f) => `/app/${f.app}/settings`, () => ({ sendEmailThanks: false })],
  getAppChangelog: [PUBLIC, 'GET', (f) => `/app/${f.app}/changelog`],
  updateAppAuthor: [AUTHOR, 'PUT', (f) => `/app/${f.app}/author`, (f) => ({ userId: f.authorId })],
  getAppIcon: [PUBLIC, 'GET', (f) => `/app/${f.app}/icon`],
  getAppInstall: [PUBLIC, 'GET', (f) => `/app/${f.app}/install?secret=${DEMO_HUBS[0]?.id}`],
  getAppInstallStats: [AUTHOR, 'GET', (f) => `/app/${f.app}/install/stats`],
  getAppDriversStats: [AUTHOR, 'GET', (f) => `/app/${f.app}/drivers/stats`],
  getBuilds: [AUTHOR, 'GET', (f) => `/app/${f.app}/build`],
  createBuild: [AUTHOR_ACCOUNT, 'POST', (f) => `/app/${f.app}/build`, () => ({ version: '9.0.0' })],
  getBuild: [PUBLIC, 'GET', (f) => `/app/${f.app}/build/${f.build}`],
  getCrashes: [AUTHOR, 'GET', (f) => `/app/${f.app}/build/${f.build}/crash`],
  getCrashesStats: [AUTHOR, 'GET', (f) => `/app/${f.app}/build/${f.build}/crash/stats`],
  updateBuildChannel: [AUTHOR, 'POST', (f) => `/app/${f.app}/build/${f.build}/channel`, () => ({ channel: 'stable' })],
  createSubmission: [AUTHOR, 'POST', (f) => `/app/${f.app}/build/${f.build}/submission`, () => ({})],
  getSubmissionComments: [AUTHOR_OR_REVIEWER, 'GET', (f) => `/app/${f.app}/build/${f.build}/submission/comment`],
  createSubmissionComment: [
    '13oo3', // the internal client has no account to sign a comment with
    'POST',
    (f) => `/app/${f.app}/build/${f.build}/submission/comment`,
    () => ({ text: 'A comment' }),
  ],
  retractSubmission: [AUTHOR, 'POST', (f) => `/app/${f.app}/build/${f.build}/submission/retract`, () => ({})],
  approveSubmission: [REVIEWER, 'POST', (f) => `/app/${f.app}/build/${f.build}/submission/approve`, () => ({})],
  rejectSubmission: [REVIEWER, 'POST', (f) => `/app/${f.app}/build/${f.build}/submission/reject`, () => ({})],
  getReviews: [PUBLIC, 'GET', (f) => `/app/${f.app}/review`],
  updateReview: [ACCOUNT, 'PUT', (f) => `/app/${f.app}/review`, () => ({ version: '1.0.0', rating: 4 })],
  deleteReview: [ACCOUNT, 'DELETE', () => '/app/com.authz.reviews/review'],
  getThanks: [PUBLIC, 'GET', (f) => `/app/${f.app}/thanks`],
  sayThanks: [ACCOUNT, 'PUT', (f) => `/app/${f.app}/thanks`, () => ({})],
  getReviewsStats: [PUBLIC, 'GET', (f) => `/app/${f.app}/review/stats`],
  deleteAllReviews: [PROVIDER, 'DELETE', () => '/app/com.authz.reviews/review/all'],
  updateReviewResponse: [AUTHOR, 'PUT', (f) => `/app/${f.app}/review/${f.userId}/response`, () => ({ response: 'Thanks' })],
  deleteReviewResponse: [AUTHOR, 'DELETE', (f) => `/app/${f.app}/review/${f.userId}/response`],
  createCrash: [
    PUBLIC,
    'POST',
    (f) => `/app/${f.app}/crash`,
    () => ({ appVersion: '1.0.0', homeyId: DEMO_HUBS[0]?.id, homeyVersion: '12.1.0', stack: 'Error: x' }),
  ],
  replyToCrash: [AUTHOR, 'POST', (f) => `/app/crash/${f.crash}/reply`, () => ({ subject: 'Hi', body: 'Fixed' })],
  discoverApps: [PUBLIC, 'POST', () => '/discover', () => ({ 'mdns-sd': ['_authz._tcp'] })],
  getAppSuggestions: [AUTHOR, 'GET', (f) => `/app/${f.app}/suggestion`],
  createAppSuggestion: [ACCOUNT, 'POST', (f) => `/app/${f.app}/suggestion`, () => ({ suggestionText: 'More' })],
};

describeOnDatabases('app catalogue authorization', (backend) => {
  let cloud: Cloud;
  let fixture: Fixture;
  const tokens = {} as Record<CallerName, string | null>;

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    const author = await createUser(cloud, 'author@authz.test');
    const user = await createUser(cloud, 'user@authz.test');
    const reviewer = await createUser(cloud, 'reviewer@authz.test');
    await cloud.context.database.db
      .updateTable('users')
      .set({ role_ids: JSON.stringify([REVIEWER_ROLE]) })
      .where('id', '=', reviewer.id)
      .execute();
    Object.assign(tokens, {
      anonymous: null,
      user: user.token,
      author: author.token,
      reviewer: reviewer.token,
      provider: await internalToken(cloud),
    });
    const manifestOf = (app: string) => ({
      id: app,
      version: '1.0.0',
      sdk: 3,
      name: 'Authz',
      author: { name: 'A', email: 'a@b.c' },
      drivers: [{ id: 'd', name: 'D', class: 'other', capabilities: [], connectivity: ['lan'] }],
    });
    const publish = async (app: string) => {
      const build = await readJson(await call(cloud, 'POST', `/apps/app/${app}/build`, author.token, { version: '1.0.0' }));
      await fetch(`${cloud.url}/apps/archive/${build.archive._id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/zip' },
        body: demoArchive(manifestOf(app)),
      });
      await call(cloud, 'POST', `/apps/app/${app}/build/${build._id}/submission`, author.token, {});
      await call(cloud, 'POST', `/apps/app/${app}/build/${build._id}/submission/approve`, reviewer.token, {});
      return build as Json;
    };
    const build = await publish('com.authz.app');
    await publish('com.authz.doomed');
    await publish('com.authz.reviews');
    await call(cloud, 'PUT', '/apps/app/com.authz.app/review', user.token, { version: '1.0.0', rating: 5 });
    await call(cloud, 'GET', `/apps/app/com.authz.app/install?secret=${DEMO_HUBS[0]?.id}`, null);
    const crash = await readJson(
      await call(cloud, 'POST', '/apps/app/com.authz.app/crash', null, {
        appVersion: '1.0.0',
        homeyId: DEMO_HUBS[0]?.id,
        homeyVersion: '12.1.0',
        stack: 'Error: boom',
      }),
    );
    fixture = {
      app: 'com.authz.app',
      build: build._id,
      archive: build.archive._id,
      crash: crash._id,
      userId: user.id,
      authorId: author.id,
      zip: demoArchive(manifestOf('com.authz.app')),
    };
  });
  afterAll(async () => {
    await cloud?.stop();
  });

  it('declares a rule for every operation of the catalogue', () => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(cloudOperations.apps).sort());
  });

  it('lets each caller do what its rule says, and nothing more', async () => {
    const outcomes: string[] = [];
    for (const [name, [rule, method, path, body]] of Object.entries(table)) {
      // Refusals first, so that a destructive call the author may make (delete) runs after them.
      for (const caller of ORDER) {
        const index = CALLERS.indexOf(caller);
        const payload = body?.(fixture);
        const token = tokens[caller];
        const response = Buffer.isBuffer(payload)
          ? await fetch(`${cloud.url}/apps${path(fixture)}`, {
              method,
              headers: { 'content-type': 'application/zip', ...(token ? { authorization: `Bearer ${token}` } : {}) },
              body: payload,
            })
          : await call(cloud, method, `/apps${path(fixture)}`, token, payload);
        await response.arrayBuffer();
        const got = response.status === 401 ? '1' : response.status === 403 ? '3' : response.status < 500 ? 'o' : '5';
        outcomes.push(
          `${name} as ${caller}: ${got === rule[index] ? 'as expected' : `got ${response.status}, expected ${rule[index]}`}`,
        );
      }
    }
    expect(outcomes.filter((o) => !o.endsWith('as expected'))).toEqual([]);
  }, 180_000); // 250 calls one after the other
});
