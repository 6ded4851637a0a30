import { createHash } from 'node:crypto';
import { notFound } from '@hearth/contract';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext } from '../../platform/context';
import { type Caller, isAuthor, requireAuthor, TRUSTED_DEVELOPER_ROLE } from './access';
import type { AppFactsValue, FactsDriver } from './archive';
import type { AppBuildsTable, AppSettingsValue, AppsTable } from './tables';

export type BuildRow = Selectable<AppBuildsTable>;
export type AppRow = Selectable<AppsTable>;

export const DEFAULT_SETTINGS: AppSettingsValue = { sendEmailCrash: true, sendEmailSuggestion: true, sendEmailThanks: false };
export const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
export const num = (value: unknown): number => Number(value ?? 0);
/** A driver as the catalogue answers it: what the hub and the support form read of it. */
const driverRecord = (d: FactsDriver) => ({ id: d.id, name: d.name, class: d.class, connectivity: d.connectivity });

/** Archives and their icons live in the blob store every node of the cloud shares, under these keys. */
export const archiveKey = (file: string) => `apps/archives/${file}`;
export const iconKey = (archiveId: string) => `apps/archives/${archiveId}.icon.svg`;

/** How an installing hub is recorded: the SHA-256 of the `secret` it installs with (its id). */
export const hubKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * What every part of the app catalogue reads: the records it answers (apps, builds, archives, submissions), the rows
 * they come from, and who may see them. Each part extends it; none keeps state beyond the context.
 */
export class CatalogueRecords {
  readonly db: Kysely<CloudSchema>;
  readonly publicUrl: string;

  constructor(protected readonly context: CloudContext) {
    this.db = context.database.db;
    this.publicUrl = context.config.publicUrl.replace(/\/$/, '');
  }

  iconUrl = (appId: string) => `${this.publicUrl}/apps/app/${appId}/icon`;
  uploadUrl = (archiveId: string) => `${this.publicUrl}/apps/archive/${archiveId}`;
  downloadUrl = (archiveId: string) => `${this.publicUrl}/apps/archive/${archiveId}/download`;

  /** Summaries read one row per app: the publication, rating and install figures are kept on the app itself. */
  protected summaryQuery() {
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

  protected summaryRecord(row: Awaited<ReturnType<SummaryQuery['executeTakeFirstOrThrow']>>) {
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
  protected async summaries(filter: (q: SummaryQuery) => SummaryQuery) {
    const rows = await filter(this.summaryQuery()).execute();
    return rows.map((row) => this.summaryRecord(row));
  }

  protected async summaryOf(appId: string) {
    const row = await this.summaryQuery().where('a.id', '=', appId).executeTakeFirst();
    if (!row) throw notFound('App', appId);
    return this.summaryRecord(row);
  }

  protected async buildRecord(build: BuildRow, withEnv: boolean) {
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
  protected buildFacts(appId: string, facts: AppFactsValue | null) {
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

  protected archiveRecord(archive: Selectable<CloudSchema['app_archives']>) {
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

  protected submissionRecord(row: Selectable<CloudSchema['app_submissions']>) {
    return {
      _id: row.id,
      buildId: row.build_id,
      state: row.state,
      autoRelease: row.auto_release,
      createdAt: iso(row.created_at) as string,
      decidedAt: iso(row.decided_at),
    };
  }

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

  protected async buildRow(appId: string, buildId: string | number): Promise<BuildRow> {
    const build = await this.db
      .selectFrom('app_builds')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', Number(buildId))
      .executeTakeFirst();
    if (!build) throw notFound('Build', String(buildId));
    return build;
  }

  async getArchive(archiveId: string) {
    const archive = await this.db.selectFrom('app_archives').selectAll().where('id', '=', archiveId).executeTakeFirst();
    if (!archive) throw notFound('Archive', archiveId);
    return this.archiveRecord(archive);
  }

  protected async mailAuthor(app: AppRow, subject: string, text: string) {
    const author = await this.db.selectFrom('users').select('email').where('id', '=', app.author_user_id).executeTakeFirst();
    if (!author) return;
    // A notification to the developer must not fail the report or review that caused it.
    await this.context.mail
      .send({ to: author.email, subject, text })
      .catch((error) => this.context.log.error({ err: error, appId: app.id }, 'mail to the app’s author failed'));
  }
}

/** The query the summaries are read with, for the parts that filter it. */
export type SummaryQuery = ReturnType<CatalogueRecords['summaryQuery']>;
