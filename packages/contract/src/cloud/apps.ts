import { type TSchema, Type } from 'typebox';
import { APP_MANIFEST_LIMITS, FreeFormObject } from '../limits';
import { cloudService } from '../operation';
import { appsExamples } from './examples';

const op = cloudService('apps', '/apps');

const open = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: true });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const AppId = Type.String({ minLength: 3, maxLength: 200, pattern: '^[a-z0-9]+(\\.[a-z0-9_-]+)+$' });
const BuildId = Type.String({ pattern: '^[0-9]{1,12}$' });
const Version = Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$', maxLength: 64 });
const Language = Type.String({ pattern: '^[a-z]{2}(-[A-Za-z]{2})?$' });
const DateTime = Type.String({ format: 'date-time' });

/** Limits of the catalogue, enforced by the server and usable by forms. */
export const APPS_LIMITS = {
  /** Largest build archive accepted by `PUT /archive/:archiveId`. */
  maxArchiveBytes: 50 * 1024 * 1024,
  maxPageCount: 100,
  maxCommentLength: 5_000,
  maxStackLength: 20_000,
  minQueryLength: 1,
  maxQueryLength: 100,
} as const;

/** A text given once or per language: `"Lights"` or `{ "en": "Lights", "nl": "Verlichting" }`. */
export const TranslatedText = Type.Union([Type.String(), Type.Record(Type.String(), Type.String())]);
const PerLanguage = Type.Record(Type.String(), Type.String({ maxLength: 20_000 }));

/** The release channels: `stable` is live, `beta` is test, `alpha` is for the developer and testers. */
export const AppChannel = Type.Union([Type.Literal('stable'), Type.Literal('beta'), Type.Literal('alpha')]);

export const ArchiveState = Type.Union([
  Type.Literal('pending'),
  Type.Literal('processing'),
  Type.Literal('ready'),
  Type.Literal('failed'),
]);

export const SubmissionState = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('retracted'),
]);

export const AppDriver = open({
  id: Type.String(),
  name: Type.Optional(TranslatedText),
  class: Type.Optional(Type.String()),
  connectivity: Type.Array(Type.String()),
});

/** The manifest facts the hub, the support form and the catalogue use (extracted from the archive's app.json). */
export const AppFacts = open({
  name: TranslatedText,
  description: Type.Optional(TranslatedText),
  sdk: Type.Optional(Type.Number()),
  brandColor: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  support: Type.Optional(Type.String()),
  bugs: Type.Optional(Type.String()),
  homeyCommunityTopicId: Type.Optional(Type.Number()),
  category: Type.Array(Type.String()),
  platforms: Type.Array(Type.String()),
  compatibility: Type.Optional(Type.String()),
  /** Per platform (`local`, `cloud`), a semver range of the platform versions (hub generations) the app runs on. */
  platformCompatibility: Type.Optional(Type.Record(Type.String(), Type.String())),
  permissions: Type.Array(Type.String()),
  drivers: Type.Array(AppDriver),
});

export const AppArchive = open({
  _id: Type.String(),
  state: ArchiveState,
  error: Nullable(Type.String()),
  hash: Nullable(Type.String()),
  size: Nullable(Type.Number()),
  assetsId: Nullable(Type.String()),
  manifest: Nullable(open({})),
  uploadUrl: Type.String(),
});

export const AppSubmission = open({
  _id: Type.Number(),
  buildId: Type.Number(),
  state: SubmissionState,
  autoRelease: Type.Boolean(),
  createdAt: DateTime,
  decidedAt: Nullable(DateTime),
});

