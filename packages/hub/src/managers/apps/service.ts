import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AppItem, HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { Statement } from 'better-sqlite3';
import type { HubContext } from '../../platform/context';
import { capabilityDefinition } from '../../runtime/capabilities';
import {
  type AppManifest,
  type AppPackage,
  appsRoot,
  checkManifest,
  type DriverManifest,
  readPackages,
  translate,
} from '../../runtime/manifest';
import { type Migration, rollbackEpoch, transact } from '../../store/database';
import { Statements } from '../../store/statements';
import type { AppProcessHost, AppStatus } from './process/host';
import { STD_LINES, type StdLine } from './process/std';

export type { StdLine };

export const appMigrations: Migration[] = [
  {
    id: 'apps-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE app (
        id TEXT PRIMARY KEY,
        manifest TEXT NOT NULL,
        origin TEXT NOT NULL,
        channel TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        autoupdate INTEGER NOT NULL DEFAULT 1,
        builtin INTEGER NOT NULL DEFAULT 0,
        installed_at TEXT NOT NULL
      );
      CREATE TABLE app_setting (
        app_id TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (app_id, name)
      ) WITHOUT ROWID`),
  },
  {
    // The folder of an app's code: apps with an app.js there run in their own process.
    id: 'apps-002-dir',
    up: (db) => db.exec('ALTER TABLE app ADD COLUMN dir TEXT'),
  },
];

export type AppOrigin = 'appstore' | 'devkit_run' | 'devkit_install' | 'unknown';
export type AppChannel = 'stable' | 'beta' | 'alpha';
export type RunState = 'stopped' | 'starting' | 'running' | 'stopping';

interface AppRow {
  id: string;
  manifest: string;
  origin: AppOrigin;
  channel: AppChannel;
  enabled: number;
  autoupdate: number;
  builtin: number;
  installed_at: string;
  dir: string | null;
}

export interface InstalledApp {
  readonly id: string;
  readonly manifest: AppManifest;
  readonly origin: AppOrigin;
  readonly channel: AppChannel;
  readonly enabled: boolean;
  readonly autoupdate: boolean;
  readonly builtin: boolean;
  /** The folder of the app's package, when the hub has one. */
  readonly dir: string | null;
}

/** The simulated process of a running app. */
interface AppProcess {
  state: RunState;
  session: string | null;
  crashed: boolean;
  crashedMessage: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  exitCount: number;
  mem: number;
  timers: Set<NodeJS.Timeout>;
  std: StdLine[];
}

/** How often the hub asks the cloud's catalogue for newer versions of its apps. */
const CATALOGUE_REFRESH_MS = 6 * 3_600_000;
const READ_SCOPE = 'homey.app.readonly';

type Json = Record<string, unknown>;

/**
 * The manifest of an app from the cloud's catalogue, completed with the hub's own package of it where there
 * is one (drivers' pairing views and simulation), limited to the capabilities the hub knows.
 */
export function mergeManifest(remote: Json, local: AppManifest | undefined, version: string): Json {
  const localDrivers = new Map((local?.drivers ?? []).map((d) => [d.id, d]));
  const remoteDrivers = Array.isArray(remote.drivers) ? (remote.drivers as Json[]) : undefined;
  const drivers = (remoteDrivers ?? local?.drivers ?? []).map((driver) => {
    const merged: Json = {
      pair: [
        { id: 'list_devices', template: 'list_devices' },
        { id: 'add_devices', template: 'add_devices' },
      ],
      ...(localDrivers.get(String(driver.id)) ?? {}),
      ...driver,
    };
    const capabilities = Array.isArray(merged.capabilities) ? (merged.capabilities as unknown[]) : [];
    return { ...merged, capabilities: capabilities.filter((c) => typeof c === 'string' && capabilityDefinition(c)) };
  });
  const remoteAuthor = (remote.author ?? {}) as { name?: string; email?: string };
  const bugs = typeof remote.bugs === 'string' ? { url: remote.bugs } : (remote.bugs ?? local?.bugs);
  return {
    ...(local ?? {}),
    ...remote,
    version,
    drivers,
    author: {
      name: remoteAuthor.name ?? local?.author.name ?? 'Unknown',
      email: remoteAuthor.email ?? local?.author.email ?? '',
    },
    ...(bugs ? { bugs } : {}),
  };
}

/** Compares two semantic versions (major.minor.patch); pre-release tags sort before the release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

const toApp = (row: AppRow): InstalledApp => ({
  id: row.id,
  manifest: JSON.parse(row.manifest) as AppManifest,
  origin: row.origin,
  channel: row.channel,
  enabled: row.enabled === 1,
  autoupdate: row.autoupdate === 1,
  builtin: row.builtin === 1,
  dir: row.dir,
});

/** A driver of an installed app, resolved from its full id `homey:app:<appId>:<driverId>`. */
export interface ResolvedDriver {
  readonly app: InstalledApp;
  readonly driver: DriverManifest;
  readonly id: string;
}

export const driverFullId = (appId: string, driverId: string): string => `homey:app:${appId}:${driverId}`;

/**
 * Installed apps and their processes. An app with code (an `app.js` in its folder) runs in its own Node
 * process through the process host; an app that is only a manifest runs as a simulated state machine
 * (starting → running → stopping → stopped) driven by its manifest's `runtime` section. Either way a crash
 * marks it crashed and stopped without touching the rest of the hub.
 */
export class AppService {
  /** Prepared statements, prepared once per service. */
  #statements: Statements | undefined;

  private sql(text: string): Statement {
    this.#statements ??= new Statements(this.context.db);
    return this.#statements.get(text);
  }

  private readonly processes = new Map<string, AppProcess>();
  /** The run state each app was last announced with on the domain bus. */
  readonly #announced = new Map<string, { state: RunState; crashed: boolean }>();
  private stopped = false;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** Runs the apps that have code (an app.js in their folder), each in its own process. */
  #host: AppProcessHost | undefined;

  constructor(
    private readonly context: HubContext,
    /** Folders of app packages that `installFromAppStore` installs from until the cloud catalogue answers. */
    private readonly packageRoots: readonly string[] = [join(appsRoot, 'store')],
  ) {}

  /** Installs the built-in apps (first start, or a newer built-in version) and starts every enabled app. */
  start(): void {
    for (const pkg of readPackages(join(appsRoot, 'builtin'), true)) {
      const current = this.find(pkg.manifest.id);
      if (!current || current.manifest.version !== pkg.manifest.version) this.writeApp(pkg, 'unknown', 'stable');
    }
    for (const app of this.list()) if (app.enabled) this.launch(app);
    void this.refreshFromAppStore();
    this.refreshTimer = setInterval(() => void this.refreshFromAppStore(), CATALOGUE_REFRESH_MS);
    this.refreshTimer.unref();
  }

  /** Runs the apps with code in `host` from now on (the runtime attaches it before `start`). */
  attachHost(host: AppProcessHost): void {
    this.#host = host;
  }

  /** The host running `id`'s process, when `id` is an app with code. */
  processHost(id: string): AppProcessHost | undefined {
    const app = this.find(id);
    return app && this.runsCode(app) ? this.#host : undefined;
  }

  /** Whether the app has code that runs in its own process. */
  runsCode(app: InstalledApp): boolean {
    return this.#host !== undefined && app.dir !== null && existsSync(join(app.dir, 'app.js'));
  }

  /** Told by the process host when an app's process changed state. */
  processChanged(id: string): void {
    if (!this.find(id) || this.stopped || !this.context.db.open) return;
    this.publish('update', id);
    this.announceState(id);
  }

  /** Emits `app.state` on the domain bus when the app's run state or crashed flag changed since last told. */
  private announceState(id: string): void {
    const process = this.processHost(id)?.status(id) ?? this.processes.get(id);
    const now = { state: (process?.state ?? 'stopped') as RunState, crashed: process?.crashed ?? false };
    const before = this.#announced.get(id) ?? { state: 'stopped' as RunState, crashed: false };
    if (before.state === now.state && before.crashed === now.crashed) return;
    this.#announced.set(id, now);
    this.context.bus.emit('app.state', { appId: id, state: now.state, previous: before.state, crashed: now.crashed });
  }

  stop(): void {
    this.stopped = true;
    void this.#host?.detach();
    clearInterval(this.refreshTimer);
    for (const process of this.processes.values()) for (const timer of process.timers) clearTimeout(timer);
    this.processes.clear();
  }

  /**
   * Installed apps, parsed once: every capability write looks its driver up here. Writes below reset it, as
   * does a group of changes undone after it was made (the database's rollback epoch).
   */
  private cache: Map<string, InstalledApp> | undefined;
  private cacheEpoch = 0;

  private apps(): Map<string, InstalledApp> {
    const epoch = rollbackEpoch(this.context.db);
    if (!this.cache || this.cacheEpoch !== epoch) {
      this.cache = new Map((this.sql('SELECT * FROM app ORDER BY id').all() as AppRow[]).map((row) => [row.id, toApp(row)]));
      this.cacheEpoch = epoch;
    }
    return this.cache;
  }

  list(): InstalledApp[] {
    return [...this.apps().values()];
  }

  find(id: string): InstalledApp | undefined {
    return this.apps().get(id);
  }

  require(id: string): InstalledApp {
    const app = this.find(id);
    if (!app) throw notFound('App', id);
    return app;
  }

  isRunning(id: string): boolean {
    const host = this.processHost(id);
    if (host) return host.isRunning(id);
    return this.processes.get(id)?.state === 'running';
  }

  /** The app's run state now (`stopped` for an app that has none yet). */
  runState(id: string): RunState {
    const state = this.processHost(id)?.status(id)?.state ?? this.processes.get(id)?.state;
    return (state ?? 'stopped') as RunState;
  }

  /** Every driver of every installed app. */
  drivers(): ResolvedDriver[] {
    return this.list().flatMap((app) =>
      (app.manifest.drivers ?? []).map((driver) => ({ app, driver, id: driverFullId(app.id, driver.id) })),
    );
  }

  findDriver(fullId: string): ResolvedDriver | undefined {
    const match = /^homey:app:([^:]+):([^:]+)$/.exec(fullId);
    if (!match) return undefined;
    const app = this.find(match[1] as string);
    const driver = app?.manifest.drivers?.find((d) => d.id === match[2]);
    return app && driver ? { app, driver, id: fullId } : undefined;
  }

  private catalogueCache: AppPackage[] | undefined;

  /** The packages available to install: the local catalogue folders (read once). */
  catalogue(): AppPackage[] {
    this.catalogueCache ??= this.packageRoots.flatMap((root) => readPackages(root, false));
    return this.catalogueCache;
  }

  /** The newer version the catalogue offers for an installed app, if any. */
  updateAvailable(app: InstalledApp): { version: string; permissions: string[] } | null {
    if (app.builtin || app.origin !== 'appstore') return null;
    const remote = this.remote.get(app.id);
    if (remote) {
      const offered = app.channel === 'stable' ? remote.liveVersion : (remote.testVersion ?? remote.liveVersion);
      if (!offered || compareVersions(offered, app.manifest.version) <= 0) return null;
      return { version: offered, permissions: remote.permissions };
    }
    const latest = this.catalogue().find((p) => p.manifest.id === app.id)?.manifest;
    if (!latest || compareVersions(latest.version, app.manifest.version) <= 0) return null;
    return { version: latest.version, permissions: latest.permissions ?? [] };
  }

  /** Installs or updates an app from the catalogue and starts it. */
  installFromCatalogue(id: string, channel: AppChannel): InstalledApp {
    const pkg = this.catalogue().find((p) => p.manifest.id === id);
    if (!pkg) throw new HearthError('not_found', `App not found in the app store: ${id}`);
    return this.install(pkg, 'appstore', channel);
  }

  /** What the cloud's catalogue last said about installed apps: their live and test versions. */
  private readonly remote = new Map<string, { liveVersion: string | null; testVersion: string | null; permissions: string[] }>();

  /**
   * Installs an app from the cloud's app catalogue (`GET /apps/app/:id/install`): its manifest, with the
   * simulation hints of the hub's own package of that app where there is one. Without a reachable cloud the
   * local catalogue folder serves instead.
   */
  async installFromAppStore(id: string, channel: AppChannel, version?: string): Promise<InstalledApp> {
    const { cloudUrl } = this.context.config;
    if (!cloudUrl) return this.installFromCatalogue(id, channel);
    const query = new URLSearchParams({ channel, secret: this.context.config.id, ...(version ? { version } : {}) });
    let response: Response;
    try {
      response = await fetch(`${cloudUrl.replace(/\/$/, '')}/apps/app/${encodeURIComponent(id)}/install?${query}`, {
        headers: { 'X-Homey-ID': this.context.config.id },
        signal: AbortSignal.timeout(8_000),
      });
    } catch {
      return this.installFromCatalogue(id, channel);
    }
    if (response.status === 404) throw new HearthError('not_found', `App not found in the app store: ${id}`);
    if (!response.ok) throw new HearthError('unavailable', `The app store could not serve ${id} (status ${response.status})`);
    const install = (await response.json()) as { version: string; channel?: AppChannel; manifest: Record<string, unknown> };
    const localPackage = this.catalogue().find((p) => p.manifest.id === id);
    const local = localPackage?.manifest;
    const manifest = mergeManifest(install.manifest, local, install.version);
    const problems = checkManifest(manifest);
    if (problems.length > 0)
      throw new HearthError('unavailable', `The app store's manifest of ${id} is not usable: ${problems.join('; ')}`);
    const app = this.install(
      // The app's code comes from the hub's own package of it, where it has one (the catalogue serves manifests).
      { dir: localPackage?.dir ?? '', manifest: manifest as AppManifest, builtin: false },
      'appstore',
      install.channel ?? channel,
    );
    await this.refreshFromAppStore([app.id]);
    return this.require(app.id);
  }

  /** Asks the cloud's catalogue for the live and test versions of installed store apps (for updateAvailable). */
  async refreshFromAppStore(
    ids = this.list()
      .filter((a) => a.origin === 'appstore')
      .map((a) => a.id),
  ): Promise<void> {
    const { cloudUrl } = this.context.config;
    if (!cloudUrl) return;
    for (const id of ids) {
      try {
        const response = await fetch(`${cloudUrl.replace(/\/$/, '')}/apps/app/${encodeURIComponent(id)}`, {
          signal: AbortSignal.timeout(8_000),
        });
        if (!response.ok) continue;
        const app = (await response.json()) as {
          liveVersion?: string | null;
          testVersion?: string | null;
          liveBuild?: { manifest?: { permissions?: string[] } } | null;
        };
        this.remote.set(id, {
          liveVersion: app.liveVersion ?? null,
          testVersion: app.testVersion ?? null,
          permissions: app.liveBuild?.manifest?.permissions ?? [],
        });
        if (!this.stopped && this.context.db.open && this.find(id)) this.publish('update', id);
      } catch {
        return; // the cloud is out of reach: keep what is known
      }
    }
  }

  install(pkg: AppPackage, origin: AppOrigin, channel: AppChannel): InstalledApp {
    const existing = this.find(pkg.manifest.id);
    if (existing?.builtin) throw new HearthError('forbidden', `App ${pkg.manifest.id} is built in and cannot be replaced`);
    if (existing) this.halt(existing.id, 'update');
    this.writeApp(pkg, origin, channel);
    const app = this.require(pkg.manifest.id);
    this.log(app.id, 'stdout', `Installed ${app.id} v${app.manifest.version} (${origin}, ${channel})`);
    this.publish(existing ? 'update' : 'create', app.id);
    if (app.enabled) this.launch(app);
    return app;
  }

  private writeApp(pkg: AppPackage, origin: AppOrigin, channel: AppChannel): void {
    const { db } = this.context;
    transact(db, () => {
      this.sql(
        `INSERT INTO app (id, manifest, origin, channel, builtin, installed_at, dir) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest, origin = excluded.origin, channel = excluded.channel,
           dir = excluded.dir`,
      ).run(
        pkg.manifest.id,
        JSON.stringify(pkg.manifest),
        origin,
        channel,
        pkg.builtin ? 1 : 0,
        new Date().toISOString(),
        pkg.dir || null,
      );
      // Settings declared with a default start out with it; values set before (a reinstall) are kept.
      this.cache = undefined;
      const insert = this.sql('INSERT OR IGNORE INTO app_setting (app_id, name, value) VALUES (?, ?, ?)');
      for (const setting of pkg.manifest.settings ?? []) {
        if (setting.value !== undefined) insert.run(pkg.manifest.id, setting.id, JSON.stringify(setting.value));
      }
    });
  }

  /** Uninstalls an app; its devices go with it (the caller removes them first). */
  uninstall(id: string, purgeSettings: boolean): void {
    const app = this.require(id);
    if (app.builtin) throw new HearthError('forbidden', `App ${id} is built in and cannot be uninstalled`);
    this.halt(id, 'uninstall');
    // The app's writable folders go with its data, and its code with it unless it was installed again meanwhile.
    const host = this.#host;
    const removedAt = Date.now();
    void host?.remove(id, purgeSettings).then(() => {
      if (!this.find(id)) host.pruneCode(id, null, removedAt + 1);
    });
    const { db } = this.context;
    transact(db, () => {
      this.sql('DELETE FROM app WHERE id = ?').run(id);
      this.cache = undefined;
      if (purgeSettings) this.sql('DELETE FROM app_setting WHERE app_id = ?').run(id);
    });
    this.processes.delete(id);
    this.context.events.entity('apps', 'app', 'delete', { id }, READ_SCOPE);
  }

  setAutoupdate(id: string, autoupdate: boolean): InstalledApp {
    this.require(id);
    this.sql('UPDATE app SET autoupdate = ? WHERE id = ?').run(autoupdate ? 1 : 0, id);
    this.cache = undefined;
    this.publish('update', id);
    return this.require(id);
  }

  setEnabled(id: string, enabled: boolean): InstalledApp {
    const app = this.require(id);
    this.sql('UPDATE app SET enabled = ? WHERE id = ?').run(enabled ? 1 : 0, id);
    this.cache = undefined;
    if (enabled && !app.enabled) this.launch(this.require(id));
    if (!enabled) this.halt(id, 'disable');
    this.publish('update', id);
    return this.require(id);
  }

  restart(id: string): InstalledApp {
    const app = this.require(id);
    if (!app.enabled) throw new HearthError('conflict', `App ${id} is disabled; enable it first`);
    this.halt(id, 'restart');
    this.launch(app);
    return app;
  }

  /** Runs the app's garbage collector: a running app gives back part of its heap. */
  async gc(id: string): Promise<{ cpu: number; mem: number }> {
    this.require(id);
    const host = this.processHost(id);
    if (host) return host.isRunning(id) ? host.gc(id) : { cpu: 0, mem: 0 };
    const process = this.processes.get(id);
    if (process?.state === 'running') {
      process.mem = Math.round(process.mem * 0.8);
      this.log(id, 'stdout', 'Garbage collection finished');
    }
    return this.usage(id);
  }

  /** The process's usage measured now (an app with code), or the simulated figure. */
  async measureUsage(id: string): Promise<{ cpu: number; mem: number }> {
    this.require(id);
    const host = this.processHost(id);
    return host ? host.usage(id) : this.usage(id);
  }

  /** Usage without waiting: the last measured figure of a process, or the simulated one. */
  usage(id: string): { cpu: number; mem: number } {
    const app = this.require(id);
    const host = this.processHost(id);
    if (host) return host.lastUsage(id);
    const process = this.processes.get(id);
    if (process?.state !== 'running') return { cpu: 0, mem: 0 };
    // A plausible, slowly varying figure: mostly idle apps with a small periodic load.
    const cpu = Number((0.2 + ((Date.now() / 1000 + app.id.length) % 7) * 0.15).toFixed(2));
    return { cpu, mem: process.mem };
  }

  std(id: string): StdLine[] {
    this.require(id);
    const host = this.processHost(id);
    if (host) return host.std(id);
    return [...(this.processes.get(id)?.std ?? [])];
  }

  /** Appends a line of output to an app's bounded log. */
  log(id: string, stream: StdLine['stream'], line: string): void {
    const host = this.processHost(id);
    if (host) {
      host.note(id, stream, line);
      return;
    }
    const process = this.process(id);
    for (const part of line.split('\n')) process.std.push({ t: new Date().toISOString(), stream, line: part });
    if (process.std.length > STD_LINES) process.std.splice(0, process.std.length - STD_LINES);
  }

  // --- settings (homey.app.control) ---

  settings(id: string): Record<string, unknown> {
    this.require(id);
    const rows = this.sql('SELECT name, value FROM app_setting WHERE app_id = ? ORDER BY name').all(id) as {
      name: string;
      value: string;
    }[];
    return Object.fromEntries(rows.map((r) => [r.name, JSON.parse(r.value)]));
  }

  setting(id: string, name: string): unknown {
    this.require(id);
    const row = this.sql('SELECT value FROM app_setting WHERE app_id = ? AND name = ?').get(id, name) as
      | { value: string }
      | undefined;
    if (!row) throw notFound('Setting', name);
    return JSON.parse(row.value);
  }

  setSetting(id: string, name: string, value: unknown): unknown {
    this.require(id);
    if (value === undefined) throw new HearthError('missing_parameter', 'Missing Parameter: value');
    const json = JSON.stringify(value);
    if (json.length > 64 * 1024) throw invalidParameter('value', 'A setting holds at most 64 KiB of JSON');
    this.context.db
      .prepare('INSERT INTO app_setting (app_id, name, value) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET value = excluded.value')
      .run(id, name, json);
    this.context.events.publish({
      uri: `homey:app:${id}`,
      event: 'setting.set',
      data: { name, value },
      scope: 'homey.app.control',
    });
    return value;
  }

  unsetSetting(id: string, name: string): void {
    this.require(id);
    const changes = this.sql('DELETE FROM app_setting WHERE app_id = ? AND name = ?').run(id, name).changes;
    if (changes === 0) throw notFound('Setting', name);
    this.context.events.publish({ uri: `homey:app:${id}`, event: 'setting.unset', data: { name }, scope: 'homey.app.control' });
  }

  locale(id: string): Record<string, unknown> {
    const app = this.require(id);
    const locales = app.manifest.locales ?? {};
    return (locales[this.context.config.language] ?? locales.en ?? {}) as Record<string, unknown>;
  }

  // --- the view clients see ---

  view(app: InstalledApp): AppItem {
    const process: (Omit<AppStatus, 'state'> & { state: RunState }) | undefined =
      this.processHost(app.id)?.status(app.id) ?? this.processes.get(app.id);
    const { manifest } = app;
    const language = this.context.config.language;
    const icon = `/app/${app.id}/assets/icon.svg`;
    return {
      id: app.id,
      sdk: manifest.sdk,
      name: translate(manifest.name, language),
      description: translate(manifest.description, language),
      origin: app.origin,
      channel: app.channel,
      version: manifest.version,
      compatibility: manifest.compatibility ?? '>=5.0.0',
      icon,
      iconObj: { id: `${app.id}-icon`, url: icon },
      author: manifest.author,
      permissions: manifest.permissions ?? [],
      images: manifest.images ?? {
        small: `/app/${app.id}/assets/images/small.png`,
        large: `/app/${app.id}/assets/images/large.png`,
      },
      session: process?.session ?? null,
      ready: process?.state === 'running',
      state: process?.state ?? 'stopped',
      crashed: process?.crashed ?? false,
      crashedMessage: process?.crashedMessage ?? null,
      exitCode: process?.exitCode ?? null,
      exitSignal: process?.exitSignal ?? null,
      exitCount: process?.exitCount ?? 0,
      settings: (manifest.settings ?? []).length > 0,
      brandColor: manifest.brandColor ?? '#000000',
      hasDrivers: (manifest.drivers ?? []).length > 0,
      usage: this.usage(app.id),
      updateAvailable: this.updateAvailable(app),
      enabled: app.enabled,
      autoupdate: app.autoupdate,
      builtin: app.builtin,
      ...(manifest.support ? { support: manifest.support } : {}),
      ...(manifest.bugs ? { bugs: manifest.bugs } : {}),
      ...(manifest.homeyCommunityTopicId ? { homeyCommunityTopicId: manifest.homeyCommunityTopicId } : {}),
    };
  }

  // --- the simulated process ---

  private process(id: string): AppProcess {
    let process = this.processes.get(id);
    if (!process) {
      process = {
        state: 'stopped',
        session: null,
        crashed: false,
        crashedMessage: null,
        exitCode: null,
        exitSignal: null,
        exitCount: 0,
        mem: 0,
        timers: new Set(),
        std: [],
      };
      this.processes.set(id, process);
    }
    return process;
  }

  private later(process: AppProcess, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      process.timers.delete(timer);
      if (this.stopped) return;
      try {
        run();
      } catch (error) {
        // A failing simulation step must never take the hub down.
        this.context.events.publish({ uri: 'homey:manager:apps', event: 'app.error', data: String(error), scope: READ_SCOPE });
      }
    }, ms);
    timer.unref();
    process.timers.add(timer);
  }

  private setState(id: string, state: RunState): void {
    this.process(id).state = state;
    this.publish('update', id);
    this.announceState(id);
  }

  private launch(app: InstalledApp): void {
    if (this.stopped) return;
    if (this.runsCode(app)) {
      void this.#host?.start(app.id);
      return;
    }
    const process = this.process(app.id);
    if (process.state === 'starting' || process.state === 'running') return;
    for (const timer of process.timers) clearTimeout(timer);
    process.timers.clear();
    process.session = randomUUID();
    process.crashed = false;
    process.crashedMessage = null;
    process.mem = Math.round((app.manifest.runtime?.memoryMb ?? 24 + (app.id.length % 9) * 3) * 1024 * 1024);
    this.log(app.id, 'stdout', `${app.id} v${app.manifest.version} is starting (session ${process.session})`);
    this.setState(app.id, 'starting');
    const runtime = app.manifest.runtime;
    const session = process.session;
    this.later(process, runtime?.startupMs ?? 25, () => {
      if (process.session !== session || process.state !== 'starting') return;
      for (const line of runtime?.log ?? [`${translate(app.manifest.name, 'en')} has been initialized`])
        this.log(app.id, 'stdout', line);
      this.setState(app.id, 'running');
      const crash = runtime?.crash;
      if (crash) {
        this.later(process, crash.afterMs, () => {
          if (process.session !== session || process.state !== 'running') return;
          this.log(app.id, 'stderr', crash.message);
          process.crashed = true;
          process.crashedMessage = crash.message;
          process.exitCode = crash.exitCode ?? 1;
          process.exitSignal = crash.exitSignal ?? null;
          process.exitCount += 1;
          process.session = null;
          process.mem = 0;
          this.log(app.id, 'stderr', `Process exited with code ${process.exitCode}`);
          this.setState(app.id, 'stopped');
        });
      }
    });
  }

  /** Stops an app's process (stopping → stopped). */
  private halt(id: string, reason: string): void {
    const host = this.processHost(id);
    if (host) {
      host.note(id, 'stdout', `Stopping (${reason})`);
      void host.stop(id);
      return;
    }
    const process = this.processes.get(id);
    if (!process || process.state === 'stopped') return;
    for (const timer of process.timers) clearTimeout(timer);
    process.timers.clear();
    this.setState(id, 'stopping');
    this.log(id, 'stdout', `Stopping (${reason})`);
    process.session = null;
    process.mem = 0;
    process.exitCode = 0;
    process.exitSignal = 'SIGTERM';
    this.setState(id, 'stopped');
  }

  private publish(action: 'create' | 'update', id: string): void {
    const app = this.find(id);
    if (app) this.context.events.entity('apps', 'app', action, this.view(app), READ_SCOPE);
  }
}
