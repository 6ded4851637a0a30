#!/usr/bin/env node
// Runs the date-sensitive suites with the clock moved to each awkward date (month ends, a leap day, the nights
// Europe's clocks change), as `npm test` does after the other suites: `node scripts/test-dates.mjs [date …]`.
import { spawnSync } from 'node:child_process';
import { libfaketimePath } from './lib/awkward-dates.mjs';

if (!libfaketimePath()) {
  console.error('✖ faketime is not installed (apt-get install faketime)');
  process.exit(1);
}
const env = { ...process.env };
// The cloud's suites run on PGlite at these dates: a PostgreSQL server's clock cannot be moved with the test's.
delete env.DATABASE_URL;
delete env.TEST_DATABASE_URL;
if (process.argv.length > 2) env.HEARTH_TEST_DATES = process.argv.slice(2).join(',');
const result = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.dates.config.ts'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
