import { existsSync } from 'node:fs';

/** PostgreSQL for the suites that must also run against a real server. */
export const postgresUrl = () => process.env.DATABASE_URL || null;

/** Debian's Chromium, driven by playwright-core (never a downloaded browser). */
export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}
