import type { StdLine } from './process/std';

export type RunState = 'stopped' | 'starting' | 'running' | 'stopping';

/** What clients see of an app's process (the App entity's run fields). */
export interface AppStatus {
  readonly state: RunState;
  /** A session id per start of the process; `null` while stopped. */
  readonly session: string | null;
  readonly crashed: boolean;
  readonly crashedMessage: string | null;
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  /** How many times the process ended without being asked to. */
  readonly exitCount: number;
}

/** An app's CPU (percent of one core) and resident memory (bytes). */
export interface AppUsage {
  readonly cpu: number;
  readonly mem: number;
}

/** The status of an app a host has not run (or has forgotten). */
export const idleStatus: AppStatus = {
  state: 'stopped',
  session: null,
  crashed: false,
  crashedMessage: null,
  exitCode: null,
  exitSignal: null,
  exitCount: 0,
};

/**
 * Runs installed apps. The installed-apps catalogue (`catalogue.ts`) says what is installed; a host runs it:
 * the process host (`process/host.ts`) runs apps with code each in its own Node process, the simulated host
 * (`simulated-host.ts`) runs apps that are only a manifest as a state machine their manifest's `runtime`
 * section drives. `AppService` picks the host of each app and tells it what to do.
 */
export interface AppHost {
  /** The app's run state now ({@link idleStatus} for an app the host has not run). */
  status(appId: string): AppStatus;
  isRunning(appId: string): boolean;
  /** Starts the app (a user's start clears its crash record); resolves with its status once it runs or failed. */
  start(appId: string): Promise<AppStatus>;
  /** Stops the app (stopping → stopped). */
  stop(appId: string): Promise<AppStatus>;
  /** Stops the app and forgets it (an uninstall); with `purge` its data goes too. */
  remove(appId: string, purge: boolean): Promise<void>;
  /** Measures the app's usage now (zero while it is not running). */
  usage(appId: string): Promise<AppUsage>;
  /** The last measured usage, without waiting (zero while it is not running). */
  lastUsage(appId: string): AppUsage;
  /** Has a running app give back what it can of its heap; answers its usage after. */
  gc(appId: string): Promise<AppUsage>;
  /** The app's recent output. */
  std(appId: string): StdLine[];
  /** Follows the app's output line by line from now on; answers the function that stops following. */
  follow(appId: string, listener: (line: StdLine) => void): () => void;
  /** Writes a line of the hub's own into the app's output (installed, stopping, …). */
  note(appId: string, stream: StdLine['stream'], line: string): void;
  /** Stops every app the host runs; nothing of it runs afterwards. */
  detach(): Promise<void>;
}
