import { type TSchema, Type } from 'typebox';
import { DateTime, open } from './apps-helpers';

// The catalogue's records as the `apps` service answers with them, and its limits.
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

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
