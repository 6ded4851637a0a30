import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HearthError } from '@hearth/contract';
import type { HubToAppEventMap, HubToAppMethods, InitParams } from '@hearth/sdk/protocol';
import type { Clock } from '../../../core/clock';
import type { Scheduler } from '../../../core/scheduler';
import { type AppHost, type AppStatus, idleStatus, type RunState } from '../host';
import {
  AppChild,
  type AppEventListeners,
  type AppToHubHandlers,
  type ChildExit,
  type ChildLimits,
  type ChildUsage,
} from './child';
import { type StdLine, StdLog } from './std';

export type { AppStatus, RunState };

/** The limits of every app process and the policy of the host. */
export interface HostLimits extends ChildLimits {
  /** How long `uninit` may take before the process is ended anyway. */
  readonly stopTimeoutMs: number;
  /** First restart delay after a crash; it doubles with each crash in a row up to {@link maxBackoffMs}. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** After this many crashes within {@link crashWindowMs} the host gives up until someone starts the app again. */
  readonly maxCrashes: number;
  readonly crashWindowMs: number;
  /** How often the watchdog samples a running app's CPU and memory. */
  readonly sampleIntervalMs: number;
  /** CPU use (percent of one core) a sample counts as busy at. */
  readonly busyCpuPercent: number;
  /** Busy samples in a row that make one `cpuwarn`. */
  readonly busySamplesPerWarning: number;
  /** `cpuwarn`s after which the app is stopped (and counted as crashed). */
  readonly cpuWarnings: number;
  /** Resident memory (bytes) over which the app gets `memwarn`. */
  readonly memwarnBytes: number;
}

export const defaultLimits: HostLimits = {
  heapMb: 128,
  callTimeoutMs: 10_000,
  startTimeoutMs: 30_000,
  stopTimeoutMs: 5_000,
  backoffMs: 1_000,
  maxBackoffMs: 5 * 60_000,
  maxCrashes: 5,
  crashWindowMs: 10 * 60_000,
  sampleIntervalMs: 5_000,
  busyCpuPercent: 90,
  busySamplesPerWarning: 3,
  cpuWarnings: 3,
  memwarnBytes: (128 + 64) * 1024 * 1024,
};

/** What the host needs to start an app: its folder and what its `init` tells it (the host adds the folders). */
export interface AppLaunch {
  readonly dir: string;
  readonly init: Omit<InitParams, 'dir' | 'userdataDir' | 'tmpDir'>;
}

export interface ProcessHostOptions {
  /** Each app's writable folders live under `<dataDir>/<appId>/` (`userdata/`, `tmp/`). */
  readonly dataDir: string;
  /** The bundled SDK runner, or how to get it (see `ensureRunner` of `@hearth/sdk/runner`). */
  readonly runnerFile: string | (() => Promise<string>);
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly limits?: Partial<HostLimits>;
  /** Builds an app's launch at each (re)start, so a restart sees its current devices and settings. */
  launch(appId: string): Promise<AppLaunch> | AppLaunch;
  /** Answers the app's own requests (`this.homey` in its process). */
  handlers(appId: string): AppToHubHandlers;
  /** Hears an app's events besides its crash. */
  events?(appId: string): AppEventListeners;
  /** Told of every change of an app's status. */
  onStatus?(appId: string, status: AppStatus): void;
  /** Told when the host stopped restarting an app (too many crashes). */
  onGaveUp?(appId: string, status: AppStatus): void;
  /** Told of every crash, with the app's last error output (its uncaught error's stack): a crash report. */
  onCrashed?(appId: string, status: AppStatus, stderr: string): void;
}

