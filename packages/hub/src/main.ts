import { resolve } from 'node:path';
import { rateLimitsFromEnv } from '@hearth/contract/fastify';
import { formatClaimCode } from '@hearth/contract/provider';
import { HUB_SOFTWARE_VERSION, type HubModel } from './config';
import { seedDemoHub } from './demo';
import { mqttBrokerFromEnvironment } from './managers/mqtt/environment';
import { type Hub, startHub } from './server';

/** Starts one hub from environment variables (see the README) and prints a ready line for the orchestrator. */
const env = process.env;
const config = {
  id: env.HUB_ID ?? '',
  name: env.HUB_NAME ?? 'Hearth',
  model: (env.HUB_MODEL ?? 'hearth-pro-5q') as HubModel,
  host: env.HUB_HOST ?? '127.0.0.1',
  port: Number(env.HUB_PORT ?? 4100),
  ...(env.HUB_SECURE_PORT ? { securePort: Number(env.HUB_SECURE_PORT) } : {}),
  dataDir: resolve(env.HEARTH_DATA_DIR ?? '.data', 'hubs'),
  softwareVersion: env.HUB_SOFTWARE_VERSION ?? HUB_SOFTWARE_VERSION,
  ...(env.HUB_TIER ? { tier: env.HUB_TIER } : {}),
  language: env.HUB_LANGUAGE ?? 'en',
  cloudUrl: env.HEARTH_CLOUD_URL || null,
  cloudPublicUrl: env.HEARTH_CLOUD_PUBLIC_URL || null,
  cloudClientSecret: env.HEARTH_INTERNAL_CLIENT_SECRET || null,
  ownerAthomId: env.HUB_OWNER_ATHOM_ID || null,
  mdns: env.HUB_MDNS !== '0',
  ...(env.HUB_RELAY === '0' ? { relay: false as const } : {}),
  ...(env.HUB_REMOTE_URL_FORWARDED ? { remoteUrlForwarded: env.HUB_REMOTE_URL_FORWARDED } : {}),
  metricsToken: env.HEARTH_METRICS_TOKEN || null,
  ...(env.HUB_APP_HEAP_MB ? { appHeapMb: Number(env.HUB_APP_HEAP_MB) } : {}),
  rateLimits: rateLimitsFromEnv(env),
  zwavePort: env.HUB_ZWAVE_PORT || null,
  zwaveStandIn: env.HUB_ZWAVE_STAND_IN || null,
  ...(env.HUB_MATTER_SUBSCRIPTION_CEILING_MS
    ? { matterSubscriptionCeilingMs: Number(env.HUB_MATTER_SUBSCRIPTION_CEILING_MS) }
    : {}),
  ...(env.HUB_MATTER_COMMISSION_TIMEOUT_MS ? { matterCommissionTimeoutMs: Number(env.HUB_MATTER_COMMISSION_TIMEOUT_MS) } : {}),
  mqtt: mqttBrokerFromEnvironment(env),
  logLevel: env.LOG_LEVEL ?? 'warn',
};
const start = () =>
  startHub(config).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
let hub: Hub = await start();
// A hub nobody owns prints the short code that claims it, and each new one (they last a quarter of an hour).
const printClaimCodes = (running: Hub) =>
  running.context.claim.onCode(({ code, claimUrl }) =>
    console.log(
      `Hub ${running.context.config.id} is not set up yet — claim it: code ${formatClaimCode(code)}, or open ${claimUrl}`,
    ),
  );
printClaimCodes(hub);

if (env.HEARTH_DEMO === '1') await seedDemoHub(hub);

console.log(
  `HEARTH_READY ${JSON.stringify({ kind: 'hub', id: hub.context.config.id, url: hub.url, ownerToken: hub.issueOwnerToken() })}`,
);

let stopping = false;

/** A part of the hub asked for a restart (a restore staged): stop it and start it again, which applies it. */
const restartWhenAsked = (running: Hub) =>
  running.restartRequested.then(async (reason) => {
    if (stopping) return;
    console.log(`Hub ${config.id} restarts: ${reason}`);
    await running.stop();
    hub = await start();
    printClaimCodes(hub);
    console.log(`Hub ${config.id} restarted at ${hub.url}${hub.restored ? ` with backup ${hub.restored.backupId}` : ''}`);
    void restartWhenAsked(hub);
  });
void restartWhenAsked(hub);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    hub.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
