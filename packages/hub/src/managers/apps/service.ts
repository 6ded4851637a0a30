import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AppItem, HearthError } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { type AppPackage, appsRoot, flatSettings, readPackages, translate } from '../../runtime/manifest';
import {
  type AppChannel,
  type AppOrigin,
  appMigrations,
  type InstalledApp,
  InstalledApps,
  type ResolvedDriver,
} from './catalogue';
import type { AppHost, AppStatus, AppUsage, RunState } from './host';
import type { AppProcessHost } from './process/host';
import type { StdLine } from './process/std';
import { SimulatedAppHost } from './simulated-host';
import { AppStore } from './store';

export type { AppChannel, AppOrigin, InstalledApp, ResolvedDriver, RunState, StdLine };
export { appMigrations };

/** How often the hub asks the cloud's catalogue for newer versions of its apps. */
const CATALOGUE_REFRESH_MS = 6 * 3_600_000;
const READ_SCOPE = 'homey.app.readonly';

/**
 * Installed apps and how they run: the installed-apps catalogue (`catalogue.ts`) says what is installed, the
 * store (`store.ts`) where it comes from, and an {@link AppHost} runs each app: the process host for apps with
 * code (an `app.js` in their folder), the simulated host for apps that are only a manifest. A crash marks an app
 * crashed and stopped without touching the rest of the hub. Every change is announced: `app.*` wire events for
 * clients, `app.state` on the domain bus.
 */
export class AppService {
  readonly #installed: InstalledApps;
  readonly #store: AppStore;
  readonly #simulated: SimulatedAppHost;
  /** Runs the apps that have code, each in its own process (attached by the device runtime before `start`). */
  #processes: AppProcessHost | undefined;
  /** The run state each app was last announced with on the domain bus. */
  readonly #announced = new Map<string, { state: RunState; crashed: boolean }>();
  #stopped = false;
  #stopRefresh: (() => void) | undefined;

