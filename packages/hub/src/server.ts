import multipart from '@fastify/multipart';
import { HearthError, hubManagerDescriptions } from '@hearth/contract';
import { createApiServer, installRateLimits, MemoryLimitStore, registerOperations } from '@hearth/contract/fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CloudClaim } from './cloudlink/claim';
import { CloudLink } from './cloudlink/client';
import { registerConnectCalls } from './cloudlink/connect-calls';
import { CloudEntitlements } from './cloudlink/entitlements';
import { registerOriginProof } from './cloudlink/origin-proof';
import { registerWithCloud } from './cloudlink/registration';
import { obtainCertificate, secureHost, serveSecure } from './cloudlink/secure';
import { openTunnel, type Tunnel } from './cloudlink/tunnel';
import { checkHubConfig, databasePath, HUB_SOFTWARE_VERSION, type HubConfig, hubModels } from './config';
import { DomainBus } from './core/bus';
import { type Clock, systemClock } from './core/clock';
import { DurableScheduler, schedulerMigrations } from './core/durable-scheduler';
import { homeAppDirectory, registerHomeApp } from './home-app';
import { managers } from './managers';
import { registerAppAssets } from './managers/apps/assets';
import { registerAppWebApi } from './managers/apps/process/web-api';
import { type AppliedRestore, applyStagedRestore } from './managers/backup/restore';
import { registerImageBytes } from './managers/images/serve';
import { applyStagedFactoryReset } from './managers/setup/factory-reset';
import { hubName } from './managers/system';
import { Authenticator } from './platform/auth';
import type { HubContext, HubPrincipal, ManagerInstance } from './platform/context';
import { HubEvents } from './platform/events';
import { SessionStore, sessionMigrations } from './platform/identity/sessions';
import { UserStore, userMigrations } from './platform/identity/users';
import { Journal, journalingLogger } from './platform/journal';
import { type Advertisement, advertiseHub } from './platform/mdns';
import { startRealtime } from './realtime';
import { publishDomainEvents } from './realtime/domain-events';
import { createHubRuntime, type HubServices } from './runtime/services';
import { migrate, openDatabase, transact } from './store/database';
import { GroupCommit } from './store/durability';
import { SettingStore, settingMigrations } from './store/settings';

export interface Hub {
  readonly app: FastifyInstance;
  readonly context: HubContext;
  /** The hub's device runtime services (apps, devices, insights, …), for tests and tools. */
  readonly services: HubServices;
  /** The running managers by name, for tests and tools that call a private operation's handler directly. */
  readonly managers: ReadonlyMap<string, ManagerInstance>;
  /** The HTTPS base URL (`localUrlSecure`) once served, or `null` (no secure port, no cloud, or no certificate). */
  readonly secureUrl: Promise<string | null>;
  /** Base URL once listening, e.g. `http://127.0.0.1:4100`. */
  readonly url: string;
  /** The hub's mDNS advertisement, when it advertises itself on the local network (`config.mdns`). */
  readonly mdns: Advertisement | null;
  /** Resolves `true` once the hub has registered its address with the cloud (`false` without a cloud link). */
  readonly cloudRegistration: Promise<boolean>;
  /** Resolves with the connect relay's tunnel once the hub registered (`null`: no cloud, or the relay is off). */
  readonly tunnel: Promise<Tunnel | null>;
  /** The cloud's one-time claim code for this hub while nobody has claimed it there (after registering). */
  cloudClaimToken(): string | null;
  /**
   * Resolves with the reason when a part of the hub asked to be restarted (a restore staged): whoever runs the hub
   * stops it and starts it again with the same configuration, which applies what was staged.
   */
  readonly restartRequested: Promise<string>;
  /** The backup restored when this hub started, if one was staged. */
  readonly restored: AppliedRestore | null;
  /** Issues a fresh owner personal access token with every scope (printed by `npm start`). */
  issueOwnerToken(): string;
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The group commit's change count when the request arrived (see `GroupCommit.changes`). */
    changesAtArrival: number;
    /** Failed group commits when the request arrived (see `GroupCommit.failures`). */
    failuresAtArrival: number;
  }
}

