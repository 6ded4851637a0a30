import { notFound } from '@hearth/contract';
import semver from 'semver';
import type { Caller } from './access';
import type { AppFactsValue, FactsDriver } from './archive';
import { type BuildRow, CatalogueRecords, hubKey, num } from './records';
import type { Channel } from './tables';

/** Hubs installing apps: the build a hub gets, and the developer's figures of who installed what. */
export class Installs extends CatalogueRecords {
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
        updated_at: new Date(this.context.clock.now()),
      })
      .onConflict((oc) =>
        oc.columns(['app_id', 'hub_key']).doUpdateSet({
          build_id: build.id,
          version: build.version,
          channel: build.channel as Channel,
          updated_at: new Date(this.context.clock.now()),
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
}
