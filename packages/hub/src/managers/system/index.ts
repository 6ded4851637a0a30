import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { hubModels } from '../../config';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { type Migration, transact } from '../../store/database';
import type { AppService } from '../apps/service';
import { registerCards } from '../flow/registry';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';
import { rowsPerDay } from '../reports/activities';
import { memoryInfo, storageInfo, totals } from './resources';

/** Models with an under-voltage sensor: codes ending in 5q, 6q or 7q. */
export const hasUnderVoltageSensor = (model: string): boolean => /[567]q$/.test(model);

/** How long a simulated reboot keeps the hub in the `rebooting` state. */
export const REBOOT_MS = 1500;

const migrations: Migration[] = [
  {
    id: 'system-001-log-report',
    up: (db) => db.exec('CREATE TABLE system_log_report (id TEXT PRIMARY KEY, report TEXT NOT NULL, created_at TEXT NOT NULL)'),
  },
];

const behaviours: Record<string, OptionBehaviour> = { forwardedPort: { default: null } };

type RebootMode = 'normal' | 'recovery' | 'ota';

interface RunState {
  status: 'running' | 'rebooting';
  mode: RebootMode | null;
  since: string;
}

interface Profile {
  histogram: IntervalHistogram;
  startedAt: string;
  cancelTimer: () => void;
}

/** The system manager's state on one hub while it runs. */
interface SystemRuntime {
  run: RunState;
  cancelReboot: (() => void) | null;
  profile: Profile | null;
  lastProfile: Record<string, unknown> | null;
  unsubscribe: (() => void) | null;
}

const wifiEnabled = (context: HubContext): boolean =>
  context.settings.get('system.wifi', hubModels[context.config.model].platform === 'local');
const debugNamespace = (context: HubContext): string => context.settings.get('system.debug', '');

function systemInfo(context: HubContext, runtime: SystemRuntime) {
  const { config } = context;
  const model = hubModels[config.model];
  return {
    id: config.id,
    name: hubName(context),
    model: config.model,
    modelName: model.modelName,
    platform: model.platform,
    platformVersion: model.platform === 'local' ? 2 : 1,
    softwareVersion: config.softwareVersion,
    language: readOption(context, 'i18n', 'language', config.language),
    uptime: Math.round((context.clock.now() - context.startedAt.getTime()) / 1000),
    bootTime: context.startedAt.toISOString(),
    nodeVersion: process.version,
    arch: process.arch,
    hostname: hostname(),
    wifi: wifiEnabled(context),
    state: runtime.run.status,
    tier: context.entitlements.tier(),
    cloudBackups: context.entitlements.current().backups,
    ...(hasUnderVoltageSensor(config.model) ? { videoCoreUnderVoltageCurrentlyRatio: 0 } : {}),
  };
}

/** The hub's name: set by its owner, defaulting to the configured one. */
export const hubName = (context: HubContext): string => context.settings.get('system.name', context.config.name);

function installedApps(apps: AppService): Record<string, unknown>[] {
  return apps.list().map((app) => ({
    id: app.id,
    version: app.manifest.version ?? null,
    enabled: app.enabled,
    origin: app.origin,
    channel: app.channel,
  }));
}

/** A diagnostic report of the hub, stored so support can ask for it by id. */
function assembleReport(context: HubContext, runtime: SystemRuntime, apps: AppService, append: string | undefined) {
  const id = randomUUID();
  const createdAt = new Date(context.clock.now()).toISOString();
  const report = {
    id,
    createdAt,
    hub: systemInfo(context, runtime),
    versions: {
      hearth: context.config.softwareVersion,
      node: process.version,
      sqlite: context.db.prepare('SELECT sqlite_version()').pluck().get() as string,
      v8: process.versions.v8,
      platform: `${process.platform} ${process.arch}`,
    },
    apps: installedApps(apps),
    memory: memoryInfo(),
    storage: storageInfo(context),
    debug: debugNamespace(context),
    log: context.journal.tail(200),
    append: append ?? null,
  };
  transact(context.db, () =>
    context.db
      .prepare('INSERT INTO system_log_report (id, report, created_at) VALUES (?, ?, ?)')
      .run(id, JSON.stringify(report), createdAt),
  );
  context.journal.log(`diagnostic report ${id} stored`);
  return id;
}

function reboot(context: HubContext, runtime: SystemRuntime, mode: RebootMode): void {
  if (runtime.run.status === 'rebooting') throw new HearthError('conflict', 'The hub is already rebooting');
  const requestedAt = new Date(context.clock.now()).toISOString();
  runtime.run = { status: 'rebooting', mode, since: requestedAt };
  transact(context.db, () => {
    context.settings.set('system.lastReboot', { mode, requestedAt });
    context.settings.set('system.rebootCount', context.settings.get('system.rebootCount', 0) + 1);
  });
  context.journal.log(`reboot requested (${mode})`);
  context.events.manager('system', 'reboot', { mode, requestedAt }, 'homey.system.readonly');
  // The simulated hub keeps its process: after a moment it is running again.
  runtime.cancelReboot = context.clock.setTimeout(() => {
    runtime.cancelReboot = null;
    runtime.run = { status: 'running', mode: null, since: new Date(context.clock.now()).toISOString() };
    context.journal.log(`running again after ${mode} reboot`);
    context.events.manager('system', 'ready', { mode }, 'homey.system.readonly');
  }, REBOOT_MS);
}

