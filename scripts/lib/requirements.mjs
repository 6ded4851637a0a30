import { existsSync } from 'node:fs';

/** PostgreSQL for the suites that must also run against a real server. */
export const postgresUrl = () => process.env.DATABASE_URL || null;

/** Redis for the suites of the shared limit store (the cloud's rate limits and sign-in throttle across nodes). */
export const redisUrl = () => process.env.TEST_REDIS_URL || process.env.REDIS_URL || null;

/** Debian's Chromium, driven by playwright-core (never a downloaded browser). */
export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}
