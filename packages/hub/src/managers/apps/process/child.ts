import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { HearthError } from '@hearth/contract';
import {
  AppToHub,
  type AppToHubEventMap,
  AppToHubEvents,
  type AppToHubMethods,
  type HubToAppEventMap,
  type HubToAppMethods,
  type InitParams,
  Peer,
  RemoteError,
  type WireError,
} from '@hearth/sdk/protocol';
import pidusage from 'pidusage';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { lineSplitter } from './std';

/** How one app process is started and limited. */
export interface ChildLimits {
  /** V8 old-space cap (`--max-old-space-size`), in MB. */
  readonly heapMb: number;
  /** How long a call into the app may take before it fails with a 504 `timeout`. */
  readonly callTimeoutMs: number;
  /** How long `init` (the app's, drivers' and devices' `onInit`) may take. */
  readonly startTimeoutMs: number;
}

export interface ChildOptions extends ChildLimits {
  readonly appId: string;
  /** The bundled SDK runner (`@hearth/sdk/runner`). */
  readonly runnerFile: string;
  /** The app's folder: readable, not writable. */
  readonly dir: string;
  /** Writable folders of the app. */
  readonly userdataDir: string;
  readonly tmpDir: string;
  readonly timezone: string;
  /** Answers the app's requests (the app's `this.homey` calls). */
  readonly handlers: AppToHubHandlers;
  /** Hears the app's events besides its crash (an image's bytes). */
  readonly events?: AppEventListeners;
  readonly onStd: (stream: 'stdout' | 'stderr', line: string) => void;
}

export type AppToHubHandlers = {
  [K in keyof AppToHubMethods]: (
    params: AppToHubMethods[K]['params'],
  ) => Promise<AppToHubMethods[K]['result']> | AppToHubMethods[K]['result'];
};

export type AppEventListeners = {
  [K in Exclude<keyof AppToHubEventMap, 'crash'>]?: (data: AppToHubEventMap[K]) => void;
};

/** How a process ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Why, when it was not asked to stop: the app's uncaught error, or running out of memory. */
  readonly message: string | null;
}

/** What the process uses: CPU in percent of one core since the last sample, resident memory in bytes. */
export interface ChildUsage {
  readonly cpu: number;
  readonly mem: number;
}

type HubPeer = Peer<AppToHubMethods, HubToAppMethods, AppToHubEventMap, HubToAppEventMap>;

const requestValidators = new Map(
  Object.entries(AppToHub as Record<string, { params: TSchema }>).map(([name, call]) => [name, Compile(call.params)]),
);
const eventValidators = new Map(Object.entries(AppToHubEvents as Record<string, TSchema>).map(([name, s]) => [name, Compile(s)]));

/** Checks what an app sends against the protocol's schemas (the app is untrusted code). */
function checkFromApp(kind: 'request' | 'event', name: string, data: unknown): string | null {
  const validator = (kind === 'request' ? requestValidators : eventValidators).get(name);
  if (!validator) return `Unknown ${kind}: ${name}`;
  if (validator.Check(data)) return null;
  const [first] = validator.Errors(data);
  return `Invalid Parameter: ${name}${first?.instancePath.replaceAll('/', '.') ?? ''} ${first?.message ?? ''}`.trim();
}

const toWire = (error: unknown): WireError =>
  error instanceof HearthError
    ? { code: error.code, message: error.message }
    : { message: error instanceof Error ? error.message : String(error) };

const OOM = /heap out of memory|Reached heap limit|Allocation failed/;
/** How much nicer than the hub an app process runs (0 is the hub's own priority, 19 the lowest). */
const APP_NICENESS = 5;

/**
 * One app's Node child process: forked with the SDK runner, a heap cap and Node's permission model (the app's
 * folder readable, its userdata and temporary folders writable, nothing else on disk; no child processes or
 * workers), driven over its IPC channel. It reports its output line by line and how it ended.
 */
export class AppChild {
  readonly #process: ChildProcess;
  readonly #peer: HubPeer;
  #crash: string | null = null;
  #outOfMemory = false;
  readonly exited: Promise<ChildExit>;

