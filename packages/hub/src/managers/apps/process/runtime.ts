import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRunner } from '@hearth/sdk/runner';
import type { HubContext } from '../../../platform/context';
import { translate } from '../../../runtime/manifest';
import type { DeviceService } from '../../devices/service';
import type { FlowRegistry } from '../../flow/registry';
import { hubTimezone } from '../../i18n/timezone';
import type { InsightsService } from '../../insights/service';
import type { Notifier } from '../../notifications/store';
import { readOption } from '../../options';
import type { Speaker } from '../../speech-output/speaker';
import type { AppService } from '../service';
import { appHandlers, type PairViewCommands } from './bridge';
import { reportCrash } from './crash-report';
import { AppDeviceHooks } from './device-hooks';
import { AppFlowCards } from './flow-cards';
import { type AppLaunch, AppProcessHost } from './host';
import { AppHubApi } from './hub-api';
import { AppImages } from './images';
import { AppRadios } from './radios';
import { deviceSnapshot } from './snapshot';
import { AppWebhooks } from './webhooks';

/** The parts of the hub that run apps with code, for the managers that talk to them. */
export interface AppProcesses {
  readonly host: AppProcessHost;
  readonly cards: AppFlowCards;
  /** The images apps registered, and the reading of their bytes. */
  readonly images: AppImages;
  /** Environment variables a devkit session runs an app with, over its env.json. */
  readonly envOverrides: Map<string, Record<string, string>>;
  /** The hub's web API as apps call it (`this.homey.api`). */
  readonly hubApi: AppHubApi;
  /** What users do to apps' devices besides capability writes (settings, names), told to their apps. */
  readonly deviceHooks: AppDeviceHooks;
  /** The radios the hub hands apps (`this.homey.zwave`): their managers fill it while they run. */
  readonly radios: AppRadios;
  /**
   * Tells a device's app of a device made outside a pair session (the demo seed, a benchmark): a running app
   * constructs it at once, one that is starting once it runs (unless it started with it); an app that is not
   * running gets it with its devices at its next start.
   */
  announce(deviceId: string): Promise<void>;
  /** The hub listens at `url` (its port is known only then); apps start once it does. */
  listening(url: string): void;
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
  localUrl: string,
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
      timezone: hubTimezone(context),
      geolocation: {
        latitude: location?.latitude ?? 0,
        longitude: location?.longitude ?? 0,
        accuracy: location?.accuracy ?? 0,
        mode: readOption(context, 'geolocation', 'mode', 'auto'),
      },
      localUrl,
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
    speech: Speaker;
  },
): AppProcesses {
  const { apps, devices, insights, pairing, flowCards, notifications, speech } = services;
  const images = new AppImages();
  // A device's view lists the images its app shows for it.
  devices.appImages = (deviceId) => images.ofDevice(deviceId);
  const envOverrides = new Map<string, Record<string, string>>();
  const settingsFromApp = new Set<string>();
  let listening: (url: string) => void = () => {};
  const localUrl = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const hubApi = new AppHubApi(context, () => localUrl);
  // Ends the requests the hub makes for its apps in the background (crash reports) when it stops.
  const stopping = new AbortController();
  let cards: AppFlowCards | undefined;
  let webhooks: AppWebhooks | undefined;
  const radios = new AppRadios();
  const host = new AppProcessHost({
    dataDir: join(context.config.dataDir, `${context.config.id}.apps`),
    runnerFile: ensureRunner,
    clock: context.clock,
    // Restart back-offs are jobs of the hub's durable scheduler: a pending restart survives a hub restart.
    scheduler: context.scheduler,
    limits: context.config.appHeapMb ? { heapMb: context.config.appHeapMb } : {},
    launch: async (appId) => launchOf(context, apps, devices, envOverrides, appId, await localUrl),
    handlers: (appId) =>
      appHandlers(
        {
          context,
          apps,
          devices,
          insights,
          cards: cards as AppFlowCards,
          images,
          pairing,
          settingsFromApp,
          notifications,
          speech,
          hubApi,
          webhooks: webhooks as AppWebhooks,
          radios,
        },
        appId,
      ),
    events: (appId) => images.listeners(appId),
    onStatus: (appId, status) => {
      cards?.sync(appId);
      // An app's images live as long as its process; a new process registers its own.
      if (status.state !== 'running' && status.state !== 'starting') {
        for (const deviceId of images.forgetApp(appId)) devices.updated(deviceId, ['images']);
        webhooks?.forgetApp(appId);
      }
      apps.processChanged(appId);
    },
    onCrashed: (appId, _status, stderr) => reportCrash(context, apps, appId, stderr, stopping.signal),
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
  webhooks = new AppWebhooks(context, host);
  const stops: (() => void)[] = [];
  return {
    host,
    cards,
    images,
    envOverrides,
    hubApi,
    deviceHooks: new AppDeviceHooks(apps, devices),
    radios,
    listening: (url) => listening(url),
    async announce(deviceId) {
      const device = devices.find(deviceId);
      if (!device || !apps.processHost(device.appId)) return;
      const { appId } = device;
      if (host.status(appId).state === 'starting') {
        const running = await new Promise<boolean>((resolve) => {
          const off = context.bus.on('app.state', `announce:${deviceId}`, (change) => {
            if (change.appId !== appId || change.state === 'starting') return;
            off();
            resolve(change.state === 'running');
          });
        });
        if (!running) return;
      }
      if (!host.isRunning(appId) || !devices.find(deviceId)) return;
      await host.call(appId, 'device.added', { device: deviceSnapshot(devices, devices.require(deviceId)) });
    },
    start() {
      host.attach();
      apps.attachHost(host);
      stops.push(
        cards.forwardUsageChanges(),
        (webhooks as AppWebhooks).start(),
        context.bus.on('app.setting', 'app-processes', ({ appId, name, value, removed }) => {
          if (settingsFromApp.has(`${appId}\u0000${name}`)) return;
          host.emit(appId, 'setting', { key: name, value: value ?? null, removed });
        }),
      );
      const deleted = (device: { id: string; appId: string }) => {
        if (host.isRunning(device.appId))
          void host
            .call(device.appId, 'device.deleted', { deviceId: device.id })
            .catch((error) => host.note(device.appId, 'stderr', `device ${device.id} deleted: ${(error as Error).message}`));
      };
      devices.deleted.add(deleted);
      stops.push(() => devices.deleted.delete(deleted));
      // An uninstalled app's session on the hub's web API goes with it.
      stops.push(context.bus.on('app.uninstalled', 'app-processes', ({ appId }) => hubApi.revoke(appId)));
    },
    stop() {
      stopping.abort();
      for (const stop of stops.splice(0)) stop();
    },
  };
}