interface Entry {
  status: AppStatus;
  readonly std: StdLog;
  child: AppChild | null;
  /** Why the running process is being ended by the host (a stop, or the watchdog); `null` if not. */
  ending: { crash: string | null } | null;
  crashes: number[];
  /** Crashes in a row since the app last ran for a whole crash window. */
  streak: number;
  startedAt: number;
  stopWatchdog: () => void;
  starting: Promise<AppStatus> | null;
  stopping: Promise<AppStatus> | null;
  /** The last usage sampled (by the watchdog or a caller), for views that cannot wait for a sample. */
  usage: ChildUsage;
}

const RESTART_JOB = 'app.restart';
/** Lines of an app's error output a crash report carries. */
const CRASH_REPORT_LINES = 40;
const idle = idleStatus;

/**
 * Runs each app in its own Node process ({@link AppChild}) and keeps its run state honest: `starting` until its
 * `onInit`s resolved, `running`, `stopping`, `stopped`; an exit nobody asked for marks it crashed with the
 * reason and restarts it after a back-off (through the scheduler), until it crashed too often in a short time.
 * A watchdog samples each process: a busy loop earns `cpuwarn`s and then a stop; a process near its memory
 * limit gets `memwarn`; one over its heap cap is ended by V8 and marked crashed.
 */
export class AppProcessHost implements AppHost {
  readonly limits: HostLimits;
  readonly #apps = new Map<string, Entry>();
  #undoHandler: (() => void) | null = null;

  constructor(private readonly options: ProcessHostOptions) {
    this.limits = { ...defaultLimits, ...options.limits };
  }

