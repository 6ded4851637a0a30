import { createHash } from 'node:crypto';
import { HearthError, notFound } from '@hearth/contract';
import type { Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { newId } from '../../platform/tokens';
import type { Caller } from './access';
import { CatalogueRecords, hubKey, iso } from './records';

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

/** Crash reports hubs send about apps: recording and grouping them, their figures, and the developer's replies. */
export class Crashes extends CatalogueRecords {
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
    const repliedAt = new Date(this.context.clock.now());
    await this.db.updateTable('app_crashes').set({ replied_at: repliedAt }).where('id', '=', crashId).execute();
    return { _id: crashId, repliedAt: repliedAt.toISOString() };
  }
}
