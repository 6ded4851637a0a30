import { configDefaults, defineConfig } from 'vitest/config';
import { CLOUD_TIMEOUTS, HUB_TIMEOUTS } from './scripts/lib/test-timeouts.mjs';

/**
 * Test files that need a process to themselves: they count the handles, timers and listeners of the whole process,
 * which files run before them in a shared process may still be closing.
 */
const OWN_PROCESS = ['src/platform/lifecycle.test.ts'];

/**
 * What every end-to-end file has: the servers and front ends built once for the run, and room for whole systems.
 * Files run one after another in a worker process that keeps the modules it loaded (`isolate: false`, as the
 * workspaces do): each file loading the hub, the cloud and the client from source again was about half of a small
 * file's CPU time (measured, four home-app files back to back: 57 s CPU isolated, 31 s shared, import 63 s → 15 s).
 * Files share nothing through modules: no mocks or stubbed globals, and each starts its own hubs, clouds, systems
 * and Chromium.
 */
const E2E = {
  root: 'e2e',
  include: ['**/*.test.ts'],
  globalSetup: ['./global-setup.ts'],
  isolate: false,
  testTimeout: 120_000,
  hookTimeout: 180_000,
};

/**
 * How many end-to-end files run side by side, each with its systems and its Chromium: one by default, two with
 * `HEARTH_E2E_WORKERS=2`. They share no state: each draws its ports from its worker's own range (`e2e/system.ts`
 * freePorts) and has its own data directories, database schema, Redis keys and demo MQTT broker. Measured on a quiet
 * machine before files shared their modules: 790 s with two, 1035 s with one. Two stay opt-in until two two-worker
 * runs pass in a row: in the runs so far a home-app pairing test timed out once and a support-form sign-in once,
 * with causes not found (issue 36).
 */
const E2E_WORKERS = Number(process.env.HEARTH_E2E_WORKERS || 1);

/**
 * End-to-end files that run alone, not beside another file, because they bound how long something takes and another
 * file's systems and Chromium beside them would measure the machine instead:
 * - the cluster suite kills a node and restarts Redis under load and bounds how long answers take meanwhile (under
 *   5 s; HAProxy's health checks time out after 5 s), with three cloud nodes, HAProxy and a Redis of its own;
 * - the system suite bounds how fast the API references open (8 s; about 5.5 s on an idle machine): in the one run
 *   with two files side by side, on a machine shared with other work, that test failed after 31 s.
 */
const E2E_ALONE = ['cluster.test.ts', 'system.test.ts'];

/**
 * One Vitest run for the whole repository: each workspace is a project; the end-to-end suite is its own
 * project so `npm test` can run it last.
 */
export default defineConfig({
  test: {
    // Forks (Vitest's default pool): better-sqlite3, argon2 and PGlite's WebAssembly each get a process of their own.
    // Files own their state (ports from the OS, a PostgreSQL schema and Redis key prefix of their own, temporary data
    // directories), so they may run side by side: `HEARTH_TEST_WORKERS=2` does. The default stays Vitest's (one
    // worker on the 2-core machines CI runs on) until two are measured faster there: in the first CI rehearsal with
    // two, CPU-bound files (argon2, PGlite) took about twice as long side by side and the run was not shorter.
    pool: 'forks',
    // The workspaces' files run one after another in one worker process that keeps the modules it loaded
    // (`isolate: false`): each file starting a fresh process and loading the hub or the cloud again was most of the
    // suite's time (measured: contract, client and sdk 377 s isolated, 192 s shared; the hub's import time 16 s
    // instead of minutes). Files share no state through modules (no module-level registries; each starts its own
    // hub or cloud on its own ports, schema and data folder). What they do share is the cloud suites' one embedded
    // PGlite per worker: a suite that moves `Date` asks for its own (`startTestCloud`'s `ownPglite`).
    ...(process.env.HEARTH_TEST_WORKERS ? { maxWorkers: Number(process.env.HEARTH_TEST_WORKERS) } : {}),
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'], isolate: false } },
      {
        test: {
          name: 'client',
          root: 'packages/client',
          include: ['src/**/*.test.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'i18n', root: 'packages/i18n', include: ['src/**/*.test.ts'] } },
      { test: { name: 'sdk', root: 'packages/sdk', include: ['src/**/*.test.ts'], isolate: false, testTimeout: 30_000 } },
      {
        test: {
          name: 'hub',
          root: 'packages/hub',
          include: ['src/**/*.test.ts'],
          exclude: [...OWN_PROCESS],
          isolate: false,
          ...HUB_TIMEOUTS,
        },
      },
      {
        test: {
          name: 'cloud',
          root: 'packages/cloud',
          include: ['src/**/*.test.ts'],
          exclude: [...OWN_PROCESS],
          isolate: false,
          ...CLOUD_TIMEOUTS,
        },
      },
      // The files that count what the whole process holds (handles, timers, listeners) run in a process of their own.
      { test: { name: 'hub-own-process', root: 'packages/hub', include: [...OWN_PROCESS], testTimeout: 30_000 } },
      { test: { name: 'cloud-own-process', root: 'packages/cloud', include: [...OWN_PROCESS], testTimeout: 30_000 } },
      'packages/support-form',
      'packages/account',
      'packages/home',
      {
        test: {
          name: 'e2e',
          ...E2E,
          exclude: [...configDefaults.exclude, ...E2E_ALONE],
          maxWorkers: E2E_WORKERS,
          // A group of its own (after the workspaces' when all projects run in one Vitest): projects that run
          // together must agree on their number of workers.
          sequence: { groupOrder: 1 },
        },
      },
      // The files that must have the machine to themselves run after the others, one at a time (see E2E_ALONE).
      { test: { name: 'e2e-alone', ...E2E, include: [...E2E_ALONE], fileParallelism: false } },
    ],
  },
});
