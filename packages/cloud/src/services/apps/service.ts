import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import semver from 'semver';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext } from '../../platform/context';
import { newId } from '../../platform/tokens';
import {
  type Caller,
  isAuthor,
  requireAccount,
  requireAuthor,
  requireProvider,
  requireReviewer,
  TRUSTED_DEVELOPER_ROLE,
} from './access';
import {
  type AppFactsValue,
  ArchiveError,
  checkPackageManifest,
  type FactsDriver,
  factsOf,
  type PackageManifest,
  readArchive,
  type Translation,
} from './archive';
import { compatible, type HubFilter, hubVersion, judgedPlatforms, modelFacts, PLATFORMS } from './compatibility';
import { dictionaryOf, lookupKeys, matchScore, postingsOf, searchDocumentOf, wordsOf } from './search';
import type { AppBuildsTable, AppSettingsValue, AppsTable, Channel } from './tables';

type BuildRow = Selectable<AppBuildsTable>;
type AppRow = Selectable<AppsTable>;

const DEFAULT_SETTINGS: AppSettingsValue = { sendEmailCrash: true, sendEmailSuggestion: true, sendEmailThanks: false };
const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
const num = (value: unknown): number => Number(value ?? 0);
/** A driver as the catalogue answers it: what the hub and the support form read of it. */
const driverRecord = (d: FactsDriver) => ({ id: d.id, name: d.name, class: d.class, connectivity: d.connectivity });
/** Most search answers returned. */
const SEARCH_LIMIT = 50;
/** Most words of a query searched for. */
const QUERY_WORDS = 8;

/** Archives and their icons live in the blob store every node of the cloud shares, under these keys. */
const archiveKey = (file: string) => `apps/archives/${file}`;
const iconKey = (archiveId: string) => `apps/archives/${archiveId}.icon.svg`;

/** How an installing hub is recorded: the SHA-256 of the `secret` it installs with (its id). */
const hubKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Normalises a stack so that reports of the same fault from different hubs group together. */
export function stackHash(stack: string): string {
  const normal = stack
    .split('\n')
    .slice(0, 12)
    .map((line) =>
      line
        .trim()
        .replace(/\(\/[^)]*\/(app|node_modules)\//g, '($1/')
        .replace(/:\d+:\d+\)?$/, ''),
    )
    .join('\n');
  return createHash('sha256').update(normal).digest('hex').slice(0, 16);
}

/** The app catalogue's logic over the database and the archive directory. */
export class AppCatalogue {
  readonly db: Kysely<CloudSchema>;
  readonly publicUrl: string;

  constructor(private readonly context: CloudContext) {
    this.db = context.database.db;
    this.publicUrl = context.config.publicUrl.replace(/\/$/, '');
  }

  // ---------------------------------------------------------------- records

  iconUrl = (appId: string) => `${this.publicUrl}/apps/app/${appId}/icon`;
  uploadUrl = (archiveId: string) => `${this.publicUrl}/apps/archive/${archiveId}`;
  downloadUrl = (archiveId: string) => `${this.publicUrl}/apps/archive/${archiveId}/download`;

  /** Summaries read one row per app: the publication, rating and install figures are kept on the app itself. */
  private summaryQuery() {
    return this.db
      .selectFrom('apps as a')
      .innerJoin('users as u', 'u.id', 'a.author_user_id')
      .select([
        'a.id',
        'a.author_user_id',
        'a.highlighted',
        'a.created_at',
        'a.updated_at',
        'a.live_build_id',
        'a.test_build_id',
        'a.live_version',
        'a.test_version',
        'a.facts',
        'a.rating_sum',
        'a.rating_count',
        'a.installs',
        'u.firstname',
        'u.lastname',
        'u.role_ids',
      ]);
  }

  private summaryRecord(row: Awaited<ReturnType<ReturnType<AppCatalogue['summaryQuery']>['executeTakeFirstOrThrow']>>) {
    const facts = row.facts as AppFactsValue | null;
    const average = row.rating_count === 0 ? null : Math.round((row.rating_sum / row.rating_count) * 100) / 100;
    return {
      _id: row.id,
      id: row.id,
      name: facts?.name ?? row.id,
      ...(facts?.description !== undefined ? { description: facts.description } : {}),
      ...(facts?.brandColor ? { brandColor: facts.brandColor } : {}),
      icon: this.iconUrl(row.id),
      author: {
        _id: row.author_user_id,
        name: `${row.firstname} ${row.lastname}`.trim(),
        verified: (row.role_ids ?? []).includes(TRUSTED_DEVELOPER_ROLE),
      },
      category: facts?.category ?? [],
      tags: facts?.tags ?? [],
      platforms: facts?.platforms ?? ['local'],
      features: facts?.features ?? [],
      liveVersion: row.live_version ?? null,
      testVersion: row.test_version ?? null,
      ...(facts?.support ? { support: facts.support } : {}),
      ...(facts?.bugs ? { bugs: facts.bugs } : {}),
      ...(facts?.homeyCommunityTopicId ? { homeyCommunityTopicId: facts.homeyCommunityTopicId } : {}),
      ...(facts?.compatibility ? { compatibility: facts.compatibility } : {}),
      ...(facts?.platformCompatibility ? { platformCompatibility: facts.platformCompatibility } : {}),
      sdk: facts?.sdk ?? null,
      drivers: (facts?.drivers ?? []).map(driverRecord),
      rating: { average, count: row.rating_count },
      installs: row.installs,
      highlighted: row.highlighted,
      createdAt: iso(row.created_at) as string,
      updatedAt: iso(row.updated_at) as string,
    };
  }

  /** The summaries of apps matching `where`, in `order`. */
  private async summaries(filter: (q: ReturnType<AppCatalogue['summaryQuery']>) => ReturnType<AppCatalogue['summaryQuery']>) {
    const rows = await filter(this.summaryQuery()).execute();
    return rows.map((row) => this.summaryRecord(row));
  }

  private async summaryOf(appId: string) {
    const row = await this.summaryQuery().where('a.id', '=', appId).executeTakeFirst();
    if (!row) throw notFound('App', appId);
    return this.summaryRecord(row);
  }

  private async buildRecord(build: BuildRow, withEnv: boolean) {
    const archive = await this.db
      .selectFrom('app_archives')
      .selectAll()
      .where('id', '=', build.archive_id)
      .executeTakeFirstOrThrow();
    const submission = await this.db
      .selectFrom('app_submissions')
      .selectAll()
      .where('build_id', '=', build.id)
      .executeTakeFirst();
    return {
      _id: build.id,
      id: build.id,
      appId: build.app_id,
      version: build.version,
      channel: build.channel,
      ...(withEnv ? { env: build.env } : {}),
      changelog: build.changelog,
      readme: build.readme,
      ...this.buildFacts(build.app_id, build.facts as AppFactsValue | null),
      facts: build.facts as AppFactsValue | null,
      archive: this.archiveRecord(archive),
      submission: submission ? this.submissionRecord(submission) : null,
      createdAt: iso(build.created_at) as string,
      publishedAt: iso(build.published_at),
    };
  }

  /**
   * What the support form and other outside clients read at a build's top level (the ecosystem's apps API has
   * them there): the build's own name, colour, links and drivers, and the app's icon.
   */
  private buildFacts(appId: string, facts: AppFactsValue | null) {
    if (!facts) return {};
    return {
      name: facts.name,
      ...(facts.brandColor ? { brandColor: facts.brandColor } : {}),
      icon: this.iconUrl(appId),
      ...(facts.support ? { support: facts.support } : {}),
      ...(facts.bugs ? { bugs: facts.bugs } : {}),
      ...(facts.homeyCommunityTopicId ? { homeyCommunityTopicId: facts.homeyCommunityTopicId } : {}),
      drivers: (facts.drivers ?? []).map(driverRecord),
    };
  }