  constructor(
    private readonly context: HubContext,
    /** Folders of app packages that `installFromAppStore` installs from until the cloud catalogue answers. */
    packageRoots: readonly string[] = [join(appsRoot, 'store')],
  ) {
    this.#installed = new InstalledApps(context);
    this.#store = new AppStore(context, packageRoots);
    this.#simulated = new SimulatedAppHost({
      clock: context.clock,
      manifest: (id) => this.find(id)?.manifest,
      onStatus: (id) => this.processChanged(id),
      onError: (_id, error) => context.events.manager('apps', 'app.error', String(error), READ_SCOPE),
    });
  }

  /** Installs the built-in apps (first start, or a newer built-in version) and starts every enabled app. */
  start(): void {
    for (const pkg of readPackages(join(appsRoot, 'builtin'), true)) {
      const current = this.find(pkg.manifest.id);
      if (!current || current.manifest.version !== pkg.manifest.version) this.#installed.write(pkg, 'unknown', 'stable');
    }
    for (const app of this.list()) if (app.enabled) this.#launch(app);
    void this.refreshFromAppStore();
    this.#stopRefresh = this.context.clock.setInterval(() => void this.refreshFromAppStore(), CATALOGUE_REFRESH_MS);
  }

  stop(): void {
    this.#stopped = true;
    void this.#processes?.detach();
    void this.#simulated.detach();
    this.#stopRefresh?.();
  }

  /** Runs the apps with code in `host` from now on (the runtime attaches it before `start`). */
  attachHost(host: AppProcessHost): void {
    this.#processes = host;
  }

  /** The process host running `id`, when `id` is an app with code. */
  processHost(id: string): AppProcessHost | undefined {
    const app = this.find(id);
    return app && this.runsCode(app) ? this.#processes : undefined;
  }

  /** The host that runs the app: its process host when it has code, else the simulated one. */
  #hostOf(id: string): AppHost {
    return this.processHost(id) ?? this.#simulated;
  }

  /** Whether the app has code that runs in its own process. */
  runsCode(app: InstalledApp): boolean {
    if (this.#processes === undefined || app.dir === null) return false;
    // Asked on every capability write: an app's folder keeps or lacks its code for as long as it is installed.
    let code = this.#hasCode.get(app.dir);
    if (code === undefined) {
      code = existsSync(join(app.dir, 'app.js'));
      this.#hasCode.set(app.dir, code);
    }
    return code;
  }

  readonly #hasCode = new Map<string, boolean>();

  /** Told by a host when an app's process changed state. */
  processChanged(id: string): void {
    if (!this.find(id) || this.#stopped || !this.context.db.open) return;
    this.#publish('update', id);
    this.#announceState(id);
  }

  /** Emits `app.state` on the domain bus when the app's run state or crashed flag changed since last told. */
  #announceState(id: string): void {
    const status = this.#hostOf(id).status(id);
    const now = { state: status.state, crashed: status.crashed };
    const before = this.#announced.get(id) ?? { state: 'stopped' as RunState, crashed: false };
    if (before.state === now.state && before.crashed === now.crashed) return;
    this.#announced.set(id, now);
    this.context.bus.emit('app.state', { appId: id, state: now.state, previous: before.state, crashed: now.crashed });
  }

  // --- the catalogue ---

  list(): InstalledApp[] {
    return this.#installed.list();
  }

  find(id: string): InstalledApp | undefined {
    return this.#installed.find(id);
  }

  require(id: string): InstalledApp {
    return this.#installed.require(id);
  }

  drivers(): ResolvedDriver[] {
    return this.#installed.drivers();
  }

  findDriver(fullId: string): ResolvedDriver | undefined {
    return this.#installed.findDriver(fullId);
  }

  /** The packages of the hub's own store folders. */
  catalogue(): AppPackage[] {
    return this.#store.packages();
  }

  isRunning(id: string): boolean {
    return this.#hostOf(id).isRunning(id);
  }

  /** The app's run state now (`stopped` for an app that has none yet). */
  runState(id: string): RunState {
    return this.#hostOf(id).status(id).state;
  }

  // --- installing ---

  /**
   * Installs an app from the store (the cloud's app catalogue, or the hub's own package folders when the cloud is
   * out of reach) and starts it.
   */
  async installFromAppStore(id: string, channel: AppChannel, version?: string): Promise<InstalledApp> {
    const offered = await this.#store.packageFor(id, channel, version);
    const app = this.install(offered.pkg, 'appstore', offered.channel);
    await this.refreshFromAppStore([app.id]);
    return this.require(app.id);
  }

  /** Asks the cloud's catalogue for the versions of installed store apps; announces the apps it learnt of. */
  async refreshFromAppStore(
    ids = this.list()
      .filter((a) => a.origin === 'appstore')
      .map((a) => a.id),
  ): Promise<void> {
    const learnt = await this.#store.refresh(ids);
    for (const id of learnt) if (!this.#stopped && this.context.db.open && this.find(id)) this.#publish('update', id);
  }

  install(pkg: AppPackage, origin: AppOrigin, channel: AppChannel): InstalledApp {
    const existing = this.find(pkg.manifest.id);
    if (existing?.builtin) throw new HearthError('forbidden', `App ${pkg.manifest.id} is built in and cannot be replaced`);
    if (existing) this.#halt(existing.id, 'update');
    const app = this.#installed.write(pkg, origin, channel);
    this.log(app.id, 'stdout', `Installed ${app.id} v${app.manifest.version} (${origin}, ${channel})`);
    this.#publish(existing ? 'update' : 'create', app.id);
    if (!existing) this.context.bus.emit('app.installed', { appId: app.id });
    if (app.enabled) this.#launch(app);
    return app;
  }

  /** Uninstalls an app; its devices go with it (the caller removes them first). */
  uninstall(id: string, purgeSettings: boolean): void {
    const app = this.require(id);
    if (app.builtin) throw new HearthError('forbidden', `App ${id} is built in and cannot be uninstalled`);
    this.#halt(id, 'uninstall');
    // The app's writable folders go with its data, and its code with it unless it was installed again meanwhile.
    const processes = this.#processes;
    const removedAt = this.context.clock.now();
    void processes?.remove(id, purgeSettings).then(() => {
      if (!this.find(id)) processes.pruneCode(id, null, removedAt + 1);
    });
    void this.#simulated.remove(id);
    this.#installed.delete(id, purgeSettings);
    this.context.events.entity('apps', 'app', 'delete', { id }, READ_SCOPE);
    this.context.bus.emit('app.uninstalled', { appId: id });
  }

  setAutoupdate(id: string, autoupdate: boolean): InstalledApp {
    const app = this.#installed.setAutoupdate(id, autoupdate);
    this.#publish('update', id);
    return app;
  }

  setEnabled(id: string, enabled: boolean): InstalledApp {
    const before = this.require(id);
    const app = this.#installed.setEnabled(id, enabled);
    if (enabled && !before.enabled) this.#launch(app);
    if (!enabled) this.#halt(id, 'disable');
    this.#publish('update', id);
    return this.require(id);
  }

  restart(id: string): InstalledApp {
    const app = this.require(id);
    if (!app.enabled) throw new HearthError('conflict', `App ${id} is disabled; enable it first`);
    this.#halt(id, 'restart');
    this.#launch(app);
    return app;
  }

  #launch(app: InstalledApp): void {
    if (this.#stopped) return;
    void this.#hostOf(app.id).start(app.id);
  }

  /** Stops an app's process (stopping → stopped); a stopped app's pending restart after a crash is called off. */
  #halt(id: string, reason: string): void {
    const host = this.#hostOf(id);
    if (host.status(id).state !== 'stopped') host.note(id, 'stdout', `Stopping (${reason})`);
    void host.stop(id);
  }

  // --- usage and output ---

  /** Runs the app's garbage collector: a running app gives back part of its heap. */
  async gc(id: string): Promise<AppUsage> {
    this.require(id);
    const host = this.#hostOf(id);
    return host.isRunning(id) ? host.gc(id) : { cpu: 0, mem: 0 };
  }

  /** The process's usage measured now (an app with code), or the simulated figure. */
  async measureUsage(id: string): Promise<AppUsage> {
    this.require(id);
    return this.#hostOf(id).usage(id);
  }

  /** Usage without waiting: the last measured figure of a process, or the simulated one. */
  usage(id: string): AppUsage {
    this.require(id);
    return this.#hostOf(id).lastUsage(id);
  }

  std(id: string): StdLine[] {
    this.require(id);
    return this.#hostOf(id).std(id);
  }

  /** Follows an app's output line by line (a devkit session); answers the function that stops following. */
  follow(id: string, listener: (line: StdLine) => void): () => void {
    this.require(id);
    return this.#hostOf(id).follow(id, listener);
  }

  /** Appends a line of output to an app's bounded log. */
  log(id: string, stream: StdLine['stream'], line: string): void {
    this.#hostOf(id).note(id, stream, line);
  }

  // --- settings (homey.app.control) ---

  settings(id: string): Record<string, unknown> {
    return this.#installed.settings(id);
  }

  setting(id: string, name: string): unknown {
    return this.#installed.setting(id, name);
  }

  setSetting(id: string, name: string, value: unknown): unknown {
    this.#installed.setSetting(id, name, value);
    this.context.bus.emit('app.setting', { appId: id, name, value, removed: false });
    return value;
  }

  unsetSetting(id: string, name: string): void {
    this.#installed.unsetSetting(id, name);
    this.context.bus.emit('app.setting', { appId: id, name, value: null, removed: true });
  }

  locale(id: string): Record<string, unknown> {
    return this.#installed.locale(id);
  }

  // --- the view clients see ---

  view(app: InstalledApp): AppItem {
    const status: AppStatus = this.#hostOf(app.id).status(app.id);
    const { manifest } = app;
    const language = this.context.config.language;
    const icon = `/app/${app.id}/assets/icon.svg`;
    return {
      id: app.id,
      sdk: manifest.sdk ?? 3,
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
      session: status.session,
      ready: status.state === 'running',
      state: status.state,
      crashed: status.crashed,
      crashedMessage: status.crashedMessage,
      exitCode: status.exitCode,
      exitSignal: status.exitSignal,
      exitCount: status.exitCount,
      settings: (manifest.settings ?? []).length > 0,
      // The app's settings page, drawn by clients as a form: each setting's declaration in the hub's language.
      settingsForm: flatSettings(manifest.settings).map((setting) => ({
        ...setting,
        label: translate(setting.label ?? setting.title, language),
        ...(setting.hint ? { hint: translate(setting.hint, language) } : {}),
        ...(setting.values
          ? {
              values: setting.values.map((option) => ({
                id: option.id,
                label: translate(option.label ?? option.title, language),
              })),
            }
          : {}),
      })),
      brandColor: manifest.brandColor ?? '#000000',
      hasDrivers: (manifest.drivers ?? []).length > 0,
      usage: this.usage(app.id),
      updateAvailable: this.#store.updateAvailable(app),
      enabled: app.enabled,
      autoupdate: app.autoupdate,
      builtin: app.builtin,
      ...(manifest.support ? { support: manifest.support } : {}),
      ...(manifest.bugs ? { bugs: manifest.bugs } : {}),
      ...(manifest.homeyCommunityTopicId ? { homeyCommunityTopicId: manifest.homeyCommunityTopicId } : {}),
    };
  }

  #publish(action: 'create' | 'update', id: string): void {
    const app = this.find(id);
    if (app) this.context.events.entity('apps', 'app', action, this.view(app), READ_SCOPE);
  }
}
