import { cloudOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';

const statsOps = pick(cloudOperations.cloud, [
  'getAppInstallsStatistics',
  'getAppDriversStatistics',
  'getAppFlowCardsStatistics',
  'getLocationStatistics',
  'getVersionStatistics',
  'getProductionStatistics',
  'getHomeyOwnerContactDetails',
]);

const PAGE_SIZE = 100;

/**
 * Statistics (internal only), computed from the registry. App install, driver and flow-card figures come from
 * the app catalogue, which records no installs yet: they are empty until it does.
 */
export function statsImplementations(context: CloudContext) {
  const { db } = context.database;
  return implement<typeof statsOps, CloudPrincipal>(statsOps, {
    getAppInstallsStatistics: () => [],
    getAppDriversStatistics: () => [],
    getAppFlowCardsStatistics: () => [],

    getLocationStatistics: async ({ query }) => {
      let q = db.selectFrom('hubs').select(['geolocation']);
      if (query.since !== undefined) q = q.where('created_at', '>=', new Date(query.since));
      const counts = new Map<string, number>();
      for (const { geolocation } of await q.execute()) {
        const country = typeof geolocation?.country === 'string' ? geolocation.country : 'unknown';
        counts.set(country, (counts.get(country) ?? 0) + 1);
      }
      return [...counts].map(([country, count]) => ({ country, count })).sort((a, b) => b.count - a.count);
    },

    getVersionStatistics: async () => {
      const rows = await db
        .selectFrom('hubs')
        .select(['software_version', db.fn.countAll<string>().as('count')])
        .groupBy('software_version')
        .orderBy('software_version')
        .execute();
      return rows.map((r) => ({ softwareVersion: r.software_version, count: Number(r.count) }));
    },

    getProductionStatistics: async ({ query }) => {
      let q = db.selectFrom('hubs').select(['created_at', 'model']);
      if (query.min) q = q.where('created_at', '>=', new Date(query.min));
      if (query.max) q = q.where('created_at', '<=', new Date(query.max));
      const counts = new Map<string, { date: string; model: string; count: number }>();
      for (const row of await q.execute()) {
        const date = row.created_at.toISOString().slice(0, 10);
        const key = `${date} ${row.model}`;
        const entry = counts.get(key) ?? { date, model: row.model, count: 0 };
        entry.count += 1;
        counts.set(key, entry);
      }
      return [...counts.values()].sort((a, b) => a.date.localeCompare(b.date) || a.model.localeCompare(b.model));
    },

    getHomeyOwnerContactDetails: async ({ query }) => {
      let q = db
        .selectFrom('hubs')
        .innerJoin('users', 'users.id', 'hubs.owner_user_id')
        .select(['hubs.id as homeyId', 'users.id as userId', 'users.email', 'users.firstname', 'users.lastname']);
      if (query.softwareVersion) q = q.where('hubs.software_version', '=', query.softwareVersion);
      if (query.homeyId) q = q.where('hubs.id', '=', query.homeyId);
      if (query.homeySn) q = q.where('hubs.serial', '=', query.homeySn);
      if (query.barcodeMin) q = q.where('hubs.serial', '>=', query.barcodeMin);
      if (query.barcodeMax) q = q.where('hubs.serial', '<=', query.barcodeMax);
      const page = query.page ?? 1;
      return q
        .orderBy('hubs.id')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute();
    },
  });
}
