import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock';
import { type AppManifest, translate } from '../../runtime/manifest';
import { type AppHost, type AppStatus, type AppUsage, idleStatus, type RunState } from './host';
import { type StdLine, StdLog } from './process/std';

/** The simulated process of a running app. */
interface SimulatedProcess {
  status: AppStatus;
  mem: number;
  readonly timers: Set<NodeJS.Timeout>;
  readonly std: StdLog;
}

export interface SimulatedHostOptions {
  readonly clock: Clock;
  /** The manifest of an installed app (its `runtime` section drives the simulation). */
  manifest(appId: string): AppManifest | undefined;
  /** Told of every change of an app's status. */
  onStatus(appId: string): void;
  /** A simulation step that failed; the hub goes on. */
  onError(appId: string, error: unknown): void;
}

/**
 * Runs apps that are only a manifest (no `app.js`) as a state machine: starting → running (after the manifest's
 * `simulation.startupMs`) → stopping → stopped, printing its `simulation.log` lines; a `simulation.crash` ends it after
 * `afterMs` with its message and exit code, marked crashed. Its steps wait on real time, as a real process's
 * start does, whatever clock the hub runs on: a hub on a fake clock still has its apps running.
 */
export class SimulatedAppHost implements AppHost {
  readonly #apps = new Map<string, SimulatedProcess>();
  #detached = false;

  constructor(private readonly options: SimulatedHostOptions) {}

  #process(appId: string): SimulatedProcess {
    let process = this.#apps.get(appId);
    if (!process) {
      process = { status: idleStatus, mem: 0, timers: new Set(), std: new StdLog(() => this.options.clock.now()) };
      this.#apps.set(appId, process);
    }
    return process;
  }

  #set(appId: string, change: Partial<AppStatus>): void {
    const process = this.#process(appId);
    process.status = { ...process.status, ...change };
    this.options.onStatus(appId);
  }

  #later(appId: string, process: SimulatedProcess, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      process.timers.delete(timer);
      if (this.#detached) return;
      try {
        run();
      } catch (error) {
        // A failing simulation step must never take the hub down.
        this.options.onError(appId, error);
      }
    }, ms);
    timer.unref();
    process.timers.add(timer);
  }

  #clearTimers(process: SimulatedProcess): void {
    for (const timer of process.timers) clearTimeout(timer);
    process.timers.clear();
  }

  status(appId: string): AppStatus {
    return this.#apps.get(appId)?.status ?? idleStatus;
  }

  isRunning(appId: string): boolean {
    return this.status(appId).state === 'running';
  }

  async start(appId: string): Promise<AppStatus> {
    const manifest = this.options.manifest(appId);
    if (this.#detached || !manifest) return this.status(appId);
    const process = this.#process(appId);
    if (process.status.state === 'starting' || process.status.state === 'running') return process.status;
    this.#clearTimers(process);
    const session = randomUUID();
    process.mem = Math.round((manifest.simulation?.memoryMb ?? 24 + (appId.length % 9) * 3) * 1024 * 1024);
    this.note(appId, 'stdout', `${appId} v${manifest.version} is starting (session ${session})`);
    this.#set(appId, { state: 'starting', session, crashed: false, crashedMessage: null });
    const runtime = manifest.simulation;
    const current = (state: RunState) => process.status.session === session && process.status.state === state;
    this.#later(appId, process, runtime?.startupMs ?? 25, () => {
      if (!current('starting')) return;
      for (const line of runtime?.log ?? [`${translate(manifest.name, 'en')} has been initialized`])
        this.note(appId, 'stdout', line);
      this.#set(appId, { state: 'running' });
      const crash = runtime?.crash;
      if (!crash) return;
      this.#later(appId, process, crash.afterMs, () => {
        if (!current('running')) return;
        this.note(appId, 'stderr', crash.message);
        const exitCode = crash.exitCode ?? 1;
        process.mem = 0;
        this.note(appId, 'stderr', `Process exited with code ${exitCode}`);
        this.#set(appId, {
          state: 'stopped',
          session: null,
          crashed: true,
          crashedMessage: crash.message,
          exitCode,
          exitSignal: crash.exitSignal ?? null,
          exitCount: process.status.exitCount + 1,
        });
      });
    });
    return process.status;
  }

  async stop(appId: string): Promise<AppStatus> {
    const process = this.#apps.get(appId);
    if (!process || process.status.state === 'stopped') return this.status(appId);
    this.#clearTimers(process);
    this.#set(appId, { state: 'stopping' });
    process.mem = 0;
    this.#set(appId, { state: 'stopped', session: null, exitCode: 0, exitSignal: 'SIGTERM' });
    return process.status;
  }

  async remove(appId: string): Promise<void> {
    const process = this.#apps.get(appId);
    if (process) this.#clearTimers(process);
    this.#apps.delete(appId);
  }

  async usage(appId: string): Promise<AppUsage> {
    return this.lastUsage(appId);
  }

  /** A plausible, slowly varying figure: mostly idle apps with a small periodic load. */
  lastUsage(appId: string): AppUsage {
    const process = this.#apps.get(appId);
    if (process?.status.state !== 'running') return { cpu: 0, mem: 0 };
    const cpu = Number((0.2 + ((this.options.clock.now() / 1000 + appId.length) % 7) * 0.15).toFixed(2));
    return { cpu, mem: process.mem };
  }

  /** A running app gives back a fifth of its heap. */
  async gc(appId: string): Promise<AppUsage> {
    const process = this.#apps.get(appId);
    if (process?.status.state === 'running') {
      process.mem = Math.round(process.mem * 0.8);
      this.note(appId, 'stdout', 'Garbage collection finished');
    }
    return this.lastUsage(appId);
  }

  std(appId: string): StdLine[] {
    return this.#apps.get(appId)?.std.lines() ?? [];
  }

  follow(appId: string, listener: (line: StdLine) => void): () => void {
    return this.#process(appId).std.follow(listener);
  }

  note(appId: string, stream: StdLine['stream'], line: string): void {
    this.#process(appId).std.append(stream, line);
  }

  async detach(): Promise<void> {
    this.#detached = true;
    for (const process of this.#apps.values()) this.#clearTimers(process);
    this.#apps.clear();
  }
}
