import type { Readable } from 'node:stream';
import { APPS_LIMITS, cloudOperations, HearthError } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { safeEqual } from '../../platform/tokens';
import type { CloudService } from '../service';
import { callerOf } from './access';
import type { FactsDriver } from './archive';
import { registerAppPage } from './page';
import { seedDemoCatalogue } from './seed';

export { seedDemoCatalogue } from './seed';
export { AppCatalogue } from './service';

/** The content types an archive upload may carry. */
const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/x-tar+gzip', 'application/zip'];

async function collect(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.resume();
      throw new HearthError('payload_too_large', `The archive exceeds ${limit / 1024 / 1024} MB`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const idsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).map((v) => String(v).toLowerCase()).filter((v) => v !== 'undefined');
const numbersOf = (value: unknown): number[] => (Array.isArray(value) ? value : [value]).map(Number).filter(Number.isFinite);

/** The app catalogue under `/apps`. */
export const appsService: CloudService = {
  name: 'apps',
  create: (context, { catalogue }) => ({
    implementations: () => {
      const db = context.database.db;
      const caller = (principal: CloudPrincipal | null) => callerOf(db, principal);
      return implement<typeof cloudOperations.apps, CloudPrincipal>(cloudOperations.apps, {
        updateArchive: async ({ params, body, principal, request }) => {
          const who = await caller(principal);
          const raw = request.body as unknown;
          if (Buffer.isBuffer(raw)) return catalogue.builds.uploadArchive(params.archiveId, who, raw);
          if (raw && typeof (raw as Readable).pipe === 'function')
            return catalogue.builds.uploadArchive(
              params.archiveId,
              who,
              await collect(raw as Readable, APPS_LIMITS.maxArchiveBytes),
            );
          return catalogue.builds.reportArchive(params.archiveId, who, body);
        },
        getApps: async ({ query, reply }) => {
          const { total, apps } = await catalogue.discovery.list(query);
          reply.header('X-Total-Count', String(total));
          return apps;
        },
        searchApps: ({ query }) => catalogue.discovery.search(query.query, query),
        searchZigbeeDriver: ({ body }) =>
          catalogue.discovery.driverSearch(body, (d: FactsDriver) => {
            if (!d.zigbee) return false;
            return (
              idsOf(d.zigbee.manufacturerName).includes(body.manufacturerName.toLowerCase()) &&
              idsOf(d.zigbee.productId).includes(body.productId.toLowerCase())
            );
          }),
        searchZwaveDriver: ({ body }) =>
          catalogue.discovery.driverSearch(
            body,
            (d: FactsDriver) =>
              d.zwave !== undefined &&
              numbersOf(d.zwave.manufacturerId).includes(body.manufacturerId) &&
              numbersOf(d.zwave.productTypeId).includes(body.productTypeId) &&
              numbersOf(d.zwave.productId).includes(body.productId),
          ),
        searchMatterDriver: ({ body }) =>
          catalogue.discovery.driverSearch(
            body,
            (d: FactsDriver) =>
              d.matter !== undefined &&
              numbersOf(d.matter.vendorId).includes(body.vendorId) &&
              numbersOf(d.matter.productId).includes(body.productId),
          ),
        browseApps: ({ query }) => catalogue.discovery.browse(query),
        syncApps: async ({ principal }) => catalogue.index.sync(await caller(principal)),
        getAppsSummary: ({ query }) => {
          const secret = context.config.internalClientSecret;
          if (!secret || !safeEqual(query.secret, secret)) throw new HearthError('forbidden', 'Invalid secret');
          return catalogue.index.summary();
        },
        getHighlightedApps: ({ query }) =>
          catalogue.discovery.highlighted(
            query.platforms
              ?.split(',')
              .map((p) => p.trim())
              .filter(Boolean),
          ),
        getHighlightedAppsV2: async ({ query }) => {
          const apps = await catalogue.discovery.highlighted(query.platform, query.tags, query.language);
          const groups = new Map<string, typeof apps>();
          for (const app of apps)
            for (const category of app.category.length ? app.category : ['apps'])
              groups.set(category, [...(groups.get(category) ?? []), app]);
          return [...groups.entries()].map(([title, list]) => ({ title, apps: list }));
        },
        getMyApps: async ({ principal }) => catalogue.discovery.myApps(await caller(principal)),
        getAllLiveAppIDs: () => catalogue.discovery.liveIds(),
        getAllLiveApps: () => catalogue.discovery.liveSummaries(),
        getReviewApps: async ({ principal }) => catalogue.submissions.reviewQueue(await caller(principal)),
        getApp: async ({ params, principal }) => catalogue.apps.getApp(params.appId, await caller(principal)),
        deleteApp: async ({ params, principal }) => catalogue.apps.deleteApp(params.appId, await caller(principal)),
        getAppSettings: async ({ params, principal }) => catalogue.apps.getSettings(params.appId, await caller(principal)),
        updateAppSettings: async ({ params, body, principal }) =>
          catalogue.apps.updateSettings(params.appId, await caller(principal), body),
        getAppChangelog: async ({ params, principal }) => catalogue.apps.changelog(params.appId, await caller(principal)),
        updateAppAuthor: async ({ params, body, principal }) =>
          catalogue.apps.transferAuthor(params.appId, await caller(principal), body.userId),
        getAppIcon: async ({ params, reply }) => {
          const svg = await catalogue.apps.icon(params.appId);
          reply.header('cache-control', 'public, max-age=3600').type('image/svg+xml').send(svg);
        },
        getAppInstall: ({ params, query }) => catalogue.installs.install(params.appId, query),
        getAppInstallStats: async ({ params, principal }) =>
          catalogue.installs.installStats(params.appId, await caller(principal)),
        getAppDriversStats: async ({ params, principal }) =>
          catalogue.installs.driverStats(params.appId, await caller(principal)),
        getBuilds: async ({ params, principal }) => catalogue.builds.getBuilds(params.appId, await caller(principal)),
        createBuild: async ({ params, body, principal }) =>
          catalogue.builds.createBuild(params.appId, await caller(principal), body),
        getBuild: async ({ params, principal }) =>
          catalogue.builds.getBuild(params.appId, params.buildId, await caller(principal)),
        getCrashes: async ({ params, principal }) =>
          catalogue.crashes.crashGroups(params.appId, params.buildId, await caller(principal)),
        getCrashesStats: async ({ params, principal }) =>
          catalogue.crashes.crashStats(params.appId, params.buildId, await caller(principal)),
        updateBuildChannel: async ({ params, body, principal }) =>
          catalogue.builds.updateChannel(params.appId, params.buildId, await caller(principal), body.channel),
        createSubmission: async ({ params, body, principal }) =>
          catalogue.submissions.createSubmission(params.appId, params.buildId, await caller(principal), body.autoRelease ?? true),
        getSubmissionComments: async ({ params, principal }) =>
          catalogue.submissions.submissionComments(params.appId, params.buildId, await caller(principal)),
        createSubmissionComment: async ({ params, body, principal }) =>
          catalogue.submissions.addSubmissionComment(params.appId, params.buildId, await caller(principal), body.text),
        retractSubmission: async ({ params, principal }) =>
          catalogue.submissions.decideSubmission(params.appId, params.buildId, await caller(principal), 'retracted'),
        approveSubmission: async ({ params, principal }) =>
          catalogue.submissions.decideSubmission(params.appId, params.buildId, await caller(principal), 'approved'),
        rejectSubmission: async ({ params, principal }) =>
          catalogue.submissions.decideSubmission(params.appId, params.buildId, await caller(principal), 'rejected'),
        getReviews: async ({ params, principal }) => catalogue.feedback.reviews(params.appId, await caller(principal)),
        updateReview: async ({ params, body, principal }) =>
          catalogue.feedback.updateReview(params.appId, await caller(principal), body),
        deleteReview: async ({ params, principal }) => catalogue.feedback.deleteReview(params.appId, await caller(principal)),
        getThanks: async ({ params, principal }) => catalogue.feedback.thanks(params.appId, await caller(principal)),
        sayThanks: async ({ params, principal }) => catalogue.feedback.sayThanks(params.appId, await caller(principal)),
        getReviewsStats: async ({ params, principal }) => catalogue.feedback.reviewStats(params.appId, await caller(principal)),
        deleteAllReviews: async ({ params, principal }) =>
          catalogue.feedback.deleteAllReviews(params.appId, await caller(principal)),
        updateReviewResponse: async ({ params, body, principal }) =>
          catalogue.feedback.respondToReview(params.appId, params.userId, await caller(principal), body.response),
        deleteReviewResponse: async ({ params, principal }) => {
          await catalogue.feedback.respondToReview(params.appId, params.userId, await caller(principal), null);
        },
        createCrash: ({ params, body }) => catalogue.crashes.createCrash(params.appId, body),
        replyToCrash: async ({ params, body, principal }) =>
          catalogue.crashes.replyToCrash(params.crashId, await caller(principal), body),
        discoverApps: ({ body }) =>
          catalogue.discovery.discover({ ssdp: body.ssdp, ble: body.ble, mac: body.mac, 'mdns-sd': body['mdns-sd'] }),
        getAppSuggestions: async ({ params, query, principal }) =>
          catalogue.feedback.suggestions(params.appId, await caller(principal), query.offset ?? 0, query.length ?? 20),
        createAppSuggestion: async ({ params, body, principal }) =>
          catalogue.feedback.createSuggestion(params.appId, await caller(principal), body.suggestionText),
      });
    },
    start: async () => {
      // The demo world's catalogue comes with the demo world (`HEARTH_DEMO=1`, and every test cloud).
      if (context.config.demoHubs) await seedDemoCatalogue(context, catalogue);
    },
    routes: (app) => {
      registerAppPage(app, catalogue);
      for (const type of ARCHIVE_TYPES)
        if (!app.hasContentTypeParser(type))
          app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: APPS_LIMITS.maxArchiveBytes }, (_request, body, done) =>
            done(null, body),
          );
      // Hubs download the archive of a published build from the address `GET /app/:appId/install` gives them.
      app.get<{ Params: { archiveId: string } }>('/apps/archive/:archiveId/download', async (request, reply) => {
        if (!/^[0-9a-f]{24}$/.test(request.params.archiveId)) throw new HearthError('not_found', 'Archive not found');
        const file = await catalogue.builds.archiveFile(request.params.archiveId);
        reply
          .header('content-length', String(file.size))
          .type(file.format === 'zip' ? 'application/zip' : 'application/gzip')
          .send(file.body);
        return reply;
      });
    },
  }),
};