  private archiveRecord(archive: Selectable<CloudSchema['app_archives']>) {
    return {
      _id: archive.id,
      state: archive.state,
      error: archive.error,
      hash: archive.hash,
      size: archive.size === null ? null : Number(archive.size),
      assetsId: archive.assets_id,
      manifest: archive.manifest,
      uploadUrl: this.uploadUrl(archive.id),
    };
  }

  private submissionRecord(row: Selectable<CloudSchema['app_submissions']>) {
    return {
      _id: row.id,
      buildId: row.build_id,
      state: row.state,
      autoRelease: row.auto_release,
      createdAt: iso(row.created_at) as string,
      decidedAt: iso(row.decided_at),
    };
  }

  // ---------------------------------------------------------------- apps

  async appRow(appId: string): Promise<AppRow> {
    const app = await this.db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
    if (!app) throw notFound('App', appId);
    return app;
  }

  /** An app the caller may see: published (live or test) apps are public, others only their author's. */
  async visibleApp(appId: string, caller: Caller): Promise<AppRow> {
    const app = await this.appRow(appId);
    if (app.live_build_id === null && app.test_build_id === null && !isAuthor(caller, app.author_user_id) && !caller.reviewer)
      throw notFound('App', appId);
    return app;
  }

  async authoredApp(appId: string, caller: Caller): Promise<AppRow> {
    const app = await this.appRow(appId);
    requireAuthor(caller, app.author_user_id);
    return app;
  }

  private async buildRow(appId: string, buildId: string | number): Promise<BuildRow> {
    const build = await this.db
      .selectFrom('app_builds')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', Number(buildId))
      .executeTakeFirst();
    if (!build) throw notFound('Build', String(buildId));
    return build;
  }

  async getApp(appId: string, caller: Caller) {
    const app = await this.visibleApp(appId, caller);
    const author = isAuthor(caller, app.author_user_id);
    const build = async (id: number | null) => (id === null ? null : this.buildRecord(await this.buildRow(appId, id), author));
    return {
      ...(await this.summaryOf(appId)),
      liveBuild: await build(app.live_build_id),
      testBuild: await build(app.test_build_id),
    };
  }

  async deleteApp(appId: string, caller: Caller) {
    await this.authoredApp(appId, caller);
    const archives = await this.db
      .selectFrom('app_archives as r')
      .innerJoin('app_builds as b', 'b.id', 'r.build_id')
      .select(['r.id', 'r.file'])
      .where('b.app_id', '=', appId)
      .execute();
    await this.db.deleteFrom('apps').where('id', '=', appId).execute();
    for (const archive of archives) {
      if (archive.file) await this.context.blobs.delete(archiveKey(archive.file));
      await this.context.blobs.delete(iconKey(archive.id));
    }
  }

  async getSettings(appId: string, caller: Caller) {
    return (await this.authoredApp(appId, caller)).settings;
  }

  async updateSettings(appId: string, caller: Caller, changes: Partial<AppSettingsValue>) {
    const app = await this.authoredApp(appId, caller);
    const settings = { ...DEFAULT_SETTINGS, ...app.settings, ...changes };
    await this.db
      .updateTable('apps')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', appId)
      .execute();
    return settings;
  }

  async changelog(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const builds = await this.db
      .selectFrom('app_builds')
      .select(['version', 'changelog'])
      .where('app_id', '=', appId)
      .where('published_at', 'is not', null)
      .execute();
    builds.sort((a, b) => semver.rcompare(a.version, b.version));
    return Object.fromEntries(builds.map((b) => [b.version, b.changelog]));
  }

  async transferAuthor(appId: string, caller: Caller, userId: string) {
    await this.authoredApp(appId, caller);
    const user = await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound('User', userId);
    await this.db.updateTable('apps').set({ author_user_id: userId, updated_at: new Date() }).where('id', '=', appId).execute();
    return this.getApp(appId, { ...caller, provider: true });
  }

