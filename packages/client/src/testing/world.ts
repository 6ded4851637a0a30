import { type Cloud, cloudConfigFromEnv, startCloud } from '@hearth/cloud';
import type { HubConfig } from '@hearth/hub';
import { deadAddress, HUB_ID, type RunningHub, startRealHub } from './servers';

export const DEMO = {
  email: 'demo@hearth.test',
  password: 'hearth-demo-password',
  clientId: 'hearth-demo',
  clientSecret: 'hearth-demo-secret',
} as const;

/** The platform's internal client (client credentials), which may call private operations. */
export const INTERNAL_CLIENT = { id: 'hearth-internal', secret: 'client-test-internal-secret-0123' } as const;

export interface RunningWorld {
  cloud: Cloud;
  hub: RunningHub;
  cloudUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the real cloud (embedded PGlite, demo world seeded) and a real hub it lists as the demo user's hub,
 * the hub verifying the cloud's delegation tokens and learning its owner from the cloud's registry. The hub's port is reserved first so the cloud can seed
 * its address.
 */
export async function startWorld(env: Record<string, string> = {}, hubConfig: Partial<HubConfig> = {}): Promise<RunningWorld> {
  const hubUrl = await deadAddress();
  const config = {
    ...cloudConfigFromEnv({
      HEARTH_DEMO: '1',
      HEARTH_DEMO_HUBS: JSON.stringify([{ id: HUB_ID, name: 'Home', model: 'hearth-pro-5q', url: hubUrl }]),
      HEARTH_INTERNAL_CLIENT_SECRET: INTERNAL_CLIENT.secret,
      LOG_LEVEL: 'silent',
      ...env,
    }),
    host: '127.0.0.1',
    port: 0,
    dataDir: 'memory://',
    databaseUrl: null,
  };
  const cloud = await startCloud(config);
  // With the internal client's secret the hub registers and asks the cloud who owns it when someone signs in.
  const hub = await startRealHub({
    port: Number(new URL(hubUrl).port),
    cloudUrl: cloud.url,
    cloudClientSecret: INTERNAL_CLIENT.secret,
    ...hubConfig,
  });
  return {
    cloud,
    hub,
    cloudUrl: cloud.url,
    async stop() {
      await hub.stop();
      await cloud.stop();
    },
  };
}