  constructor(private readonly options: ChildOptions) {
    const { dir, userdataDir, tmpDir, runnerFile, heapMb } = options;
    this.#process = fork(runnerFile, [], {
      cwd: dir,
      execArgv: [
        `--max-old-space-size=${heapMb}`,
        '--expose-gc',
        '--experimental-permission',
        `--allow-fs-read=${runnerFile}`,
        `--allow-fs-read=${dir}`,
        `--allow-fs-read=${userdataDir}`,
        `--allow-fs-read=${tmpDir}`,
        `--allow-fs-write=${userdataDir}`,
        `--allow-fs-write=${tmpDir}`,
        '--disable-warning=ExperimentalWarning',
      ],
      // The hub's environment holds its secrets; the app gets only what it needs.
      env: { TZ: options.timezone, LANG: 'C.UTF-8', TMPDIR: tmpDir, HOME: userdataDir },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const child = this.#process;
    // Apps run below the hub's priority: a busy or crash-looping app slows other apps before it slows the hub.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, APP_NICENESS);
      } catch {
        // Not permitted here (a container without CAP_SYS_NICE): the app runs at the hub's priority.
      }
    }
    this.#peer = new Peer({
      send: (envelope) => {
        if (!child.connected) return false;
        child.send(envelope, (error) => {
          // A send that fails after the check (the process died in between) is reported by the exit.
          if (error) return;
        });
        return true;
      },
      timeoutMs: options.callTimeoutMs,
      check: checkFromApp,
      toWireError: toWire,
    });
    for (const [method, handler] of Object.entries(options.handlers)) {
      this.#peer.handle(method as keyof AppToHubMethods, handler as (params: unknown) => Promise<unknown>);
    }
    for (const [event, listener] of Object.entries(options.events ?? {})) {
      this.#peer.on(event as keyof AppEventListeners, listener as (data: unknown) => void);
    }
    this.#peer.on('crash', ({ message }) => {
      this.#crash ??= message;
    });
    child.on('message', (message) => this.#peer.receive(message));
    const out = lineSplitter((line) => options.onStd('stdout', line));
    const err = lineSplitter((line) => {
      if (OOM.test(line)) this.#outOfMemory = true;
      options.onStd('stderr', line);
    });
    child.stdout?.on('data', (chunk: Buffer) => out.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.write(chunk));
    this.exited = new Promise((resolve) => {
      child.on('error', (error) => {
        this.#crash ??= `The app process could not run: ${error.message}`;
      });
      child.on('exit', (code, signal) => {
        // Output still in the pipes arrives before 'close'; wait for it so the crash shows in the log.
        const finish = () => {
          out.flush();
          err.flush();
          pidusage.clear();
          const message = this.#outOfMemory ? `The app ran out of memory (heap limit ${heapMb} MB)` : this.#crash;
          this.#peer.close(new RemoteError({ code: 'unavailable', message: `App ${options.appId} is not running` }));
          resolve({ code, signal, message });
        };
        if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) finish();
        else child.once('close', finish);
      });
    });
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** Boots the app (`init`); rejects when its `onInit` fails or takes longer than the start timeout. */
  start(init: InitParams): Promise<void> {
    return this.call('init', init, this.options.startTimeoutMs).then(() => undefined);
  }

  /**
   * Calls into the app. Fails with a HearthError: `timeout` (504) when it does not answer in time,
   * `unavailable` (503) when its process is gone, `app_error` (502) with the app's own message when it refused,
   * or the Hearth code the app's error carried (`not_found`, `invalid_parameter`).
   */
  async call<K extends keyof HubToAppMethods & string>(
    method: K,
    params: HubToAppMethods[K]['params'],
    timeoutMs = this.options.callTimeoutMs,
  ): Promise<HubToAppMethods[K]['result']> {
    try {
      return await this.#peer.call(method, params, timeoutMs);
    } catch (error) {
      throw toHearthError(error, this.options.appId, method, timeoutMs);
    }
  }

  emit<K extends keyof HubToAppEventMap & string>(event: K, data: HubToAppEventMap[K]): boolean {
    return this.#peer.emit(event, data);
  }

  /** Calls waiting for the app's answer. */
  get pendingCalls(): number {
    return this.#peer.pending;
  }

  /** CPU and resident memory of the process right now. */
  async usage(): Promise<ChildUsage> {
    const pid = this.#process.pid;
    if (pid === undefined || this.#process.exitCode !== null || this.#process.signalCode !== null) return { cpu: 0, mem: 0 };
    try {
      const stats = await pidusage(pid);
      return { cpu: Number(stats.cpu.toFixed(2)), mem: stats.memory };
    } catch {
      return { cpu: 0, mem: 0 };
    }
  }

  /** Sends `signal` to the process (SIGTERM asks, SIGKILL ends it at once). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.#process.exitCode === null && this.#process.signalCode === null) this.#process.kill(signal);
  }
}

function toHearthError(error: unknown, appId: string, method: string, timeoutMs: number): HearthError {
  if (error instanceof HearthError) return error;
  const code = error instanceof RemoteError ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'timeout') return new HearthError('timeout', `App ${appId} did not answer ${method} within ${timeoutMs} ms`);
  if (code === 'unavailable') return new HearthError('unavailable', `App ${appId} is not running`);
  if (code === 'not_found') return new HearthError('not_found', message);
  if (code === 'invalid_parameter') return new HearthError('invalid_parameter', message);
  return new HearthError('app_error', message);
}