  /** Registers the restart job's handler; call once before starting apps. */
  attach(): void {
    this.#undoHandler ??= this.options.scheduler.handle<{ appId: string }>(RESTART_JOB, {
      run: async ({ payload }) => {
        const entry = this.#apps.get(payload.appId);
        if (entry && entry.status.state === 'stopped') await this.#launch(payload.appId);
      },
    });
  }

  /** Stops every app and the restart handler. */
  async detach(): Promise<void> {
    await Promise.all([...this.#apps.keys()].map((id) => this.stop(id)));
    this.#undoHandler?.();
    this.#undoHandler = null;
  }

  status(appId: string): AppStatus {
    return this.#apps.get(appId)?.status ?? idle;
  }

  isRunning(appId: string): boolean {
    return this.status(appId).state === 'running';
  }

  /** Starts the app (a user's start clears its crash record); resolves with its status once it runs or failed. */
  start(appId: string): Promise<AppStatus> {
    const entry = this.#entry(appId);
    entry.crashes = [];
    entry.streak = 0;
    this.options.scheduler.cancelOwner(`app:${appId}`);
    if (entry.status.crashed) this.#set(appId, { crashed: false, crashedMessage: null });
    return this.#launch(appId);
  }

  /** Stops the app: `unload`, then `uninit` (bounded by the stop timeout), then its process ends. */
  stop(appId: string): Promise<AppStatus> {
    const entry = this.#apps.get(appId);
    this.options.scheduler.cancelOwner(`app:${appId}`);
    if (!entry) return Promise.resolve(idle);
    entry.stopping ??= this.#halt(appId, entry).finally(() => {
      entry.stopping = null;
    });
    return entry.stopping;
  }

  async #halt(appId: string, entry: Entry): Promise<AppStatus> {
    if (entry.starting) await entry.starting;
    const child = entry.child;
    if (!child) return entry.status;
    entry.ending ??= { crash: null };
    this.#set(appId, { state: 'stopping' });
    child.emit('unload', {});
    // An app that fails or outlasts its `onUninit` is stopped all the same; its log says so.
    await child
      .call('uninit', {}, this.limits.stopTimeoutMs)
      .catch((error) => this.note(appId, 'stderr', `onUninit failed: ${(error as Error).message}`));
    child.kill('SIGTERM');
    const cancelKill = this.options.clock.setTimeout(() => child.kill('SIGKILL'), this.limits.stopTimeoutMs);
    await child.exited;
    cancelKill();
    return entry.status;
  }

  async restart(appId: string): Promise<AppStatus> {
    await this.stop(appId);
    return this.start(appId);
  }

  /**
   * Stops the app and, with `purge`, removes its writable folders (uninstall with its data). A start asked for
   * meanwhile (a reinstall) waits until they are gone; without one the host forgets the app.
   */
  async remove(appId: string, purge: boolean): Promise<void> {
    this.options.scheduler.cancelOwner(`app:${appId}`);
    const entry = this.#entry(appId);
    const stopped = entry.stopping ?? this.#halt(appId, entry);
    entry.stopping = stopped
      .then((status) => {
        if (purge) {
          rmSync(this.userdataDir(appId), { recursive: true, force: true });
          rmSync(join(this.options.dataDir, appId, 'tmp'), { recursive: true, force: true });
        }
        if (!entry.starting) this.#apps.delete(appId);
        return status;
      })
      .finally(() => {
        entry.stopping = null;
      });
    await entry.stopping;
  }

  /**
   * A new, empty folder for a version of an app's code (each install gets its own, so a process still stopping
   * never sees its files replaced); older versions are removed with {@link pruneCode}.
   */
  newCodeDir(appId: string): string {
    return join(this.options.dataDir, appId, `code-${this.options.clock.now()}-${randomUUID().slice(0, 8)}`);
  }

  /**
   * Removes the app's code folders other than `keep` made before `before` (epoch ms; a folder being unpacked for
   * a new install meanwhile stays). The host does so once a new version runs.
   */
  pruneCode(appId: string, keep: string | null, before = Number.POSITIVE_INFINITY): void {
    const root = join(this.options.dataDir, appId);
    if (!existsSync(root)) return;
    for (const name of readdirSync(root)) {
      const made = Number(/^code-(\d+)-/.exec(name)?.[1] ?? Number.NaN);
      const path = join(root, name);
      if (made < before && path !== keep) rmSync(path, { recursive: true, force: true });
    }
  }

  /** The folder an app may write to for good (its `/userdata`). */
  userdataDir(appId: string): string {
    return join(this.options.dataDir, appId, 'userdata');
  }

  /** Calls into the running app (a 503 `unavailable` when it is not running; 504 `timeout` when it hangs). */
  call<K extends keyof HubToAppMethods & string>(
    appId: string,
    method: K,
    params: HubToAppMethods[K]['params'],
    timeoutMs?: number,
  ): Promise<HubToAppMethods[K]['result']> {
    const entry = this.#apps.get(appId);
    if (!entry?.child || entry.status.state !== 'running') {
      return Promise.reject(new HearthError('unavailable', `App ${appId} is not running`));
    }
    return entry.child.call(method, params, timeoutMs);
  }

  emit<K extends keyof HubToAppEventMap & string>(appId: string, event: K, data: HubToAppEventMap[K]): boolean {
    return this.#apps.get(appId)?.child?.emit(event, data) ?? false;
  }

  /** The process's CPU (percent of one core) and resident memory (bytes); zero while it is not running. */
  async usage(appId: string): Promise<ChildUsage> {
    const entry = this.#apps.get(appId);
    if (!entry?.child) return { cpu: 0, mem: 0 };
    entry.usage = await entry.child.usage();
    return entry.usage;
  }

  /** The last sampled usage (zero while the app is not running). */
  lastUsage(appId: string): ChildUsage {
    const entry = this.#apps.get(appId);
    return entry?.child ? entry.usage : { cpu: 0, mem: 0 };
  }

  /** Whether the host runs (or ran) this app. */
  knows(appId: string): boolean {
    return this.#apps.has(appId);
  }

  /** Runs the app's garbage collector, then answers its usage. */
  async gc(appId: string): Promise<ChildUsage> {
    await this.call(appId, 'gc', {});
    return this.usage(appId);
  }

  std(appId: string): StdLine[] {
    return this.#apps.get(appId)?.std.lines() ?? [];
  }

  /** Follows the app's output line by line (a devkit session); answers the function that stops following. */
  follow(appId: string, listener: (line: StdLine) => void): () => void {
    return this.#entry(appId).std.follow(listener);
  }

  /** Writes a line of the host's own into the app's log (start, stop, crash notes). */
  note(appId: string, stream: StdLine['stream'], line: string): void {
    this.#entry(appId).std.append(stream, line);
  }

  #entry(appId: string): Entry {
    let entry = this.#apps.get(appId);
    if (!entry) {
      entry = {
        status: idle,
        std: new StdLog(() => this.options.clock.now()),
        child: null,
        ending: null,
        crashes: [],
        streak: 0,
        startedAt: 0,
        stopWatchdog: () => {},
        starting: null,
        stopping: null,
        usage: { cpu: 0, mem: 0 },
      };
      this.#apps.set(appId, entry);
    }
    return entry;
  }

  #set(appId: string, change: Partial<AppStatus>): void {
    const entry = this.#entry(appId);
    entry.status = { ...entry.status, ...change };
    this.options.onStatus?.(appId, entry.status);
  }

  #launch(appId: string): Promise<AppStatus> {
    const entry = this.#entry(appId);
    if (entry.starting) return entry.starting;
    if (entry.child && !entry.stopping) return Promise.resolve(entry.status);
    // A start right after a stop (a restart, an update) waits for the old process to end.
    const previous = entry.stopping ?? Promise.resolve(entry.status);
    entry.starting = previous
      .then(() => this.#boot(appId, entry))
      .finally(() => {
        entry.starting = null;
      });
    return entry.starting;
  }

  async #boot(appId: string, entry: Entry): Promise<AppStatus> {
    const session = randomUUID();
    this.#set(appId, { state: 'starting', session });
    let launch: AppLaunch;
    let runnerFile: string;
    try {
      const { runnerFile: runner } = this.options;
      runnerFile = typeof runner === 'string' ? runner : await runner();
      launch = await this.options.launch(appId);
    } catch (error) {
      this.note(appId, 'stderr', `The app could not be started: ${(error as Error).message}`);
      this.#set(appId, { state: 'stopped', session: null, crashed: true, crashedMessage: (error as Error).message });
      return entry.status;
    }
    const userdataDir = this.userdataDir(appId);
    const tmpDir = join(this.options.dataDir, appId, 'tmp');
    rmSync(tmpDir, { recursive: true, force: true });
    mkdirSync(userdataDir, { recursive: true });
    mkdirSync(tmpDir, { recursive: true });
    const child = new AppChild({
      ...this.limits,
      appId,
      runnerFile,
      dir: launch.dir,
      userdataDir,
      tmpDir,
      timezone: launch.init.timezone,
      handlers: this.options.handlers(appId),
      ...(this.options.events ? { events: this.options.events(appId) } : {}),
      onStd: (stream, line) => entry.std.append(stream, line),
    });
    entry.child = child;
    entry.ending = null;
    entry.startedAt = this.options.clock.now();
    void child.exited.then((exit) => this.#exited(appId, entry, child, exit));
    try {
      await child.start({ ...launch.init, dir: launch.dir, userdataDir, tmpDir });
    } catch (error) {
      // onInit failed or hung: the process is ended and the attempt counts as a crash.
      if (entry.child === child) {
        entry.ending = { crash: `The app failed to start: ${(error as Error).message}` };
        child.kill('SIGKILL');
        await child.exited;
      }
      return entry.status;
    }
    if (entry.child !== child) return entry.status;
    // The version now running is the only one kept (an update's older code goes once the new one runs).
    const made = Number(/code-(\d+)-[^/]*$/.exec(launch.dir)?.[1] ?? Number.NaN);
    if (launch.dir.startsWith(join(this.options.dataDir, appId)) && made > 0) this.pruneCode(appId, launch.dir, made);
    this.#set(appId, { state: 'running', crashed: false, crashedMessage: null });
    entry.stopWatchdog = this.#watch(appId, entry, child);
    return entry.status;
  }

  #exited(appId: string, entry: Entry, child: AppChild, exit: ChildExit): void {
    if (entry.child !== child) return;
    entry.child = null;
    entry.stopWatchdog();
    const ending = entry.ending;
    entry.ending = null;
    const exitFields = { exitCode: exit.code, exitSignal: exit.signal, session: null };
    if (ending && ending.crash === null) {
      this.#set(appId, { ...exitFields, state: 'stopped' });
      return;
    }
    const message =
      ending?.crash ??
      exit.message ??
      (entry.std.tail('stderr', 5) || `The app exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}`);
    const now = this.options.clock.now();
    // An app that ran a whole crash window before crashing starts its back-off afresh.
    if (now - entry.startedAt >= this.limits.crashWindowMs) entry.streak = 0;
    entry.streak += 1;
    entry.crashes = [...entry.crashes.filter((at) => now - at < this.limits.crashWindowMs), now];
    const stderr = entry.std.tail('stderr', CRASH_REPORT_LINES);
    this.note(appId, 'stderr', `The app crashed: ${message}`);
    this.#set(appId, {
      ...exitFields,
      state: 'stopped',
      crashed: true,
      crashedMessage: message,
      exitCount: entry.status.exitCount + 1,
    });
    this.options.onCrashed?.(appId, entry.status, stderr || message);
    if (entry.crashes.length >= this.limits.maxCrashes) {
      this.note(
        appId,
        'stderr',
        `The app crashed ${entry.crashes.length} times within ${this.limits.crashWindowMs / 60_000} minutes; it is not restarted again until someone starts it`,
      );
      this.options.onGaveUp?.(appId, entry.status);
      return;
    }
    const delay = Math.min(this.limits.backoffMs * 2 ** (entry.streak - 1), this.limits.maxBackoffMs);
    this.note(appId, 'stderr', `Restarting in ${delay} ms`);
    this.options.scheduler.schedule({
      kind: RESTART_JOB,
      dueAt: now + delay,
      payload: { appId },
      owner: `app:${appId}`,
      misfire: { kind: 'run-late' },
    });
  }

  /** Samples the process: a busy loop earns `cpuwarn`s and then a stop; high memory earns `memwarn`s. */
  #watch(appId: string, entry: Entry, child: AppChild): () => void {
    const limits = this.limits;
    let busy = 0;
    let cpuWarnings = 0;
    let memWarnings = 0;
    let sampling = false;
    return this.options.clock.setInterval(() => {
      if (sampling || entry.child !== child) return;
      sampling = true;
      void child
        .usage()
        .then((usage) => {
          if (entry.child !== child || entry.ending) return;
          entry.usage = usage;
          if (usage.mem >= limits.memwarnBytes) {
            memWarnings += 1;
            child.emit('memwarn', { count: memWarnings, limit: limits.heapMb });
          }
          busy = usage.cpu >= limits.busyCpuPercent ? busy + 1 : 0;
          if (busy < limits.busySamplesPerWarning) return;
          busy = 0;
          cpuWarnings += 1;
          if (cpuWarnings <= limits.cpuWarnings) {
            this.note(appId, 'stderr', `cpuwarn ${cpuWarnings}/${limits.cpuWarnings}: the app keeps the processor busy`);
            child.emit('cpuwarn', { count: cpuWarnings, limit: limits.cpuWarnings });
            return;
          }
          const seconds = Math.round((limits.sampleIntervalMs * limits.busySamplesPerWarning * (limits.cpuWarnings + 1)) / 1000);
          entry.ending = {
            crash: `The app was stopped: it kept the processor busy (over ${limits.busyCpuPercent} % for about ${seconds} s)`,
          };
          child.kill('SIGKILL');
        })
        .finally(() => {
          sampling = false;
        });
    }, limits.sampleIntervalMs);
  }
}