  async icon(appId: string): Promise<Buffer> {
    const row = await this.db
      .selectFrom('apps as a')
      .innerJoin('app_builds as b', 'b.app_id', 'a.id')
      .innerJoin('app_archives as r', 'r.id', 'b.archive_id')
      .select(['r.id'])
      .where('a.id', '=', appId)
      .where('r.has_icon', '=', true)
      .where('b.channel', 'is not', null)
      .orderBy('b.published_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) throw notFound('Icon of app', appId);
    const icon = await this.context.blobs.get(iconKey(row.id));
    if (!icon) throw notFound('Icon of app', appId);
    return Buffer.concat(await icon.body.toArray());
  }

  // ---------------------------------------------------------------- builds and archives

  async getBuilds(appId: string, caller: Caller) {
    await this.authoredApp(appId, caller);
    const builds = await this.db.selectFrom('app_builds').selectAll().where('app_id', '=', appId).orderBy('id', 'desc').execute();
    return Promise.all(builds.map((b) => this.buildRecord(b, true)));
  }

  async getBuild(appId: string, buildId: string, caller: Caller) {
    const app = await this.appRow(appId);
    const author = isAuthor(caller, app.author_user_id);
    const build = await this.buildRow(appId, buildId);
    // Published builds are public (without their environment); the rest belongs to the author and reviewers.
    if (!author && !caller.reviewer && build.channel === null) throw notFound('Build', buildId);
    return this.buildRecord(build, author);
  }

  async createBuild(
    appId: string,
    caller: Caller,
    input: { version: string; env?: Record<string, string>; changelog?: Record<string, string>; readme?: Record<string, string> },
  ) {
    const userId = requireAccount(caller);
    const existing = await this.db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
    if (existing) requireAuthor(caller, existing.author_user_id);
    else
      await this.db
        .insertInto('apps')
        .values({
          id: appId,
          author_user_id: userId,
          highlighted: false,
          settings: JSON.stringify(DEFAULT_SETTINGS),
          updated_at: new Date(),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    const duplicate = await this.db
      .selectFrom('app_builds')
      .select('id')
      .where('app_id', '=', appId)
      .where('version', '=', input.version)
      .executeTakeFirst();
    if (duplicate)
      throw new HearthError('conflict', `Version ${input.version} of ${appId} already has a build (${duplicate.id})`);
    const archiveId = newId();
    const build = await this.db
      .insertInto('app_builds')
      .values({
        app_id: appId,
        version: input.version,
        env: JSON.stringify(input.env ?? {}),
        changelog: JSON.stringify(input.changelog ?? {}),
        readme: JSON.stringify(input.readme ?? {}),
        facts: JSON.stringify(null),
        manifest: JSON.stringify(null),
        archive_id: archiveId,
        channel: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('app_archives')
      .values({
        id: archiveId,
        build_id: build.id,
        state: 'pending',
        error: null,
        hash: null,
        size: null,
        assets_id: null,
        manifest: JSON.stringify(null),
        file: null,
        has_icon: false,
        updated_at: new Date(),
      })
      .execute();
    await this.touch(appId);
    return this.buildRecord(build, true);
  }

  private async archiveWithBuild(archiveId: string) {
    const row = await this.db
      .selectFrom('app_archives as r')
      .innerJoin('app_builds as b', 'b.id', 'r.build_id')
      .innerJoin('apps as a', 'a.id', 'b.app_id')
      .select(['r.id', 'r.state', 'b.id as build_id', 'b.app_id', 'b.version', 'b.channel', 'a.author_user_id'])
      .where('r.id', '=', archiveId)
      .executeTakeFirst();
    if (!row) throw notFound('Archive', archiveId);
    return row;
  }

  /**
   * Stores an uploaded archive, validates its app.json against the build (same id and version) and extracts its
   * facts. The archive is `processing` while this runs, then `ready`, or `failed` with the reason in `error`.
   */
  async uploadArchive(archiveId: string, caller: Caller, data: Buffer) {
    const target = await this.archiveWithBuild(archiveId);
    requireAuthor(caller, target.author_user_id);
    if (target.channel !== null)
      throw new HearthError('conflict', `Build ${target.build_id} is published; its archive cannot change`);
    await this.setArchive(archiveId, { state: 'processing', error: null });
    try {
      const read = await readArchive(data);
      if (read.manifest.id !== target.app_id)
        throw new ArchiveError(`app.json has id ${read.manifest.id}, but this build belongs to ${target.app_id}`);
      if (read.manifest.version !== target.version)
        throw new ArchiveError(`app.json has version ${read.manifest.version}, but this build is version ${target.version}`);
      const file = `${archiveId}.${read.format}`;
      await this.context.blobs.put(archiveKey(file), Readable.from([data]));
      if (read.icon) await this.context.blobs.put(iconKey(archiveId), Readable.from([read.icon]));
      const facts = { ...factsOf(read.manifest), icon: this.iconUrl(target.app_id) };
      await this.db
        .updateTable('app_builds')
        .set({ facts: JSON.stringify(facts), manifest: JSON.stringify(read.manifest) })
        .where('id', '=', target.build_id)
        .execute();
      await this.setArchive(archiveId, {
        state: 'ready',
        error: null,
        hash: read.hash,
        size: read.size,
        manifest: JSON.stringify(read.manifest),
        file,
        has_icon: read.icon !== null,
      });
      await this.refreshPublication(target.app_id);
    } catch (error) {
      if (!(error instanceof ArchiveError)) {
        await this.setArchive(archiveId, { state: 'failed', error: 'The archive could not be processed' });
        throw error;
      }
      await this.setArchive(archiveId, { state: 'failed', error: error.message, hash: null, size: data.length });
    }
    return this.getArchive(archiveId);
  }

  /** The provider's archive processor reports a state (the wire's JSON form of `PUT /archive/:archiveId`). */
  async reportArchive(
    archiveId: string,
    caller: Caller,
    body: { state?: string; error?: string; manifest?: object; assetsId?: string; hash?: string; size?: number },
  ) {
    const target = await this.archiveWithBuild(archiveId);
    requireProvider(caller);
    const changes: Record<string, unknown> = {};
    if (body.manifest !== undefined) {
      // The processor's manifest is held to the same rules as an uploaded one; its facts are what the catalogue shows.
      const problems = checkPackageManifest(body.manifest);
      if (problems.length > 0) throw invalidParameter('manifest', problems.join('; '));
      const manifest = body.manifest as PackageManifest;
      if (manifest.id !== target.app_id || manifest.version !== target.version)
        throw invalidParameter(
          'manifest',
          `The manifest is ${manifest.id} ${manifest.version}, the build ${target.app_id} ${target.version}`,
        );
      await this.db
        .updateTable('app_builds')
        .set({
          facts: JSON.stringify({ ...factsOf(manifest), icon: this.iconUrl(target.app_id) }),
          manifest: JSON.stringify(manifest),
        })
        .where('id', '=', target.build_id)
        .execute();
    }
    if (body.state !== undefined) changes.state = body.state;
    if (body.error !== undefined) changes.error = body.error;
    if (body.assetsId !== undefined) changes.assets_id = body.assetsId;
    if (body.hash !== undefined) changes.hash = body.hash;
    if (body.size !== undefined) changes.size = body.size;
    if (body.manifest !== undefined) changes.manifest = JSON.stringify(body.manifest);
    await this.setArchive(archiveId, changes);
    await this.refreshPublication(target.app_id);
    return this.getArchive(archiveId);
  }

  private async setArchive(archiveId: string, changes: Record<string, unknown>) {
    await this.db
      .updateTable('app_archives')
      .set({ ...changes, updated_at: new Date() } as never)
      .where('id', '=', archiveId)
      .execute();
  }

  async getArchive(archiveId: string) {
    const archive = await this.db.selectFrom('app_archives').selectAll().where('id', '=', archiveId).executeTakeFirst();
    if (!archive) throw notFound('Archive', archiveId);
    return this.archiveRecord(archive);
  }

  /** The stored file of a published build's ready archive (what hubs download). */
  async archiveFile(archiveId: string): Promise<{ body: Readable; format: string; size: number }> {
    const row = await this.db
      .selectFrom('app_archives as r')
      .innerJoin('app_builds as b', 'b.id', 'r.build_id')
      .select(['r.file', 'r.state', 'r.size', 'b.channel'])
      .where('r.id', '=', archiveId)
      .executeTakeFirst();
    if (row?.state !== 'ready' || !row.file || row.channel === null) throw notFound('Archive', archiveId);
    const blob = await this.context.blobs.get(archiveKey(row.file));
    if (!blob) throw notFound('Archive', archiveId);
    return { body: blob.body, format: row.file.endsWith('.zip') ? 'zip' : 'tar.gz', size: blob.size };
  }

  /**
   * Recomputes what the app shows: its live (newest stable) and test (newest beta) builds, their versions, the facts
   * of the live build (or the test build, or the newest processed one) and its search index.
   */
  async refreshPublication(appId: string) {
    const builds = await this.db
      .selectFrom('app_builds')
      .select(['id', 'version', 'channel', 'facts'])
      .where('app_id', '=', appId)
      .execute();
    const newest = (channel: Channel) =>
      builds.filter((b) => b.channel === channel).sort((a, b) => semver.rcompare(a.version, b.version))[0] ?? null;
    const live = newest('stable');
    const test = newest('beta');
    const latest = builds.filter((b) => b.facts !== null).sort((a, b) => b.id - a.id)[0] ?? null;
    const facts = (live?.facts ?? test?.facts ?? latest?.facts ?? null) as AppFactsValue | null;
    await this.db
      .updateTable('apps')
      .set({
        live_build_id: live?.id ?? null,
        test_build_id: test?.id ?? null,
        live_version: live?.version ?? null,
        test_version: test?.version ?? null,
        facts: JSON.stringify(facts),
        updated_at: new Date(),
      })
      .where('id', '=', appId)
      .execute();
    await this.indexApps([appId]);
  }

  /** Recomputes the rating figures kept on the app. */
  private async refreshRatings(appId: string) {
    const row = await this.db
      .selectFrom('app_reviews')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.sum<string>('rating').as('sum')])
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    await this.db
      .updateTable('apps')
      .set({ rating_count: num(row.count), rating_sum: num(row.sum) })
      .where('id', '=', appId)
      .execute();
  }

  /** Recomputes the number of hubs that installed the app. */
  private async refreshInstalls(appId: string) {
    const row = await this.db
      .selectFrom('app_installs')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    await this.db
      .updateTable('apps')
      .set({ installs: num(row.count) })
      .where('id', '=', appId)
      .execute();
    // The search ranks on the count its postings carry.
    await this.db
      .updateTable('app_search_postings')
      .set({ installs: num(row.count) })
      .where('app_id', '=', appId)
      .execute();
  }

  private async touch(appId: string) {
    await this.db.updateTable('apps').set({ updated_at: new Date() }).where('id', '=', appId).execute();
  }

  async updateChannel(appId: string, buildId: string, caller: Caller, channel: Channel) {
    const app = await this.authoredApp(appId, caller);
    const build = await this.buildRow(appId, buildId);
    const archive = await this.getArchive(build.archive_id);
    if (archive.state !== 'ready')
      throw new HearthError('conflict', `Build ${build.id} has no ready archive (state: ${archive.state})`);
    if (channel === 'stable' && !caller.provider) {
      const submission = await this.db
        .selectFrom('app_submissions')
        .select('state')
        .where('build_id', '=', build.id)
        .executeTakeFirst();
      if (submission?.state !== 'approved')
        throw new HearthError('conflict', `Build ${build.id} needs an approved submission before it can go to stable`);
    }
    await this.publish(app.id, build.id, channel);
    return this.buildRecord(await this.buildRow(appId, buildId), true);
  }

  private async publish(appId: string, buildId: number, channel: Channel) {
    await this.db.updateTable('app_builds').set({ channel, published_at: new Date() }).where('id', '=', buildId).execute();
    await this.refreshPublication(appId);
  }

  async install(appId: string, query: { channel?: Channel | undefined; version?: string | undefined; secret: string }) {
    const app = await this.appRow(appId);
    let build: BuildRow | undefined;
    if (query.version !== undefined) {
      build = await this.db
        .selectFrom('app_builds')
        .selectAll()
        .where('app_id', '=', appId)
        .where('version', '=', query.version)
        .where('channel', 'is not', null)
        .executeTakeFirst();
      if (build && query.channel && build.channel !== query.channel) build = undefined;
    } else {
      const channel = query.channel ?? 'stable';
      const id = channel === 'stable' ? app.live_build_id : channel === 'beta' ? app.test_build_id : null;
      if (id !== null) build = await this.buildRow(appId, id);
      else if (channel === 'alpha') {
        const rows = await this.db
          .selectFrom('app_builds')
          .selectAll()
          .where('app_id', '=', appId)
          .where('channel', '=', 'alpha')
          .execute();
        build = rows.sort((a, b) => semver.rcompare(a.version, b.version))[0];
      }
    }
    if (!build || build.channel === null)
      throw notFound(`Installable build of ${appId}`, query.version ?? query.channel ?? 'stable');
    const archive = await this.getArchive(build.archive_id);
    await this.db
      .insertInto('app_installs')
      .values({
        app_id: appId,
        hub_key: hubKey(query.secret),
        build_id: build.id,
        version: build.version,
        channel: build.channel,
        updated_at: new Date(),
      })
      .onConflict((oc) =>
        oc.columns(['app_id', 'hub_key']).doUpdateSet({
          build_id: build.id,
          version: build.version,
          channel: build.channel as Channel,
          updated_at: new Date(),
        }),
      )
      .execute();
    await this.refreshInstalls(appId);
    return {
      _id: appId,
      id: appId,
      version: build.version,
      channel: build.channel,
      buildId: build.id,
      manifest: build.manifest ?? {},
      archive: { url: this.downloadUrl(archive._id), hash: archive.hash ?? '', size: archive.size ?? 0 },
    };
  }

  async installStats(appId: string, caller: Caller) {
    await this.authoredApp(appId, caller);
    const rows = await this.db.selectFrom('app_installs').select(['version', 'channel']).where('app_id', '=', appId).execute();
    const versions: Record<string, number> = {};
    const channels: Record<string, number> = {};
    for (const row of rows) {
      versions[row.version] = (versions[row.version] ?? 0) + 1;
      channels[row.channel] = (channels[row.channel] ?? 0) + 1;
    }
    return { total: rows.length, versions, channels };
  }

  async driverStats(appId: string, caller: Caller) {
    const app = await this.authoredApp(appId, caller);
    if (app.live_build_id === null) return [];
    const live = await this.buildRow(appId, app.live_build_id);
    const installs = await this.db
      .selectFrom('app_installs as i')
      .innerJoin('app_builds as b', 'b.id', 'i.build_id')
      .select(['b.facts'])
      .where('i.app_id', '=', appId)
      .execute();
    const drivers = ((live.facts as AppFactsValue | null)?.drivers ?? []) as FactsDriver[];
    return drivers.map((driver) => ({
      id: driver.id,
      name: driver.name,
      connectivity: driver.connectivity,
      installs: installs.filter((i) => ((i.facts as AppFactsValue | null)?.drivers ?? []).some((d) => d.id === driver.id)).length,
    }));
  }

  // ---------------------------------------------------------------- submissions

  async createSubmission(appId: string, buildId: string, caller: Caller, autoRelease: boolean) {
    await this.authoredApp(appId, caller);
    const build = await this.buildRow(appId, buildId);
    const archive = await this.getArchive(build.archive_id);
    if (archive.state !== 'ready')
      throw new HearthError('conflict', `Build ${build.id} has no ready archive (state: ${archive.state})`);
    const existing = await this.db.selectFrom('app_submissions').selectAll().where('build_id', '=', build.id).executeTakeFirst();
    if (existing && (existing.state === 'pending' || existing.state === 'approved'))
      throw new HearthError('conflict', `Build ${build.id} is already submitted (${existing.state})`);
    const values = { state: 'pending' as const, auto_release: autoRelease, reviewer_user_id: null, decided_at: null };
    const row = existing
      ? await this.db
          .updateTable('app_submissions')
          .set(values)
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await this.db
          .insertInto('app_submissions')
          .values({ build_id: build.id, ...values })
          .returningAll()
          .executeTakeFirstOrThrow();
    return this.submissionRecord(row);
  }

  private async submission(appId: string, buildId: string) {
    const build = await this.buildRow(appId, buildId);
    const row = await this.db.selectFrom('app_submissions').selectAll().where('build_id', '=', build.id).executeTakeFirst();
    if (!row) throw notFound('Submission of build', buildId);
    return { build, row };
  }

  async decideSubmission(appId: string, buildId: string, caller: Caller, decision: 'approved' | 'rejected' | 'retracted') {
    const app = await this.appRow(appId);
    if (decision === 'retracted') requireAuthor(caller, app.author_user_id);
    else requireReviewer(caller);
    const { build, row } = await this.submission(appId, buildId);
    if (row.state !== 'pending')
      throw new HearthError('conflict', `The submission of build ${build.id} is ${row.state}, not pending`);
    const updated = await this.db
      .updateTable('app_submissions')
      .set({ state: decision, decided_at: new Date(), reviewer_user_id: decision === 'retracted' ? null : caller.userId })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (decision === 'approved' && row.auto_release) await this.publish(appId, build.id, 'stable');
    return this.submissionRecord(updated);
  }

  async submissionComments(appId: string, buildId: string, caller: Caller) {
    const app = await this.appRow(appId);
    if (!isAuthor(caller, app.author_user_id)) requireReviewer(caller);
    const build = await this.buildRow(appId, buildId);
    const rows = await this.db
      .selectFrom('app_submission_comments')
      .selectAll()
      .where('build_id', '=', build.id)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      _id: r.id,
      userId: r.user_id,
      text: r.text,
      reviewer: r.reviewer,
      createdAt: iso(r.created_at) as string,
    }));
  }

