/**
 * The time limits of the hub's and the cloud's test files, shared by `vitest.config.ts` and the awkward-dates run
 * (`scripts/lib/awkward-dates.mjs`), so a suite gets the same limits on every clock. Hooks start whole hubs and
 * clouds (the cloud's on two databases), so they get more than a test.
 */
export const HUB_TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 };
export const CLOUD_TIMEOUTS = { testTimeout: 30_000, hookTimeout: 120_000 };