/** Turns a write's answer into the error of a change that could not be stored (its group was undone). */
function storageFailure(reply: FastifyReply): string {
  reply.status(503).type('application/json; charset=utf-8');
  return JSON.stringify(new HearthError('unavailable', 'The hub could not store this change; nothing was changed').toBody());
}

/** What a hub is started with besides its configuration; tests pass a fake clock. */
export interface HubOptions {
  readonly clock?: Clock;
  /**
   * Checks every wire event against the contract's declaration as it is published, throwing for one it does not
   * declare or whose payload does not match (the hub's tests turn it on; it costs a schema check per event).
   */
  readonly checkWireEvents?: boolean;
}

/**
 * The composition root: opens and migrates the hub's database, builds its context and services, creates every
 * manager in the order of `managers/index.ts`, starts them in that order, listens. `stop` undoes it in reverse.
 *
 * Adding a manager (README, "Adding a hub manager"): declare its operations and wire events in
 * `packages/contract/src/hub/<name>.ts`, write `managers/<name>/index.ts` exporting a `HubManager` whose `create`
 * answers its implementations and `start`/`stop`, and add it to the list in `managers/index.ts`. Nothing here
 * changes.
 */
export async function startHub(config: HubConfig, options: HubOptions = {}): Promise<Hub> {
  const problems = checkHubConfig(config);
  if (problems.length > 0) throw new Error(`Invalid hub configuration:\n- ${problems.join('\n- ')}`);
  // A factory reset, then a backup staged to be restored, replace the database before anything opens it.
  const restoreLog: string[] = [];
  const reset = applyStagedFactoryReset(config, (line) => restoreLog.push(line));
  const restored = applyStagedRestore(config, (line) => restoreLog.push(line));
  const db = openDatabase(databasePath(config));
  migrate(db, [
    ...schedulerMigrations,
    ...settingMigrations,
    ...userMigrations,
    ...sessionMigrations,
    ...managers.flatMap((m) => m.migrations ?? []),
  ]);
  // The hub registers with the cloud under its name: a reset's name is its own from the first start on.
  if (reset?.name && !restored) new SettingStore(db).set('system.name', reset.name);
  const clock = options.clock ?? systemClock;
  const events = new HubEvents({ check: options.checkWireEvents === true });
  const users = new UserStore(db, clock, events);
  const journal = new Journal(config.id, clock);
  for (const line of restoreLog) journal.log(line);
  const bus = new DomainBus((error, event) => journal.log(`error ${event} listener failed: ${(error as Error).message}`));
  const scheduler = new DurableScheduler(db, clock, (error, job) =>
    journal.log(`error scheduled ${job.kind} job ${job.id} failed: ${(error as Error).message}`),
  );
  const settings = new SettingStore(db);
  const cloud = new CloudLink(config);
  const entitlements = new CloudEntitlements({
    config,
    db,
    settings,
    clock,
    scheduler,
    cloud,
    log: (line) => journal.log(line),
  });
  const claim = new CloudClaim({ config, clock, scheduler, cloud, log: (line) => journal.log(line) });
  const context: HubContext = {
    config,
    db,
    users,
    sessions: new SessionStore(db, clock, events, (userId) => users.get(userId)?.role),
    settings,
    events,
    bus,
    clock,
    scheduler,
    journal,
    limits: new MemoryLimitStore(() => clock.now()),
    cloud,
    entitlements,
    claim,
    startedAt: new Date(clock.now()),
  };
  context.users.ensureOwner('Owner', null);
  const groupCommit = new GroupCommit(db, `${databasePath(config)}-wal`);

  const app = await createApiServer({
    title: `Hearth hub ${config.id}`,
    metricsPrefix: 'hearth_hub',
    version: config.softwareVersion,
    description: 'The local API of a Hearth hub: managers under /api/manager/{manager}.',
    logger: journalingLogger(journal, config.logLevel),
    exposedHeaders: ['X-Homey-ID', 'X-Homey-Version', 'X-Homey-Tier'],
    metricsToken: config.metricsToken ?? null,
    reference: {
      groups: hubManagerDescriptions,
      hint:
        'Authorize with a Bearer token of this hub: a personal access token (POST /api/manager/users/pat; `npm start` prints ' +
        "the owner's), or the session token POST /api/manager/users/login answers for a delegation token from the cloud " +
        '(POST /cloud/delegation/token?audience=homey).',
    },
  });
  installRateLimits(app, {
    store: context.limits,
    limits: config.rateLimits,
    sessionOf: (request) => (request.principal as HubPrincipal | null)?.sessionId ?? null,
  });
  // A change is acknowledged only once it is committed and on disk; concurrent changes share one commit and
  // one flush. Whether a request changed something is seen from the change count, not its method: a GET may
  // write too (a webhook call stores its event). A request that may have written into a group whose commit
  // failed is answered with an error.
  app.decorateRequest('changesAtArrival', 0);
  app.decorateRequest('failuresAtArrival', 0);
  app.addHook('onRequest', (request, _reply, done) => {
    request.changesAtArrival = groupCommit.changes;
    request.failuresAtArrival = groupCommit.failures;
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // Every answer names the hub, so direct local clients can check they reached the right one.
    reply.header('X-Homey-ID', config.id);
    reply.header('X-Homey-Version', config.softwareVersion);
    // The configured tier, else what the owner's subscriptions give (asked from the cloud, kept between starts).
    reply.header('X-Homey-Tier', entitlements.tier());
    // A refused call changed nothing; a call during which nothing changed has nothing to wait for.
    if (reply.statusCode >= 400 || groupCommit.changes === request.changesAtArrival) return payload;
    try {
      await groupCommit.sync();
    } catch (error) {
      request.log.error({ err: error }, 'group commit failed');
      return storageFailure(reply);
    }
    return groupCommit.failures === request.failuresAtArrival ? payload : storageFailure(reply);
  });
  const auth = new Authenticator(context);
  const authenticate = auth.authenticate;
  const runtime = createHubRuntime(context);
  // Before any manager starts: a change reaches sockets before the parts it sets off publish theirs.
  const stopDomainEvents = publishDomainEvents(context, runtime);
  const instances: ManagerInstance[] = managers.map((manager) => manager.create(context, runtime));
  const implementations = managers.flatMap((manager, index) =>
    (instances[index] as ManagerInstance).implementations.map((implementation) => ({
      implementation,
      multipart: manager.multipartOperations?.includes(implementation.operation.name) ?? false,
    })),
  );
  registerOperations(
    app,
    implementations.filter((i) => !i.multipart).map((i) => i.implementation),
    authenticate,
  );
  // The multipart parser lives in a scope of its own: only the operations that take an upload accept it.
  await app.register(async (scope) => {
    await scope.register(multipart);
    registerOperations(
      scope,
      implementations.filter((i) => i.multipart).map((i) => i.implementation),
      authenticate,
    );
  });
  registerAppWebApi(app, auth, runtime);
  registerImageBytes(app, context, auth, runtime);
  registerAppAssets(app, runtime);
  // The household web app at the origin root, beside /api and /socket.io.
  registerHomeApp(app, config.homeAppDir ?? homeAppDirectory(), config.cloudPublicUrl ?? config.cloudUrl);
  registerOriginProof(app, config);
  registerConnectCalls(app, context, async (manager, operation, input) => {
    const instance = instances[managers.findIndex((m) => m.name === manager)];
    const implementation = instance?.implementations.find((i) => i.operation.name === operation);
    if (!implementation) throw new Error(`no operation ${manager}.${operation}`);
    return implementation.handler(input as never);
  });
  entitlements.start();
  claim.start();
  for (const instance of instances) await instance.start?.();
  // The device runtime (apps and their processes, devices, insights) runs once every manager has started, and
  // the scheduler runs jobs once their handlers are registered.
  runtime.start();
  scheduler.start();
  const realtime = startRealtime(app, context, auth, {
    ownsPairSession: (userId, sessionId) => runtime.pairing.owns(userId, sessionId),
  });
  await app.listen({ host: config.host, port: config.port });
  const restartRequested = new Promise<string>((resolve) =>
    bus.on('hub.restartRequested', 'server', ({ reason }) => resolve(reason)),
  );
  bus.emit('hub.started', { at: clock.now() });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  runtime.processes.listening(url);
  // Only a hub in a home can be found on its local network; a cloud hub has no mDNS name.
  const mdns = config.mdns && hubModels[config.model].platform === 'local' ? advertiseHub(config, port, app.log) : null;
  // HTTPS on the secure port once the cloud's CA signed the hub's certificate; the hub serves HTTP meanwhile.
  const secure =
    config.securePort !== undefined && config.securePort !== null && config.cloudUrl && config.cloudClientSecret
      ? obtainCertificate(config, context.cloud)
          .then((tls) => serveSecure(app.server, tls, config.host, config.securePort as number))
          .catch((error: Error) => {
            journal.log(`warn no HTTPS on the secure port: ${error.message}`);
            return null;
          })
      : Promise.resolve(null);
  const secureUrl = secure.then((served) => (served ? `https://${secureHost(config)}:${served.port}` : null));
  // The name the hub has now (renamed by its owner, a setup session or a restore), not the one it was configured with.
  const registration = registerWithCloud({ ...config, name: hubName(context) }, context.cloud, url, app.log, {
    mdnsFqdn: mdns?.host ?? null,
    localUrlSecure: secureUrl,
  });
  // The tunnel opens once the cloud knows the hub: it refuses tunnels of hubs it has not registered.
  let stopping = false;
  // What the owner's subscriptions unlock is asked at start too, once the cloud knows the hub.
  void registration.registered.then((registered) => {
    if (registered && !stopping) claim.begin();
    if (registered && !stopping)
      entitlements
        .refresh()
        .catch((error) => journal.log(`warn cloud: asking for entitlements at start failed: ${(error as Error).message}`));
  });
  const tunnel = registration.registered.then((registered) =>
    registered && config.relay !== false && !stopping
      ? openTunnel(context.cloud, config.id, app.server, app.log, config.relay ?? {})
      : null,
  );

  return {
    app,
    context,
    services: runtime,
    managers: new Map(managers.map((manager, index) => [manager.name, instances[index] as ManagerInstance])),
    url,
    secureUrl,
    mdns,
    cloudRegistration: registration.registered,
    tunnel,
    cloudClaimToken: () => registration.claimToken(),
    restartRequested,
    restored,
    issueOwnerToken() {
      const owner = context.users.owner();
      if (!owner) throw new Error('hub has no owner');
      const name = 'Owner console';
      return transact(context.db, () => {
        context.sessions.revokeNamed(owner.id, name);
        return context.sessions.create({ type: 'PAT', userId: owner.id, name, scopes: null }).token;
      });
    },
    async stop() {
      stopping = true;
      registration.stop();
      await (await tunnel)?.stop();
      await mdns?.stop();
      await (await secure)?.stop();
      await realtime.stop();
      await scheduler.stop();
      await entitlements.stop();
      claim.stop();
      await runtime.stop();
      for (const instance of [...instances].reverse()) await instance.stop?.();
      stopDomainEvents();
      await app.close();
      await context.limits.close();
      groupCommit.close();
      db.close();
    },
  };
}

export { HUB_SOFTWARE_VERSION };