  async addSubmissionComment(appId: string, buildId: string, caller: Caller, text: string) {
    const userId = requireAccount(caller);
    const app = await this.appRow(appId);
    const author = caller.userId === app.author_user_id;
    if (!author) requireReviewer(caller);
    const { build } = await this.submission(appId, buildId);
    const r = await this.db
      .insertInto('app_submission_comments')
      .values({ build_id: build.id, user_id: userId, reviewer: !author, text })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { _id: r.id, userId: r.user_id, text: r.text, reviewer: r.reviewer, createdAt: iso(r.created_at) as string };
  }

  async reviewQueue(caller: Caller) {
    requireReviewer(caller);
    const rows = await this.db
      .selectFrom('app_submissions as s')
      .innerJoin('app_builds as b', 'b.id', 's.build_id')
      .selectAll('b')
      .select(['s.id as submission_id'])
      .where('s.state', '=', 'pending')
      .orderBy('s.created_at')
      .execute();
    const result = [];
    for (const row of rows) {
      const build = await this.buildRecord(row, false);
      if (build.submission) result.push({ app: await this.summaryOf(row.app_id), build, submission: build.submission });
    }
    return result;
  }

  // ---------------------------------------------------------------- reviews and thanks

  private reviewRecord(row: {
    user_id: string;
    version: string;
    rating: number;
    comment: string;
    response: string | null;
    response_at: Date | null;
    created_at: Date;
    updated_at: Date;
    firstname: string;
    lastname: string;
  }) {
    return {
      _id: row.user_id,
      userId: row.user_id,
      user: { _id: row.user_id, name: `${row.firstname} ${row.lastname.slice(0, 1)}`.trim() },
      version: row.version,
      rating: row.rating,
      comment: row.comment,
      response: row.response === null ? null : { text: row.response, createdAt: iso(row.response_at) as string },
      createdAt: iso(row.created_at) as string,
      updatedAt: iso(row.updated_at) as string,
    };
  }

