import { notFound } from '@hearth/contract';
import semver from 'semver';
import { type Caller, isAuthor } from './access';
import { archiveKey, CatalogueRecords, DEFAULT_SETTINGS, iconKey } from './records';
import type { AppSettingsValue } from './tables';

/** An app's own record: reading and deleting it, its developer settings, changelog, author and icon. */
export class Apps extends CatalogueRecords {
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
    await this.db
      .updateTable('apps')
      .set({ author_user_id: userId, updated_at: new Date(this.context.clock.now()) })
      .where('id', '=', appId)
      .execute();
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
}
