import { defineConfig } from 'vitest/config';

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
    ...(process.env.HEARTH_TEST_WORKERS ? { maxWorkers: Number(process.env.HEARTH_TEST_WORKERS) } : {}),
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'client',
          root: 'packages/client',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'sdk', root: 'packages/sdk', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'hub', root: 'packages/hub', include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
      {
        test: { name: 'cloud', root: 'packages/cloud', include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 120_000 },
      },
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
