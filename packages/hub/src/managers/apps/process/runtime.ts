import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRunner } from '@hearth/sdk/runner';
import type { HubContext } from '../../../platform/context';
import { translate } from '../../../runtime/manifest';
import type { DeviceService } from '../../devices/service';
import type { FlowRegistry } from '../../flow/registry';
import type { InsightsService } from '../../insights/service';
import type { Notifier } from '../../notifications/store';
import { readOption } from '../../options';
import type { AppService } from '../service';
import { type AppImage, appHandlers, type PairViewCommands } from './bridge';
import { AppFlowCards } from './flow-cards';
import { type AppLaunch, AppProcessHost } from './host';
import { deviceSnapshot } from './snapshot';

/** The parts of the hub that run apps with code, for the managers that talk to them. */
export interface AppProcesses {
  readonly host: AppProcessHost;
  readonly cards: AppFlowCards;
  readonly images: Map<string, AppImage>;
  /** Environment variables a devkit session runs an app with, over its env.json. */
  readonly envOverrides: Map<string, Record<string, string>>;
  start(): void;
  stop(): void;
}

/** What an app's process is told at start: the hub's facts, the app's settings and its devices. */
function launchOf(
  context: HubContext,
  apps: AppService,
  devices: DeviceService,
  envOverrides: Map<string, Record<string, string>>,
  appId: string,
): AppLaunch {
  const app = apps.require(appId);
  if (!app.dir) throw new Error(`App ${appId} has no code on this hub`);
  const envFile = join(app.dir, 'env.json');
  const env: Record<string, string> = existsSync(envFile)
    ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>)
    : {};
  const location = readOption<{ latitude?: number; longitude?: number; accuracy?: number } | null>(
    context,
    'geolocation',
    'location',
    null,
  );
  const { config } = context;
  return {
    dir: app.dir,
    init: {
      appId,
      manifest: app.manifest as unknown as Record<string, unknown>,
      env: { ...env, ...envOverrides.get(appId) },
      hubId: config.id,
      hubVersion: config.softwareVersion,
      platform: 'local',
      platformVersion: 2,
      language: readOption(context, 'i18n', 'language', config.language),
      units: readOption(context, 'i18n', 'units', 'metric'),
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      geolocation: {
        latitude: location?.latitude ?? 0,
        longitude: location?.longitude ?? 0,
        accuracy: location?.accuracy ?? 0,
        mode: readOption(context, 'geolocation', 'mode', 'auto'),
      },
      localUrl: `http://${config.host}:${config.port}`,
      settings: apps.settings(appId) as Record<string, unknown>,
      devices: devices.listByApp(appId).map((device) => deviceSnapshot(devices, device)),
    },
  };
}

/**
 * Wires the process host into the hub: apps with code start in their own processes, answer through
 * {@link appHandlers}, register their flow cards while they run, hear of settings changed by others and of
 * their devices' deletion, and the household is told when one is given up after crashing too often.
 */
export function appProcesses(
  context: HubContext,
  services: {
    apps: AppService;
    devices: DeviceService;
    insights: InsightsService;
    pairing: PairViewCommands;
    flowCards: FlowRegistry;
    notifications: Notifier;
  },
): AppProcesses {
  const { apps, devices, insights, pairing, flowCards, notifications } = services;
  const images = new Map<string, AppImage>();
  const envOverrides = new Map<string, Record<string, string>>();
  const settingsFromApp = new Set<string>();
  let cards: AppFlowCards | undefined;
  const host = new AppProcessHost({
    dataDir: join(context.config.dataDir, `${context.config.id}.apps`),
    runnerFile: ensureRunner,
    clock: context.clock,
    // Restart back-offs are jobs of the hub's durable scheduler: a pending restart survives a hub restart.
    scheduler: context.scheduler,
    limits: context.config.appHeapMb ? { heapMb: context.config.appHeapMb } : {},
    launch: (appId) => launchOf(context, apps, devices, envOverrides, appId),
    handlers: (appId) =>
      appHandlers(
        { context, apps, devices, insights, cards: cards as AppFlowCards, images, pairing, settingsFromApp, notifications },
        appId,
      ),
    onStatus: (appId) => {
      cards?.sync(appId);
      apps.processChanged(appId);
    },
    onGaveUp: (appId, status) => {
      if (!context.db.open) return;
      const app = apps.find(appId);
      const name = app ? translate(app.manifest.name, context.config.language) : appId;
      notifications.notify({
        ownerUri: 'homey:manager:apps',
        excerpt: `**${name}** crashed ${host.limits.maxCrashes} times within ${host.limits.crashWindowMs / 60_000} minutes and was stopped: ${status.crashedMessage ?? 'no reason given'}`,
        priority: 'WARNING',
      });
    },
  });
  cards = new AppFlowCards(flowCards, apps, host, () => context.config.language);
  const stops: (() => void)[] = [];
  return {
    host,
    cards,
    images,
    envOverrides,
    start() {
      host.attach();
      apps.attachHost(host);
      stops.push(
        context.events.on((event) => {
          const appId = /^homey:app:(.+)$/.exec(event.uri)?.[1];
          if (!appId || (event.event !== 'setting.set' && event.event !== 'setting.unset')) return;
          const { name, value } = event.data as { name: string; value?: unknown };
          if (settingsFromApp.has(`${appId}\u0000${name}`)) return;
          host.emit(appId, 'setting', { key: name, value: value ?? null, removed: event.event === 'setting.unset' });
        }),
      );
      const deleted = (device: { id: string; appId: string }) => {
        if (host.isRunning(device.appId)) void host.call(device.appId, 'device.deleted', { deviceId: device.id }).catch(() => {});
      };
      devices.deleted.add(deleted);
      stops.push(() => devices.deleted.delete(deleted));
    },
    stop() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
