import { defineConfig } from 'vitest/config';
import { CLOUD_TIMEOUTS, HUB_TIMEOUTS } from './scripts/lib/test-timeouts.mjs';

/**
 * Test files that need a process to themselves: they count the handles, timers and listeners of the whole process,
 * which files run before them in a shared process may still be closing.
 */
const OWN_PROCESS = ['src/platform/lifecycle.test.ts'];

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
          root: 'e2e',
          include: ['**/*.test.ts'],
          globalSetup: ['./global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each file starts whole systems (cloud, hubs, app processes) and a Chromium: one at a time on two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