function setDebug(context: HubContext, namespace: string) {
  context.settings.set('system.debug', namespace);
  context.journal.log(`debug namespaces set to "${namespace}"`);
  return { namespace };
}

function setWifi(context: HubContext, enabled: boolean) {
  if (hubModels[context.config.model].platform === 'cloud') throw new HearthError('conflict', 'A cloud hub has no Wi-Fi');
  context.settings.set('system.wifi', enabled);
  context.journal.log(`wifi ${enabled ? 'enabled' : 'disabled'}`);
  return { enabled };
}

function stopProfile(context: HubContext, runtime: SystemRuntime) {
  const profile = runtime.profile;
  if (!profile) throw new HearthError('conflict', 'No profile is running');
  profile.cancelTimer();
  profile.histogram.disable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  runtime.profile = null;
  runtime.lastProfile = {
    startedAt: profile.startedAt,
    stoppedAt: new Date(context.clock.now()).toISOString(),
    eventLoopDelay: {
      min: ms(profile.histogram.min),
      mean: ms(profile.histogram.mean),
      p50: ms(profile.histogram.percentile(50)),
      p99: ms(profile.histogram.percentile(99)),
      max: ms(profile.histogram.max),
    },
  };
  return runtime.lastProfile;
}

export const systemManager: HubManager = {
  name: 'system',
  migrations,
  create: (context, services) => {
    // The monthly reports count this manager's records through its counter.
    services.activities.register('diagnosticReports', rowsPerDay(context.db, 'system_log_report', 'created_at'));
    const runtime: SystemRuntime = {
      run: { status: 'running', mode: null, since: context.startedAt.toISOString() },
      cancelReboot: null,
      profile: null,
      lastProfile: null,
      unsubscribe: null,
    };
    return {
      implementations: implement<typeof hubOperations.system, HubPrincipal>(hubOperations.system, {
        ping: () => ({ id: context.config.id, version: context.config.softwareVersion }),
        getInfo: () => systemInfo(context, runtime),
        getSystemName: () => hubName(context),
        setSystemName: ({ body }) => {
          context.settings.set('system.name', body.name.trim());
          return hubName(context);
        },
        getState: () => ({
          ...runtime.run,
          ...optionValues(context, 'system', behaviours),
          wifi: wifiEnabled(context),
          debug: debugNamespace(context),
          lastReboot: context.settings.get('system.lastReboot', null),
          rebootCount: context.settings.get('system.rebootCount', 0),
          profiling: runtime.profile !== null,
        }),
        ...optionHandlers(context, 'system', hubOperations.system, behaviours),
        reboot: () => reboot(context, runtime, 'normal'),
        rebootRecovery: () => reboot(context, runtime, 'recovery'),
        rebootOTA: () => reboot(context, runtime, 'ota'),
        getMemoryInfo: () => memoryInfo(),
        getMemoryInfoTotal: () => totals(memoryInfo()),
        getStorageInfo: () => storageInfo(context),
        getStorageInfoTotal: () => totals(storageInfo(context)),
        getJournal: ({ query }) => context.journal.tail(query.lines ?? 100),
        sendLog: ({ body }) => assembleReport(context, runtime, services.apps, body.append),
        setDebug: ({ body }) => setDebug(context, body.namespace),
        setDebugMask: ({ params }) => setDebug(context, params.mask),
        enableWifi: () => setWifi(context, true),
        disableWifi: () => setWifi(context, false),
        startProfile: ({ body }) => {
          if (runtime.profile) throw new HearthError('conflict', 'A profile is already running');
          const histogram = monitorEventLoopDelay({ resolution: 10 });
          histogram.enable();
          const duration = body.duration ?? 30_000;
          const cancelTimer = context.clock.setTimeout(() => {
            if (runtime.profile) stopProfile(context, runtime);
          }, duration);
          runtime.profile = { histogram, startedAt: new Date(context.clock.now()).toISOString(), cancelTimer };
          return { startedAt: runtime.profile.startedAt, duration };
        },
        stopProfile: () => stopProfile(context, runtime),
      }),
      start: () => {
        const journal = context.journal;
        journal.log(`Hearth ${context.config.softwareVersion} started (${context.config.model})`);
        const stopJournal = context.events.on((event) => journal.log(`${event.uri} ${event.event}`));
        const stopCards = registerCards(services.flowCards, [
          { type: 'trigger', uri: 'homey:manager:system', id: 'hub_started', title: 'The hub has started' },
        ]);
        const stopStarted = context.bus.on('hub.started', 'system', () =>
          services.flowCards.fire({
            uri: 'homey:manager:system',
            id: 'hub_started',
            tokens: {},
            state: {},
            source: { kind: 'system' },
          }),
        );
        runtime.unsubscribe = () => {
          stopJournal();
          stopCards();
          stopStarted();
        };
      },
      stop: () => {
        runtime.unsubscribe?.();
        runtime.cancelReboot?.();
        if (runtime.profile) stopProfile(context, runtime);
      },
    };
  },
};