export const AppBuild = open({
  _id: Type.Number(),
  id: Type.Number(),
  appId: Type.String(),
  version: Type.String(),
  channel: Nullable(AppChannel),
  /** The build's environment (secrets of the app): only its author sees the values. */
  env: Type.Optional(open({})),
  changelog: open({}),
  readme: open({}),
  /** The build's name, colour, icon, links and drivers, as outside clients (the support form) read them. */
  name: Type.Optional(TranslatedText),
  brandColor: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  support: Type.Optional(Type.String()),
  bugs: Type.Optional(Type.String()),
  homeyCommunityTopicId: Type.Optional(Type.Number()),
  drivers: Type.Optional(Type.Array(AppDriver)),
  facts: Nullable(AppFacts),
  archive: AppArchive,
  submission: Nullable(AppSubmission),
  createdAt: DateTime,
  publishedAt: Nullable(DateTime),
});

export const AppAuthor = open({
  _id: Type.String(),
  name: Type.String(),
  /** The provider vouches for this developer (role `app_developer_trusted`). */
  verified: Type.Boolean(),
});

/** An app as the catalogue lists it. */
export const AppSummary = open({
  _id: Type.String(),
  id: Type.String(),
  name: TranslatedText,
  description: Type.Optional(TranslatedText),
  brandColor: Type.Optional(Type.String()),
  icon: Type.String(),
  author: AppAuthor,
  category: Type.Array(Type.String()),
  platforms: Type.Array(Type.String()),
  liveVersion: Nullable(Type.String()),
  testVersion: Nullable(Type.String()),
  support: Type.Optional(Type.String()),
  bugs: Type.Optional(Type.String()),
  homeyCommunityTopicId: Type.Optional(Type.Number()),
  drivers: Type.Array(AppDriver),
  rating: Type.Object({ average: Nullable(Type.Number()), count: Type.Number() }),
  installs: Type.Number(),
  highlighted: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

/** An app with its live and test builds. */
export const App = open({
  ...AppSummary.properties,
  liveBuild: Nullable(AppBuild),
  testBuild: Nullable(AppBuild),
});

export const AppInstall = open({
  id: Type.String(),
  version: Type.String(),
  channel: AppChannel,
  buildId: Type.Number(),
  manifest: open({}),
  archive: open({ url: Type.String(), hash: Type.String(), size: Type.Number() }),
});

export const AppReview = open({
  _id: Type.String(),
  userId: Type.String(),
  user: open({ _id: Type.String(), name: Type.String() }),
  version: Type.String(),
  rating: Type.Number(),
  comment: Type.String(),
  response: Nullable(open({ text: Type.String(), createdAt: DateTime })),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const AppReviewStats = Type.Object({
  count: Type.Number(),
  average: Nullable(Type.Number()),
  distribution: Type.Object({ 1: Type.Number(), 2: Type.Number(), 3: Type.Number(), 4: Type.Number(), 5: Type.Number() }),
});

export const AppThanks = Type.Object({ count: Type.Number(), thanked: Type.Boolean() });

export const AppCrash = open({
  _id: Type.String(),
  appId: Type.String(),
  buildId: Type.Number(),
  appVersion: Type.String(),
  homeyId: Type.String(),
  homeyVersion: Type.String(),
  homeyModelId: Nullable(Type.String()),
  homeyModelName: Nullable(Type.String()),
  stack: Type.String(),
  stackHash: Type.String(),
  createdAt: DateTime,
  repliedAt: Nullable(DateTime),
});

/** Crash reports with the same stack (hub-specific paths and numbers normalised away) form one group. */
export const AppCrashGroup = open({
  stackHash: Type.String(),
  stack: Type.String(),
  count: Type.Number(),
  homeys: Type.Number(),
  firstAt: DateTime,
  lastAt: DateTime,
  reports: Type.Array(AppCrash),
});

export const AppCrashStats = Type.Object({
  total: Type.Number(),
  groups: Type.Number(),
  homeys: Type.Number(),
  perDay: Type.Array(Type.Object({ date: Type.String(), count: Type.Number() })),
  perHomeyVersion: Type.Record(Type.String(), Type.Number()),
});

export const AppSettings = Type.Object({
  sendEmailCrash: Type.Boolean(),
  sendEmailSuggestion: Type.Boolean(),
  sendEmailThanks: Type.Boolean(),
});

export const AppSuggestion = open({
  _id: Type.Number(),
  userId: Type.String(),
  suggestionText: Type.String(),
  createdAt: DateTime,
});

export const AppSubmissionComment = open({
  _id: Type.Number(),
  userId: Type.String(),
  text: Type.String(),
  /** Whether the provider's reviewer (not the developer) wrote it. */
  reviewer: Type.Boolean(),
  createdAt: DateTime,
});

const AppParams = Type.Object({ appId: AppId });
const BuildParams = Type.Object({ appId: AppId, buildId: BuildId });
const Apps = Type.Array(AppSummary);
const DriverMatch = open({ app: AppSummary, driver: AppDriver });
const HubFilters = {
  homeyVersion: Type.Optional(Type.String({ maxLength: 64 })),
  homeyPlatform: Type.Optional(Type.String({ maxLength: 20 })),
  homeyMinimumSdkVersion: Type.Optional(Type.Number()),
};
const Hints = Type.Array(Type.Union([Type.String({ maxLength: 500 }), open({})]), { maxItems: 200 });

/** The app catalogue under `/apps`: apps, builds, archives, submissions, reviews, crashes and discovery. */
export const appsOperations = {
  updateArchive: op({
    name: 'updateArchive',
    method: 'PUT',
    path: '/archive/:archiveId',
    scope: null,
    params: Type.Object({ archiveId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
    body: Type.Object({
      state: Type.Optional(ArchiveState),
      error: Type.Optional(Type.String({ maxLength: 2000 })),
      manifest: Type.Optional(FreeFormObject(APP_MANIFEST_LIMITS)),
      assetsId: Type.Optional(Type.String({ maxLength: 200 })),
      hash: Type.Optional(Type.String({ maxLength: 200 })),
      size: Type.Optional(Type.Number({ minimum: 0 })),
    }),
    response: AppArchive,
    errors: ['not_found', 'forbidden', 'conflict', 'payload_too_large', 'unsupported_media_type'],
    summary:
      "Uploads a build's archive (the app package as tar.gz or zip, `Content-Type: application/gzip` or `application/zip`): " +
      'stored, hashed, its app.json validated and its facts extracted; the state moves from processing to ready or failed. ' +
      'The provider may instead set the state fields with a JSON body.',
  }),
  getApps: op({
    name: 'getApps',
    examples: appsExamples.getApps,
    method: 'GET',
    path: '/app',
    scope: null,
    auth: false,
    query: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: APPS_LIMITS.maxPageCount, default: 20 })),
      category: Type.Optional(Type.String({ maxLength: 100 })),
      author: Type.Optional(Type.String({ maxLength: 100 })),
    }),
    response: Apps,
    summary: 'Live apps, newest first, a page at a time; the total is in the `X-Total-Count` header.',
  }),
  searchApps: op({
    name: 'searchApps',
    method: 'GET',
    path: '/app/search',
    scope: null,
    auth: false,
    query: Type.Object({
      query: Type.String({ minLength: APPS_LIMITS.minQueryLength, maxLength: APPS_LIMITS.maxQueryLength }),
      language: Type.Optional(Language),
      homeyVersion: Type.Optional(Type.String({ maxLength: 64 })),
      homeyPlatform: Type.Optional(Type.String({ maxLength: 20 })),
      homeyPlatformVersion: Type.Optional(Type.String({ pattern: '^\\d{1,6}(\\.\\d{1,6}){0,2}$' })),
      homeyModel: Type.Optional(Type.String({ maxLength: 100 })),
    }),
    response: Apps,
    summary:
      'Live apps with a word matching each query word (exactly, as a prefix or with one typo) in their name (any ' +
      'language), id or description (in `language`, else English); names in `language` first. Only apps whose live ' +
      'build suits the hub: `homeyVersion` in its compatibility range, `homeyPlatform`, `homeyPlatformVersion` (the ' +
      "version of the hub's platform, its generation such as `1` or `2`) in the build's `platformCompatibility` range " +
      "for the hub's platform (from `homeyPlatform` or `homeyModel`, else any platform the app runs on; no range " +
      'accepts any), and `homeyModel` (its platform and hardware against `platformLocalRequiredFeatures`).',
  }),
  searchZigbeeDriver: op({
    name: 'searchZigbeeDriver',
    method: 'POST',
    path: '/app/search-zigbee-driver',
    scope: null,
    auth: false,
    query: Type.Object({ language: Type.Optional(Language) }),
    body: Type.Object({
      ...HubFilters,
      productId: Type.String({ minLength: 1, maxLength: 200 }),
      manufacturerName: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    response: Type.Array(DriverMatch),
    summary: 'Live drivers whose `zigbee` section lists this manufacturer name and product id.',
  }),
  searchZwaveDriver: op({
    name: 'searchZwaveDriver',
    method: 'POST',
    path: '/app/search-zwave-driver',
    scope: null,
    auth: false,
    query: Type.Object({ language: Type.Optional(Language) }),
    body: Type.Object({
      ...HubFilters,
      productId: Type.Integer({ minimum: 0 }),
      productTypeId: Type.Integer({ minimum: 0 }),
      manufacturerId: Type.Integer({ minimum: 0 }),
    }),
    response: Type.Array(DriverMatch),
    summary: 'Live drivers whose `zwave` section lists this manufacturer, product type and product id.',
  }),
  searchMatterDriver: op({
    name: 'searchMatterDriver',
    method: 'POST',
    path: '/app/search-matter-driver',
    scope: null,
    auth: false,
    query: Type.Object({ language: Type.Optional(Language) }),
    body: Type.Object({
      ...HubFilters,
      productId: Type.Integer({ minimum: 0 }),
      vendorId: Type.Integer({ minimum: 0 }),
    }),
    response: Type.Array(DriverMatch),
    summary: 'Live drivers whose `matter` section lists this vendor and product id.',
  }),
  browseApps: op({
    name: 'browseApps',
    method: 'GET',
    path: '/app/browse',
    scope: null,
    auth: false,
    query: Type.Object({
      query: Type.Optional(Type.String({ maxLength: APPS_LIMITS.maxQueryLength })),
      language: Type.Optional(Language),
      platform: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
      connectivity: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 20 })),
      category: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
      features: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: APPS_LIMITS.maxPageCount, default: 24 })),
      offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    }),
    response: Type.Object({ total: Type.Number(), apps: Apps }),
    summary:
      'Live apps with any of the asked platforms, driver connectivities and categories and every asked feature ' +
      '(`flow`, `drivers`, `settings`), a page at a time with the `total` of matches: newest first, or with `query` ' +
      "the search's answer (in `language`) filtered the same way.",
  }),
  syncApps: op({
    name: 'syncApps',
    method: 'POST',
    path: '/app/sync',
    scope: null,
    response: Type.Object({ apps: Type.Number(), keys: Type.Number() }),
    errors: ['forbidden'],
    summary: "Rebuilds the catalogue's search index from the live builds (the provider only).",
  }),
  getAppsSummary: op({
    name: 'getAppsSummary',
    method: 'GET',
    path: '/app/summary',
    scope: null,
    auth: false,
    query: Type.Object({ secret: Type.String({ minLength: 1, maxLength: 500 }) }),
    response: open({
      apps: Type.Number(),
      liveApps: Type.Number(),
      builds: Type.Number(),
      pendingSubmissions: Type.Number(),
      reviews: Type.Number(),
      crashes: Type.Number(),
      installs: Type.Number(),
    }),
    errors: ['forbidden'],
    summary: "Counts of the catalogue for the provider's dashboards; `secret` is the internal client secret.",
  }),
  getHighlightedApps: op({
    name: 'getHighlightedApps',
    method: 'GET',
    path: '/app/highlight',
    scope: null,
    auth: false,
    query: Type.Object({ platforms: Type.Optional(Type.String({ maxLength: 100 })) }),
    response: Apps,
    summary: 'Highlighted live apps; `platforms` is a comma-separated filter (`local,cloud`).',
  }),
  getHighlightedAppsV2: op({
    name: 'getHighlightedAppsV2',
    method: 'GET',
    path: '/app/highlight2',
    scope: null,
    auth: false,
    query: Type.Object({
      platform: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
      language: Type.Optional(Language),
      tags: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
    }),
    response: Type.Array(open({ title: Type.String(), apps: Apps })),
    summary:
      'Highlighted live apps grouped by category, filtered by platform and tags (categories). With `language` each ' +
      "app's `name` and `description` are the text in that language (`nl-BE`, then `nl`), else English.",
  }),
  getMyApps: op({
    name: 'getMyApps',
    method: 'GET',
    path: '/app/me',
    scope: null,
    response: Apps,
    errors: ['forbidden'],
    summary: "The signed-in developer's apps, published or not.",
  }),
  getAllLiveAppIDs: op({
    name: 'getAllLiveAppIDs',
    method: 'GET',
    path: '/app/ids',
    scope: null,
    auth: false,
    response: Type.Array(Type.String()),
    summary: 'The ids of every live app.',
  }),
  getAllLiveApps: op({
    name: 'getAllLiveApps',
    method: 'GET',
    path: '/app/all',
    scope: null,
    auth: false,
    response: Apps,
    summary: 'Every live app.',
  }),
  getReviewApps: op({
    name: 'getReviewApps',
    method: 'GET',
    path: '/app/review',
    scope: null,
    response: Type.Array(open({ app: AppSummary, build: AppBuild, submission: AppSubmission })),
    errors: ['forbidden'],
    summary: "Builds waiting for review (the provider's reviewers only, role `app_reviewer`).",
  }),
  getApp: op({
    name: 'getApp',
    examples: appsExamples.getApp,
    method: 'GET',
    path: '/app/:appId',
    scope: null,
    auth: false,
    params: AppParams,
    response: App,
    errors: ['not_found'],
    summary: 'An app with `liveBuild`, `testBuild` and `liveVersion`. Unpublished apps are visible to their author only.',
  }),
  deleteApp: op({
    name: 'deleteApp',
    method: 'DELETE',
    path: '/app/:appId',
    scope: null,
    params: AppParams,
    errors: ['not_found', 'forbidden'],
    summary: 'Removes an app with its builds, archives, reviews and reports (its author or the provider).',
  }),
  getAppSettings: op({
    name: 'getAppSettings',
    summary: "The developer's settings of an app in the catalogue.",
    method: 'GET',
    path: '/app/:appId/settings',
    scope: null,
    params: AppParams,
    response: AppSettings,
    errors: ['not_found', 'forbidden'],
  }),
  updateAppSettings: op({
    name: 'updateAppSettings',
    method: 'PUT',
    path: '/app/:appId/settings',
    scope: null,
    params: AppParams,
    body: Type.Object({
      sendEmailCrash: Type.Optional(Type.Boolean()),
      sendEmailSuggestion: Type.Optional(Type.Boolean()),
      sendEmailThanks: Type.Optional(Type.Boolean()),
    }),
    response: AppSettings,
    errors: ['not_found', 'forbidden'],
    summary: 'Which mails the author receives about crashes, suggestions and thanks.',
  }),
  getAppChangelog: op({
    name: 'getAppChangelog',
    method: 'GET',
    path: '/app/:appId/changelog',
    scope: null,
    auth: false,
    params: AppParams,
    response: Type.Record(Type.String(), open({})),
    errors: ['not_found'],
    summary: 'The changelog of every published version, newest first: `{ "<version>": { "<language>": "<text>" } }`.',
  }),
  updateAppAuthor: op({
    name: 'updateAppAuthor',
    method: 'PUT',
    path: '/app/:appId/author',
    scope: null,
    params: AppParams,
    body: Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: App,
    errors: ['not_found', 'forbidden'],
    summary: 'Transfers an app to another developer (its author or the provider).',
  }),
  getAppIcon: op({
    name: 'getAppIcon',
    method: 'GET',
    path: '/app/:appId/icon',
    scope: null,
    auth: false,
    params: AppParams,
    errors: ['not_found'],
    summary: "The app's icon (`assets/icon.svg` of the newest published archive) as SVG.",
  }),
  getAppInstall: op({
    name: 'getAppInstall',
    method: 'GET',
    path: '/app/:appId/install',
    scope: null,
    auth: false,
    params: AppParams,
    query: Type.Object({
      channel: Type.Optional(AppChannel),
      version: Type.Optional(Version),
      secret: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    response: AppInstall,
    errors: ['not_found'],
    summary:
      'What a hub needs to install a version: its manifest and archive address. `secret` identifies the installing hub ' +
      '(its id); install statistics count distinct hubs. Without `version`, the newest build of `channel` (default stable).',
  }),
  getAppInstallStats: op({
    name: 'getAppInstallStats',
    summary: 'How many hubs installed an app, over time.',
    method: 'GET',
    path: '/app/:appId/install/stats',
    scope: null,
    params: AppParams,
    response: Type.Object({
      total: Type.Number(),
      versions: Type.Record(Type.String(), Type.Number()),
      channels: Type.Record(Type.String(), Type.Number()),
    }),
    errors: ['not_found', 'forbidden'],
  }),
  getAppDriversStats: op({
    name: 'getAppDriversStats',
    method: 'GET',
    path: '/app/:appId/drivers/stats',
    scope: null,
    params: AppParams,
    response: Type.Array(open({ id: Type.String(), connectivity: Type.Array(Type.String()), installs: Type.Number() })),
    errors: ['not_found', 'forbidden'],
    summary: 'Each driver of the live build with the number of hubs that installed a version containing it.',
  }),
  getBuilds: op({
    name: 'getBuilds',
    summary: 'Every build of an app, newest first, with its state.',
    method: 'GET',
    path: '/app/:appId/build',
    scope: null,
    params: AppParams,
    response: Type.Array(AppBuild),
    errors: ['not_found', 'forbidden'],
  }),
  createBuild: op({
    name: 'createBuild',
    method: 'POST',
    path: '/app/:appId/build',
    scope: null,
    params: AppParams,
    body: Type.Object({
      version: Version,
      env: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 5000 }))),
      changelog: Type.Optional(PerLanguage),
      readme: Type.Optional(PerLanguage),
    }),
    response: AppBuild,
    successStatus: 201,
    errors: ['forbidden', 'conflict'],
    summary: 'Creates a build (and the app on its first build, owned by the caller). Upload its archive to `archive.uploadUrl`.',
  }),
  getBuild: op({
    name: 'getBuild',
    method: 'GET',
    path: '/app/:appId/build/:buildId',
    scope: null,
    auth: false,
    params: BuildParams,
    response: AppBuild,
    errors: ['not_found'],
    summary: 'A build: published builds are public (without `env`); others only for their author and reviewers.',
  }),
  getCrashes: op({
    name: 'getCrashes',
    method: 'GET',
    path: '/app/:appId/build/:buildId/crash',
    scope: null,
    params: BuildParams,
    response: Type.Array(AppCrashGroup),
    errors: ['not_found', 'forbidden'],
    summary: "Crash reports of a build grouped by stack, most frequent first (the app's author).",
  }),
  getCrashesStats: op({
    name: 'getCrashesStats',
    summary: 'How often a build crashed, over time.',
    method: 'GET',
    path: '/app/:appId/build/:buildId/crash/stats',
    scope: null,
    params: BuildParams,
    response: AppCrashStats,
    errors: ['not_found', 'forbidden'],
  }),
  updateBuildChannel: op({
    name: 'updateBuildChannel',
    method: 'POST',
    path: '/app/:appId/build/:buildId/channel',
    scope: null,
    params: BuildParams,
    body: Type.Object({ channel: AppChannel }),
    response: AppBuild,
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: 'Moves a build to a channel: `stable` (live; needs an approved submission), `beta` (test) or `alpha`.',
  }),
  createSubmission: op({
    name: 'createSubmission',
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission',
    scope: null,
    params: BuildParams,
    body: Type.Object({ autoRelease: Type.Optional(Type.Boolean({ default: true })) }),
    response: AppSubmission,
    successStatus: 201,
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: 'Submits a build with a ready archive for review; with `autoRelease` approval publishes it to stable.',
  }),
  getSubmissionComments: op({
    name: 'getSubmissionComments',
    summary: "The comments on a build's submission for review.",
    method: 'GET',
    path: '/app/:appId/build/:buildId/submission/comment',
    scope: null,
    params: BuildParams,
    response: Type.Array(AppSubmissionComment),
    errors: ['not_found', 'forbidden'],
  }),
  createSubmissionComment: op({
    name: 'createSubmissionComment',
    summary: "Comments on a build's submission (developer or reviewer).",
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/comment',
    scope: null,
    params: BuildParams,
    body: Type.Object({ text: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxCommentLength }) }),
    response: AppSubmissionComment,
    successStatus: 201,
    errors: ['not_found', 'forbidden'],
  }),
  retractSubmission: op({
    name: 'retractSubmission',
    summary: "Takes a build's submission back out of the review queue.",
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/retract',
    scope: null,
    params: BuildParams,
    response: AppSubmission,
    errors: ['not_found', 'forbidden', 'conflict'],
  }),
  approveSubmission: op({
    name: 'approveSubmission',
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/approve',
    scope: null,
    params: BuildParams,
    response: AppSubmission,
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: 'Approves a pending submission (reviewers only); with autoRelease the build goes live at once.',
  }),
  rejectSubmission: op({
    name: 'rejectSubmission',
    summary: "Rejects a build's submission, with the reviewer's reason (reviewers only).",
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/reject',
    scope: null,
    params: BuildParams,
    response: AppSubmission,
    errors: ['not_found', 'forbidden', 'conflict'],
  }),
  getReviews: op({
    name: 'getReviews',
    summary: "The reviews of an app, with their authors' ratings.",
    method: 'GET',
    path: '/app/:appId/review',
    scope: null,
    auth: false,
    params: AppParams,
    response: Type.Array(AppReview),
    errors: ['not_found'],
  }),
  updateReview: op({
    name: 'updateReview',
    method: 'PUT',
    path: '/app/:appId/review',
    scope: null,
    params: AppParams,
    body: Type.Object({
      version: Version,
      rating: Type.Integer({ minimum: 1, maximum: 5 }),
      comment: Type.Optional(Type.String({ maxLength: APPS_LIMITS.maxCommentLength })),
    }),
    response: AppReview,
    errors: ['not_found', 'forbidden', 'invalid_parameter'],
    summary: "Creates or replaces the caller's review of an app (one per user and app).",
  }),
  deleteReview: op({
    name: 'deleteReview',
    summary: "Deletes the signed-in account's review of an app.",
    method: 'DELETE',
    path: '/app/:appId/review',
    scope: null,
    params: AppParams,
    errors: ['not_found'],
  }),
  getThanks: op({
    name: 'getThanks',
    summary: "How many people thanked an app's developer, and whether you did.",
    method: 'GET',
    path: '/app/:appId/thanks',
    scope: null,
    auth: false,
    params: AppParams,
    response: AppThanks,
    errors: ['not_found'],
  }),
  sayThanks: op({
    name: 'sayThanks',
    summary: "Thanks an app's developer.",
    method: 'PUT',
    path: '/app/:appId/thanks',
    scope: null,
    params: AppParams,
    response: AppThanks,
    errors: ['not_found'],
  }),
  getReviewsStats: op({
    name: 'getReviewsStats',
    summary: "An app's rating: the average and how many reviews gave each score.",
    method: 'GET',
    path: '/app/:appId/review/stats',
    scope: null,
    auth: false,
    params: AppParams,
    response: AppReviewStats,
    errors: ['not_found'],
  }),
  deleteAllReviews: op({
    name: 'deleteAllReviews',
    method: 'DELETE',
    path: '/app/:appId/review/all',
    scope: null,
    params: AppParams,
    errors: ['not_found', 'forbidden'],
    summary: 'Removes every review of an app (the provider only).',
  }),
  updateReviewResponse: op({
    name: 'updateReviewResponse',
    method: 'PUT',
    path: '/app/:appId/review/:userId/response',
    scope: null,
    params: Type.Object({ appId: AppId, userId: Type.String({ minLength: 1, maxLength: 100 }) }),
    body: Type.Object({ response: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxCommentLength }) }),
    response: AppReview,
    errors: ['not_found', 'forbidden'],
    summary: "The developer's answer to a review (the app's author).",
  }),
  deleteReviewResponse: op({
    name: 'deleteReviewResponse',
    summary: "Deletes the developer's response to a review.",
    method: 'DELETE',
    path: '/app/:appId/review/:userId/response',
    scope: null,
    params: Type.Object({ appId: AppId, userId: Type.String({ minLength: 1, maxLength: 100 }) }),
    errors: ['not_found', 'forbidden'],
  }),
  createCrash: op({
    name: 'createCrash',
    method: 'POST',
    path: '/app/:appId/crash',
    scope: null,
    auth: false,
    params: AppParams,
    body: Type.Object({
      appVersion: Version,
      homeyId: Type.String({ minLength: 1, maxLength: 100 }),
      homeyVersion: Type.String({ minLength: 1, maxLength: 64 }),
      homeyModelId: Type.Optional(Type.String({ maxLength: 100 })),
      homeyModelName: Type.Optional(Type.String({ maxLength: 200 })),
      stack: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxStackLength }),
    }),
    response: Type.Object({ _id: Type.String(), stackHash: Type.String() }),
    successStatus: 201,
    errors: ['not_found'],
    summary: 'A hub reports that an app crashed.',
  }),
  replyToCrash: op({
    name: 'replyToCrash',
    method: 'POST',
    path: '/app/crash/:crashId/reply',
    scope: null,
    params: Type.Object({ crashId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
    body: Type.Object({
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      body: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxCommentLength }),
      from: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    response: Type.Object({ _id: Type.String(), repliedAt: DateTime }),
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: "The developer's reply to a crash report, mailed to the owner of the hub that reported it.",
  }),
  discoverApps: op({
    name: 'discoverApps',
    method: 'POST',
    path: '/discover',
    scope: null,
    auth: false,
    body: Type.Object({
      ssdp: Type.Optional(Hints),
      ble: Type.Optional(Hints),
      mac: Type.Optional(Hints),
      'mdns-sd': Type.Optional(Hints),
    }),
    response: Type.Array(open({ app: AppSummary, strategies: Type.Array(Type.String()) })),
    summary: 'Live apps whose discovery strategies match what a hub sees on its network (ssdp, ble, mac, mdns-sd).',
  }),
  getAppSuggestions: op({
    name: 'getAppSuggestions',
    summary: "Suggestions people sent the app's developer, with who sent each and when.",
    method: 'GET',
    path: '/app/:appId/suggestion',
    scope: null,
    params: AppParams,
    query: Type.Object({
      offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
      length: Type.Optional(Type.Integer({ minimum: 1, maximum: APPS_LIMITS.maxPageCount, default: 20 })),
    }),
    response: Type.Array(AppSuggestion),
    errors: ['not_found', 'forbidden'],
  }),
  createAppSuggestion: op({
    name: 'createAppSuggestion',
    summary: "Sends the app's developer a suggestion.",
    method: 'POST',
    path: '/app/:appId/suggestion',
    scope: null,
    params: AppParams,
    body: Type.Object({ suggestionText: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxCommentLength }) }),
    response: AppSuggestion,
    successStatus: 201,
    errors: ['not_found'],
  }),
} as const;
