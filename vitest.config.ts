import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for the whole repository: each workspace is a project; the end-to-end suite is its own
 * project so `npm test` can run it last.
 */
export default defineConfig({
  test: {
    // One test file per core. Vitest's default leaves a core free (one worker on the 2-core machines CI and
    // developers run on), but the files mostly wait on servers, databases, child processes and Chromium, so a second
    // file fits beside the first. Each file owns its state (ports from the OS, a PostgreSQL schema and Redis key
    // prefix of its own, temporary data directories), so files may run side by side. Forks (Vitest's default pool):
    // better-sqlite3, argon2 and PGlite's WebAssembly each get a process of their own.
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism()),
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
        },
      },
    ],
  },
});