  private reviewsQuery(appId: string) {
    return this.db
      .selectFrom('app_reviews as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select([
        'r.user_id',
        'r.version',
        'r.rating',
        'r.comment',
        'r.response',
        'r.response_at',
        'r.created_at',
        'r.updated_at',
        'u.firstname',
        'u.lastname',
      ])
      .where('r.app_id', '=', appId);
  }

  async reviews(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const rows = await this.reviewsQuery(appId).orderBy('r.updated_at', 'desc').execute();
    return rows.map((r) => this.reviewRecord(r));
  }

  async review(appId: string, userId: string) {
    const row = await this.reviewsQuery(appId).where('r.user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound('Review of user', userId);
    return this.reviewRecord(row);
  }

  async updateReview(appId: string, caller: Caller, input: { version: string; rating: number; comment?: string | undefined }) {
    const userId = requireAccount(caller);
    await this.visibleApp(appId, caller);
    const build = await this.db
      .selectFrom('app_builds')
      .select('id')
      .where('app_id', '=', appId)
      .where('version', '=', input.version)
      .where('channel', 'is not', null)
      .executeTakeFirst();
    if (!build) throw invalidParameter('version', `${appId} has no published version ${input.version}`);
    const values = { version: input.version, rating: input.rating, comment: input.comment ?? '', updated_at: new Date() };
    await this.db
      .insertInto('app_reviews')
      .values({ app_id: appId, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(['app_id', 'user_id']).doUpdateSet(values))
      .execute();
    await this.refreshRatings(appId);
    return this.review(appId, userId);
  }

  async deleteReview(appId: string, caller: Caller) {
    const userId = requireAccount(caller);
    const result = await this.db
      .deleteFrom('app_reviews')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Your review of', appId);
    await this.refreshRatings(appId);
  }

  async deleteAllReviews(appId: string, caller: Caller) {
    await this.appRow(appId);
    requireProvider(caller);
    await this.db.deleteFrom('app_reviews').where('app_id', '=', appId).execute();
    await this.refreshRatings(appId);
  }

  async respondToReview(appId: string, userId: string, caller: Caller, response: string | null) {
    await this.authoredApp(appId, caller);
    await this.review(appId, userId);
    await this.db
      .updateTable('app_reviews')
      .set({ response, response_at: response === null ? null : new Date() })
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .execute();
    return this.review(appId, userId);
  }

  async reviewStats(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const rows = await this.db
      .selectFrom('app_reviews')
      .select(['rating', (eb) => eb.fn.countAll<string>().as('count')])
      .where('app_id', '=', appId)
      .groupBy('rating')
      .execute();
    const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } as Record<1 | 2 | 3 | 4 | 5, number>;
    let count = 0;
    let sum = 0;
    for (const row of rows) {
      const n = num(row.count);
      distribution[row.rating as 1 | 2 | 3 | 4 | 5] = n;
      count += n;
      sum += n * row.rating;
    }
    return { count, average: count === 0 ? null : Math.round((sum / count) * 100) / 100, distribution };
  }

  async thanks(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const count = await this.db
      .selectFrom('app_thanks')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    const mine =
      caller.userId === null
        ? undefined
        : await this.db
            .selectFrom('app_thanks')
            .select('user_id')
            .where('app_id', '=', appId)
            .where('user_id', '=', caller.userId)
            .executeTakeFirst();
    return { count: num(count.count), thanked: mine !== undefined };
  }

  async sayThanks(appId: string, caller: Caller) {
    const userId = requireAccount(caller);
    const app = await this.visibleApp(appId, caller);
    const inserted = await this.db
      .insertInto('app_thanks')
      .values({ app_id: appId, user_id: userId })
      .onConflict((oc) => oc.columns(['app_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 && app.settings.sendEmailThanks)
      await this.mailAuthor(app, `Someone thanked you for ${appId}`, `A Hearth user said thanks for your app ${appId}.`);
    return this.thanks(appId, caller);
  }

  // ---------------------------------------------------------------- suggestions

  async suggestions(appId: string, caller: Caller, offset: number, length: number) {
    await this.authoredApp(appId, caller);
    const rows = await this.db
      .selectFrom('app_suggestions')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(length)
      .execute();
    return rows.map((r) => ({ _id: r.id, userId: r.user_id, suggestionText: r.text, createdAt: iso(r.created_at) as string }));
  }

  async createSuggestion(appId: string, caller: Caller, text: string) {
    const userId = requireAccount(caller);
    const app = await this.visibleApp(appId, caller);
    const r = await this.db
      .insertInto('app_suggestions')
      .values({ app_id: appId, user_id: userId, text })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (app.settings.sendEmailSuggestion)
      await this.mailAuthor(app, `A suggestion for ${appId}`, `A Hearth user suggested:\n\n${text}`);
    return { _id: r.id, userId: r.user_id, suggestionText: r.text, createdAt: iso(r.created_at) as string };
  }

  // ---------------------------------------------------------------- crashes

  async createCrash(
    appId: string,
    input: {
      appVersion: string;
      homeyId: string;
      homeyVersion: string;
      homeyModelId?: string | undefined;
      homeyModelName?: string | undefined;
      stack: string;
    },
  ) {
    const app = await this.appRow(appId);
    const build = await this.db
      .selectFrom('app_builds')
      .select(['id'])
      .where('app_id', '=', appId)
      .where('version', '=', input.appVersion)
      .executeTakeFirst();
    if (!build) throw notFound(`Build of ${appId} with version`, input.appVersion);
    const hash = stackHash(input.stack);
    const seen = await this.db
      .selectFrom('app_crashes')
      .select('id')
      .where('build_id', '=', build.id)
      .where('stack_hash', '=', hash)
      .limit(1)
      .executeTakeFirst();
    const id = newId();
    await this.db
      .insertInto('app_crashes')
      .values({
        id,
        app_id: appId,
        build_id: build.id,
        app_version: input.appVersion,
        homey_id: input.homeyId,
        homey_version: input.homeyVersion,
        homey_model_id: input.homeyModelId ?? null,
        homey_model_name: input.homeyModelName ?? null,
        stack: input.stack,
        stack_hash: hash,
      })
      .execute();
    // The author hears about a new kind of crash once, not about every repeat.
    if (!seen && app.settings.sendEmailCrash)
      await this.mailAuthor(
        app,
        `New crash in ${appId} v${input.appVersion}`,
        `A hub running Hearth ${input.homeyVersion} reported a crash of ${appId} v${input.appVersion}:\n\n${input.stack}`,
      );
    return { _id: id, stackHash: hash };
  }

  private crashRecord(r: Selectable<CloudSchema['app_crashes']>) {
    return {
      _id: r.id,
      appId: r.app_id,
      buildId: r.build_id,
      appVersion: r.app_version,
      homeyId: r.homey_id,
      homeyVersion: r.homey_version,
      homeyModelId: r.homey_model_id,
      homeyModelName: r.homey_model_name,
      stack: r.stack,
      stackHash: r.stack_hash,
      createdAt: iso(r.created_at) as string,
      repliedAt: iso(r.replied_at),
    };
  }

  private async crashesOf(appId: string, buildId: string, caller: Caller) {
    await this.authoredApp(appId, caller);
    const build = await this.buildRow(appId, buildId);
    return this.db.selectFrom('app_crashes').selectAll().where('build_id', '=', build.id).orderBy('created_at', 'desc').execute();
  }

  async crashGroups(appId: string, buildId: string, caller: Caller) {
    const rows = await this.crashesOf(appId, buildId, caller);
    const groups = new Map<string, typeof rows>();
    for (const row of rows) groups.set(row.stack_hash, [...(groups.get(row.stack_hash) ?? []), row]);
    return [...groups.entries()]
      .map(([hash, reports]) => ({
        stackHash: hash,
        stack: reports[0]?.stack ?? '',
        count: reports.length,
        homeys: new Set(reports.map((r) => r.homey_id)).size,
        firstAt: iso(reports[reports.length - 1]?.created_at ?? null) as string,
        lastAt: iso(reports[0]?.created_at ?? null) as string,
        reports: reports.slice(0, 20).map((r) => this.crashRecord(r)),
      }))
      .sort((a, b) => b.count - a.count || b.lastAt.localeCompare(a.lastAt));
  }

  async crashStats(appId: string, buildId: string, caller: Caller) {
    const rows = await this.crashesOf(appId, buildId, caller);
    const perDay = new Map<string, number>();
    const perHomeyVersion: Record<string, number> = {};
    for (const row of rows) {
      const day = new Date(row.created_at).toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
      perHomeyVersion[row.homey_version] = (perHomeyVersion[row.homey_version] ?? 0) + 1;
    }
    return {
      total: rows.length,
      groups: new Set(rows.map((r) => r.stack_hash)).size,
      homeys: new Set(rows.map((r) => r.homey_id)).size,
      perDay: [...perDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })),
      perHomeyVersion,
    };
  }

  /** Mails the developer's reply to the owner of the hub that reported the crash. */
  async replyToCrash(crashId: string, caller: Caller, input: { subject: string; body: string; from?: string | undefined }) {
    const crash = await this.db.selectFrom('app_crashes').selectAll().where('id', '=', crashId).executeTakeFirst();
    if (!crash) throw notFound('Crash', crashId);
    const app = await this.authoredApp(crash.app_id, caller);
    // Anyone can post a crash report naming any hub: mail only reaches the owner of a hub that installed the app.
    const installed = await this.db
      .selectFrom('app_installs')
      .select('app_id')
      .where('app_id', '=', app.id)
      .where('hub_key', '=', hubKey(crash.homey_id))
      .executeTakeFirst();
    if (!installed)
      throw new HearthError('conflict', `The hub that reported crash ${crashId} has not installed ${app.id} from the catalogue`);
    const owner = await this.db
      .selectFrom('hubs as h')
      .innerJoin('users as u', 'u.id', 'h.owner_user_id')
      .select(['u.email', 'u.firstname'])
      .where('h.id', '=', crash.homey_id)
      .executeTakeFirst();
    if (!owner) throw new HearthError('conflict', `The hub that reported crash ${crashId} has no owner to reply to`);
    const author = await this.db
      .selectFrom('users')
      .select(['email', 'firstname', 'lastname'])
      .where('id', '=', app.author_user_id)
      .executeTakeFirstOrThrow();
    const from = input.from?.trim() || `${author.firstname} ${author.lastname}`.trim();
    await this.context.mail.send({
      to: owner.email,
      replyTo: author.email,
      subject: input.subject,
      text: [
        `Hello ${owner.firstname || 'there'},`,
        '',
        `${from}, the developer of ${app.id}, replied to the crash report your hub sent about version ${crash.app_version}:`,
        '',
        input.body,
      ].join('\n'),
    });
    const repliedAt = new Date();
    await this.db.updateTable('app_crashes').set({ replied_at: repliedAt }).where('id', '=', crashId).execute();
    return { _id: crashId, repliedAt: repliedAt.toISOString() };
  }

  private async mailAuthor(app: AppRow, subject: string, text: string) {
    const author = await this.db.selectFrom('users').select('email').where('id', '=', app.author_user_id).executeTakeFirst();
    if (!author) return;
    // A notification to the developer must not fail the report or review that caused it.
    await this.context.mail.send({ to: author.email, subject, text }).catch(() => undefined);
  }

  // ---------------------------------------------------------------- discovery

  private live() {
    return (q: ReturnType<AppCatalogue['summaryQuery']>) => q.where('a.live_build_id', 'is not', null);
  }

  async list(query: {
    page?: number | undefined;
    count?: number | undefined;
    category?: string | undefined;
    author?: string | undefined;
  }) {
    const count = query.count ?? 20;
    const page = query.page ?? 1;
    const category = query.category === undefined ? null : JSON.stringify([query.category]);
    const apps = await this.summaries((q) => {
      let filtered = this.live()(q);
      if (query.author !== undefined) filtered = filtered.where('a.author_user_id', '=', query.author);
      if (category !== null) filtered = filtered.where(sql<boolean>`a.facts -> 'category' @> ${category}::jsonb`);
      return filtered
        .orderBy('a.updated_at', 'desc')
        .orderBy('a.id')
        .offset((page - 1) * count)
        .limit(count);
    });
    let total = this.db
      .selectFrom('apps as a')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('a.live_build_id', 'is not', null);
    if (query.author !== undefined) total = total.where('a.author_user_id', '=', query.author);
    if (category !== null) total = total.where(sql<boolean>`a.facts -> 'category' @> ${category}::jsonb`);
    return { total: num((await total.executeTakeFirstOrThrow()).n), apps };
  }

  /** Every live app, newest first. */
  async liveSummaries() {
    return this.summaries((q) => this.live()(q).orderBy('a.updated_at', 'desc').orderBy('a.id'));
  }

  async liveIds() {
    const rows = await this.db.selectFrom('apps').select('id').where('live_build_id', 'is not', null).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  async myApps(caller: Caller) {
    const userId = requireAccount(caller);
    return this.summaries((q) => q.where('a.author_user_id', '=', userId).orderBy('a.id'));
  }

  /**
   * Search: every query word must match a word of the app's names (any language), id, or description (in the asked
   * language, else English) — exactly, as a prefix, or with one typo. Names rank over descriptions, a better match
   * over a worse one, names in the asked language (else English) over other names, then the most installed. Only
   * apps whose live build suits the hub of the filters are answered.
   */
  async search(query: string, filter: HubFilter & { language?: string | undefined }) {
    const words = [...new Set(wordsOf(query))].slice(0, QUERY_WORDS);
    if (words.length === 0) throw invalidParameter('query', 'The query has no words to search for');
    // 1. The dictionary: which words of the catalogue match a query word, and how well (checked here exactly).
    const { anyDistance, wordsOnly } = lookupKeys(words);
    const found = await this.db
      .selectFrom('app_search_words')
      .select('word')
      .distinct()
      .where((eb) =>
        eb.or([
          eb('key', 'in', anyDistance),
          ...(wordsOnly.length > 0 ? [eb.and([eb('key', 'in', wordsOnly), eb('distance', '<', 2)])] : []),
        ]),
      )
      .execute();
    const matches: { index: number; word: string; score: number }[] = [];
    for (const { word } of found)
      words.forEach((queryWord, index) => {
        const score = matchScore(queryWord, word);
        if (score > 0) matches.push({ index, word, score });
      });
    if (words.some((_, index) => !matches.some((m) => m.index === index))) return [];
    // 2. The postings of those words, ranked and filtered by the database; summaries only for the answered page.
    const ranked = await this.rank(matches, words.length, filter);
    if (ranked.length === 0) return [];
    const apps = new Map((await this.summaries((q) => q.where('a.id', 'in', ranked))).map((a) => [a.id, a]));
    return ranked.flatMap((id) => {
      const app = apps.get(id);
      return app ? [app] : [];
    });
  }

  /** The ids of the best live apps for the matched words (see {@link search}), of the hub the filter describes. */
  private async rank(
    matches: { index: number; word: string; score: number }[],
    wordCount: number,
    filter: HubFilter & { language?: string | undefined },
  ): Promise<string[]> {
    const table = (name: string) => sql.table(`${this.context.database.schema}.${name}`);
    const language = filter.language?.slice(0, 2).toLowerCase() ?? 'en';
    const values = sql.join(matches.map((m) => sql`(${m.index}::int, ${m.word}::text, ${m.score}::int)`));
    // Postings exist for live apps only and carry what the filters ask about (see `searchDocumentOf`).
    const conditions = [sql`true`];
    const platforms = [filter.homeyPlatform, filter.homeyModel ? modelFacts(filter.homeyModel).platform : undefined];
    for (const platform of platforms) if (platform) conditions.push(sql`strpos(p.platforms, ${`,${platform},`}) > 0`);
    const version = hubVersion(filter.homeyVersion);
    if (version !== null) conditions.push(sql`(p.compatibility is null or p.compatibility @> ${version}::bigint)`);
    // The platform version against the range of the hub's platform, else of any platform the app runs on.
    const platformVersion = hubVersion(filter.homeyPlatformVersion);
    if (platformVersion !== null) {
      const suits = judgedPlatforms(filter).flatMap((platform) => {
        if (!(PLATFORMS as readonly string[]).includes(platform)) return [];
        const range = sql.ref(`p.${platform}_platform_versions`);
        return [
          sql`(strpos(p.platforms, ${`,${platform},`}) > 0 and (${range} is null or ${range} @> ${platformVersion}::bigint))`,
        ];
      });
      conditions.push(suits.length > 0 ? sql`(${sql.join(suits, sql` or `)})` : sql`false`);
    }
    const model = filter.homeyModel ? modelFacts(filter.homeyModel) : null;
    if (model?.platform === 'local' && model.features)
      conditions.push(sql`p.required_features <@ ${JSON.stringify(model.features)}::jsonb`);
    if (filter.homeyMinimumSdkVersion !== undefined) conditions.push(sql`p.sdk >= ${filter.homeyMinimumSdkVersion}`);
    // Per query word the best posting: names 6–10 (a better match first; a name in the asked language, given once,
    // or in English when the app has none in that language, one more), descriptions 1–3 (in the asked language,
    // given once, or in English when the app has none in it), else nothing.
    const asked = `,${language},`;
    const score = sql`case
      when p.field <> 'description' then 3 + 2 * m.score
        + case when p.language in ('', ${language}) or (p.language = 'en' and strpos(p.name_languages, ${asked}) = 0) then 1 else 0 end
      when p.language in ('', ${language}) or (p.language = 'en' and strpos(p.description_languages, ${asked}) = 0) then m.score
    end`;
    // The postings of each matched word are read through their index (`offset 0` keeps the planner, which has no
    // statistics on PGlite, from scanning them all), and only they: no other table is read. Ties go by id in byte
    // order, whatever the database's collation, so that PostgreSQL and PGlite answer the same list.
    const { rows } = await sql<{ app_id: string }>`
      with m(qi, word, score) as (values ${values}),
      best as (
        select p.app_id, m.qi, max(${score}) as score, max(p.installs) as installs
        from m
        cross join lateral (select * from ${table('app_search_postings')} p where p.word = m.word offset 0) p
        where ${sql.join(conditions, sql` and `)}
        group by p.app_id, m.qi
      )
      select app_id from best
      where score is not null
      group by app_id
      having count(*) = ${wordCount}
      order by sum(score) desc, max(installs) desc, app_id collate "C"
      limit ${SEARCH_LIMIT}`.execute(this.db);
    return rows.map((r) => r.app_id);
  }

  /**
   * Browse: live apps with any of the asked platforms, driver connectivities and categories, and all the asked
   * features. With a query the search's answer is filtered; without one the database filters and pages the live
   * apps' facts (newest first, like the full list), so only the answered page is read.
   */
  async browse(query: {
    query?: string | undefined;
    language?: string | undefined;
    platform?: string[] | undefined;
    connectivity?: string[] | undefined;
    category?: string[] | undefined;
    features?: string[] | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
  }) {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 24;
    if (query.query && wordsOf(query.query).length > 0) {
      const any = (wanted: string[] | undefined, have: string[]) =>
        !wanted || wanted.length === 0 || wanted.some((w) => have.includes(w));
      const all = (wanted: string[] | undefined, have: string[]) => !wanted || wanted.every((w) => have.includes(w));
      const apps = (await this.search(query.query, { language: query.language })).filter(
        (app) =>
          any(query.platform, app.platforms) &&
          any(
            query.connectivity,
            app.drivers.flatMap((d) => d.connectivity),
          ) &&
          any(query.category, app.category) &&
          all(query.features, app.features),
      );
      return { total: apps.length, apps: apps.slice(offset, offset + limit) };
    }
    const conditions = browseConditions(query);
    const where = <Q extends { where: (condition: RawBuilder<boolean>) => Q }>(q: Q) =>
      conditions.reduce((filtered, condition) => filtered.where(condition), q);
    const apps = await this.summaries((q) =>
      where(this.live()(q)).orderBy('a.updated_at', 'desc').orderBy('a.id').offset(offset).limit(limit),
    );
    const total = await where(
      this.db
        .selectFrom('apps as a')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('a.live_build_id', 'is not', null),
    ).executeTakeFirstOrThrow();
    return { total: num(total.n), apps };
  }

  /**
   * Highlighted live apps with any of the platforms and tags (categories or manifest tags). With `language`, each
   * app's name and description are the text in that language (else English, like the search reads descriptions).
   */
  async highlighted(platforms: string[] | undefined, tags?: string[], language?: string) {
    const apps = await this.summaries((q) =>
      this.live()(q).where('a.highlighted', '=', true).orderBy('a.updated_at', 'desc').orderBy('a.id'),
    );
    return apps
      .filter(
        (app) =>
          (!platforms || platforms.length === 0 || platforms.some((p) => app.platforms.includes(p))) &&
          (!tags || tags.length === 0 || tags.some((t) => app.category.includes(t) || app.tags.includes(t))),
      )
      .map((app) =>
        language === undefined
          ? app
          : {
              ...app,
              name: inLanguage(app.name, language),
              ...(app.description !== undefined ? { description: inLanguage(app.description, language) } : {}),
            },
      );
  }

  /** Live drivers for which `match` holds, with their apps. */
  async driverSearch(filter: HubFilter, match: (driver: FactsDriver) => boolean) {
    const rows = await this.db
      .selectFrom('apps as a')
      .select(['a.id', 'a.facts'])
      .where('a.live_build_id', 'is not', null)
      .execute();
    const hits: { appId: string; driver: FactsDriver }[] = [];
    for (const row of rows) {
      const facts = row.facts as AppFactsValue | null;
      if (facts === null || !compatible(facts, filter)) continue;
      for (const driver of (facts.drivers ?? []) as FactsDriver[]) if (match(driver)) hits.push({ appId: row.id, driver });
    }
    if (hits.length === 0) return [];
    const apps = new Map(
      (await this.summaries((q) => q.where('a.id', 'in', [...new Set(hits.map((h) => h.appId))]))).map((a) => [a.id, a]),
    );
    return hits.flatMap(({ appId, driver }) => {
      const app = apps.get(appId);
      if (!app) return [];
      return [{ app, driver: { id: driver.id, name: driver.name, class: driver.class, connectivity: driver.connectivity } }];
    });
  }

  /** Live apps whose manifest discovery strategies match what a hub saw on its network. */
  async discover(hints: Record<'ssdp' | 'ble' | 'mac' | 'mdns-sd', unknown[] | undefined>) {
    const rows = await this.db
      .selectFrom('apps as a')
      .select(['a.id', 'a.facts'])
      .where('a.live_build_id', 'is not', null)
      .execute();
    const text = (values: unknown[] | undefined) =>
      (values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase());
    const seen = {
      ssdp: text(hints.ssdp),
      ble: text(hints.ble),
      mac: text(hints.mac).map((m) => m.replace(/[^0-9a-f]/g, '')),
      mdns: text(hints['mdns-sd']),
    };
    const found: { appId: string; strategies: string[] }[] = [];
    for (const row of rows) {
      const strategies: string[] = [];
      for (const [id, strategy] of Object.entries((row.facts as AppFactsValue | null)?.discovery ?? {})) {
        if (strategyMatches(strategy, seen)) strategies.push(id);
      }
      if (strategies.length > 0) found.push({ appId: row.id, strategies });
    }
    if (found.length === 0) return [];
    const apps = new Map(
      (
        await this.summaries((q) =>
          q.where(
            'a.id',
            'in',
            found.map((f) => f.appId),
          ),
        )
      ).map((a) => [a.id, a]),
    );
    return found.flatMap((f) => {
      const app = apps.get(f.appId);
      return app ? [{ app, strategies: f.strategies }] : [];
    });
  }

  // ---------------------------------------------------------------- index and summary

  /**
   * Rewrites the search postings of apps from their live facts (apps without a live build have none) and adds their
   * new words to the dictionary. Answers the number of postings written.
   */
  async indexApps(appIds: string[]) {
    let written = 0;
    for (let i = 0; i < appIds.length; i += 500) {
      const chunk = appIds.slice(i, i + 500);
      const rows = await this.db
        .selectFrom('apps')
        .select(['id', 'facts', 'installs'])
        .where('id', 'in', chunk)
        .where('live_build_id', 'is not', null)
        .execute();
      await this.db.deleteFrom('app_search_postings').where('app_id', 'in', chunk).execute();
      const postings = rows.flatMap((row) => {
        const facts = row.facts as AppFactsValue | null;
        if (!facts) return [];
        const document = searchDocumentOf(facts, row.installs);
        return postingsOf(row.id, facts).map((posting) => ({ ...posting, ...document }));
      });
      for (let j = 0; j < postings.length; j += 1_000)
        await this.db
          .insertInto('app_search_postings')
          .values(postings.slice(j, j + 1_000))
          .execute();
      written += postings.length;
      const words = [...new Set(postings.map((p) => p.word))];
      if (words.length === 0) continue;
      const known = new Set(
        (
          await this.db
            .selectFrom('app_search_words')
            .select('word')
            .where('key', 'in', words)
            .where('distance', '=', 0)
            .execute()
        ).map((r) => r.word),
      );
      const entries = dictionaryOf(words.filter((w) => !known.has(w)));
      for (let j = 0; j < entries.length; j += 3_000)
        await this.db
          .insertInto('app_search_words')
          .values(entries.slice(j, j + 3_000))
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
    return written;
  }

  async sync(caller: Caller) {
    requireProvider(caller);
    const ids = await this.liveIds();
    await this.db.deleteFrom('app_search_postings').execute();
    await this.db.deleteFrom('app_search_words').execute();
    return { apps: ids.length, keys: await this.indexApps(ids) };
  }

  async summary() {
    const count = async (table: 'apps' | 'app_builds' | 'app_reviews' | 'app_crashes' | 'app_installs') =>
      num(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const live = await this.db
      .selectFrom('apps')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('live_build_id', 'is not', null)
      .executeTakeFirstOrThrow();
    const pending = await this.db
      .selectFrom('app_submissions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    return {
      apps: await count('apps'),
      liveApps: num(live.n),
      builds: await count('app_builds'),
      pendingSubmissions: num(pending.n),
      reviews: await count('app_reviews'),
      crashes: await count('app_crashes'),
      installs: await count('app_installs'),
    };
  }
}

/**
 * Whether a manifest discovery strategy matches the hints: mDNS-SD by service name (`_hue._tcp` or `hue`),
 * SSDP by search target, MAC by manufacturer prefix (OUI), BLE by service UUID or local name.
 */
function strategyMatches(
  strategy: Record<string, unknown>,
  seen: { ssdp: string[]; ble: string[]; mac: string[]; mdns: string[] },
) {
  const type = String(strategy.type ?? '');
  const config = (strategy[type] ?? {}) as Record<string, unknown>;
  if (type === 'mdns-sd') {
    const name = String(config.name ?? '').toLowerCase();
    const protocol = String(config.protocol ?? 'tcp').toLowerCase();
    if (!name) return false;
    return seen.mdns.some((h) => h === name || h.includes(`_${name}._${protocol}`) || h.includes(`"${name}"`));
  }
  if (type === 'ssdp') {
    const search = String(config.search ?? '').toLowerCase();
    return search !== '' && seen.ssdp.some((h) => h.includes(search));
  }
  if (type === 'mac') {
    const prefixes = (Array.isArray(config.manufacturer) ? config.manufacturer : []) as unknown[];
    const hex = prefixes.map((p) => (Array.isArray(p) ? p : []).map((b) => Number(b).toString(16).padStart(2, '0')).join(''));
    return hex.some((prefix) => prefix.length === 6 && seen.mac.some((mac) => mac.startsWith(prefix)));
  }
  if (type === 'ble') {
    const wanted = [config.uuid, config.name, ...(Array.isArray(config.uuids) ? config.uuids : [])]
      .filter((v): v is string => typeof v === 'string' && v !== '')
      .map((v) => v.toLowerCase());
    return wanted.some((w) => seen.ble.some((h) => h.includes(w)));
  }
  return false;
}

/**
 * The browse filters as conditions on an app's facts (`a.facts`), each a containment the `apps_facts` index answers:
 * any of the platforms (`local` when none are listed), any connectivity of any driver, any category, every feature.
 * Empty lists do not filter.
 */
function browseConditions(query: {
  platform?: string[] | undefined;
  connectivity?: string[] | undefined;
  category?: string[] | undefined;
  features?: string[] | undefined;
}): RawBuilder<boolean>[] {
  const holds = (facts: unknown) => sql<boolean>`a.facts @> ${JSON.stringify(facts)}::jsonb`;
  const anyOf = (values: string[] | undefined, facts: (value: string) => unknown, extra: RawBuilder<boolean>[] = []) =>
    values?.length ? [sql<boolean>`(${sql.join([...values.map((v) => holds(facts(v))), ...extra], sql` or `)})`] : [];
  return [
    ...anyOf(
      query.platform,
      (platform) => ({ platforms: [platform] }),
      query.platform?.includes('local') ? [sql<boolean>`a.facts -> 'platforms' is null`] : [],
    ),
    ...anyOf(query.connectivity, (connectivity) => ({ drivers: [{ connectivity: [connectivity] }] })),
    ...anyOf(query.category, (category) => ({ category: [category] })),
    ...(query.features?.length ? [holds({ features: query.features })] : []),
  ];
}

/**
 * A text in one language: the asked one (`nl-BE`, then `nl`), else English, else the first given; text given once
 * is itself.
 */
export function inLanguage(text: Translation, language: string): string {
  if (typeof text === 'string') return text;
  const short = language.slice(0, 2).toLowerCase();
  return text[language] ?? text[short] ?? text.en ?? Object.values(text)[0] ?? '';
}
