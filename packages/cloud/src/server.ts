import type { PGlite } from '@electric-sql/pglite';
import { cloudServiceDescriptions } from '@hearth/contract';
import { type Clock, systemClock } from '@hearth/contract/clock';
import {
  createApiServer,
  installRateLimits,
  type LimitStore,
  MemoryLimitStore,
  registerOperations,
} from '@hearth/contract/fastify';
import { RedisLimitStore } from '@hearth/contract/fastify/redis';
import type { FastifyInstance } from 'fastify';
import { CLOUD_VERSION, type CloudConfig, checkCloudConfig } from './config';
import { openDatabase } from './database';
import { migrations } from './database/migrations';
import { createAuthenticator } from './platform/auth';
import { openBlobStore } from './platform/blob-store';
import { Sweeper } from './platform/cluster/sweeps';
import type { CloudContext, CloudPrincipal } from './platform/context';
import { createCloudServices, services } from './services';
import { DOCS_CLIENT_ID, ensureInternalClient, seedDemoWorld } from './services/cloud/seed';
import { createMailer } from './services/mail/mailer';
import type { CloudServiceInstance, CloudServices } from './services/service';

export interface Cloud {
  readonly app: FastifyInstance;
  readonly context: CloudContext;
  /** What the services share (the relay, the catalogue): for tests and benchmarks that drive them directly. */
  readonly services: CloudServices;
  readonly url: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** An open PGlite database to share (tests: one per file, each cloud in its own schema). */
  pglite?: PGlite;
  /** The cloud's clock (tests move a fake one instead of sleeping). */
  clock?: Clock;
  /**
   * The clock of the limit store (default: the cloud's `clock`): a test that checks a hold of a second holds this
   * clock still instead of racing the wall clock on a loaded machine. The sign-in holds read it in Redis too; the
   * request windows in Redis keep Redis's own time.
   */
  limitsClock?: () => number;
}

/** Builds and starts the cloud: opens and migrates the database, registers every service, listens. */
export async function startCloud(config: CloudConfig, options: StartOptions = {}): Promise<Cloud> {
  const problems = checkCloudConfig(config);
  if (problems.length > 0) throw new Error(`Invalid cloud configuration:\n- ${problems.join('\n- ')}`);
  const database = await openDatabase(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema, pglite: options.pglite },
    migrations,
  );
  const clock = options.clock ?? systemClock;
  if (config.internalClientSecret) await ensureInternalClient(database.db, config.internalClientSecret);
  if (config.demoHubs)
    await seedDemoWorld(database.db, {
      publicUrl: config.publicUrl,
      hubs: config.demoHubs,
      region: config.region,
      now: new Date(clock.now()),
    });
  const mail = await createMailer(config, clock);
  const blobs = await openBlobStore(config);
  // Nodes on one database schema are one cloud: they share counters; another cloud on the same Redis does not.
  const limitsClock = options.limitsClock ?? (() => clock.now());
  const limits: LimitStore = config.redisUrl
    ? new RedisLimitStore(config.redisUrl, `hearth:limits:${config.databaseSchema}:`, limitsClock)
    : new MemoryLimitStore(limitsClock);
  const app = await createApiServer({
    title: 'Hearth cloud',
    metricsPrefix: 'hearth_cloud',
    version: CLOUD_VERSION,
    description: 'The Hearth cloud platform: accounts, hubs, apps, store and more, one service per base path.',
    logger: { level: config.logLevel },
    metricsToken: config.metricsToken ?? null,
    trustProxy: config.trustProxy,
    reference: {
      groups: cloudServiceDescriptions,
      hint:
        'Try signed-in calls: Authorize, then sign in with your Hearth account (OAuth2), or paste an access token as Bearer. ' +
        "Calls to a hub go to that hub's own reference at its address + /docs.",
      oauth: {
        clientId: DOCS_CLIENT_ID,
        authorizationUrl: `${config.publicUrl}/cloud/oauth2/authorise`,
        tokenUrl: `${config.publicUrl}/cloud/oauth2/token`,
      },
    },
  });
  const rateLimiter = installRateLimits(app, {
    store: limits,
    limits: config.rateLimits,
    sessionOf: (request) => (request.principal as CloudPrincipal | null)?.tokenId ?? null,
  });
  const sweeps = new Sweeper(database, app.log.child({ part: 'sweeps' }), config.sweepSpeedup, clock);
  const context: CloudContext = {
    config,
    database,
    startedAt: new Date(clock.now()),
    clock,
    log: app.log,
    mail,
    limits,
    rateLimiter,
    blobs,
    sweeps,
  };
  const shared = createCloudServices(context);
  const running: CloudServiceInstance[] = services.map((service) =>
    service.create({ ...context, log: app.log.child({ service: service.name }) }, shared),
  );
  registerOperations(
    app,
    running.flatMap((service) => service.implementations()),
    createAuthenticator(context),
  );
  for (const service of running) await service.routes?.(app);
  for (const service of running) await service.start?.();
  sweeps.start();
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    sweeps.stop();
    await mail.close();
    await blobs.close();
    await limits.close();
    await database.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    app,
    context,
    services: shared,
    url: `http://${config.host}:${port}`,
    async stop() {
      sweeps.stop();
      for (const service of [...running].reverse()) await service.stop?.();
      await app.close();
      await mail.close();
      await blobs.close();
      await limits.close();
      await database.close();
    },
  };
}
