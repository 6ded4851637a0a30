import { Readable } from 'node:stream';
import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import semver from 'semver';
import type { CloudContext } from '../../platform/context';
import { newId } from '../../platform/tokens';
import { type Caller, isAuthor, requireAccount, requireAuthor, requireProvider } from './access';
import { type AppFactsValue, ArchiveError, checkPackageManifest, factsOf, type PackageManifest, readArchive } from './archive';
import { archiveKey, CatalogueRecords, DEFAULT_SETTINGS, iconKey } from './records';
import type { CatalogueIndex } from './search-index';
import type { Channel } from './tables';

/**
 * An app's builds and their archives in the blob store, and what is published: which builds are live and in test,
 * and the app's facts and search postings that follow from them.
 */
export class Builds extends CatalogueRecords {
  constructor(
    context: CloudContext,
    private readonly index: CatalogueIndex,
  ) {
    super(context);
  }

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
          updated_at: new Date(this.context.clock.now()),
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
        updated_at: new Date(this.context.clock.now()),
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
      .set({ ...changes, updated_at: new Date(this.context.clock.now()) } as never)
      .where('id', '=', archiveId)
      .execute();
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
        updated_at: new Date(this.context.clock.now()),
      })
      .where('id', '=', appId)
      .execute();
    await this.index.indexApps([appId]);
  }

  private async touch(appId: string) {
    await this.db
      .updateTable('apps')
      .set({ updated_at: new Date(this.context.clock.now()) })
      .where('id', '=', appId)
      .execute();
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

  /** Puts a build on a channel (a submission approved with auto-release does too). */
  async publish(appId: string, buildId: number, channel: Channel) {
    await this.db
      .updateTable('app_builds')
      .set({ channel, published_at: new Date(this.context.clock.now()) })
      .where('id', '=', buildId)
      .execute();
    await this.refreshPublication(appId);
  }
}
