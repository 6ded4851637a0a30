#!/usr/bin/env node
// Runs the date-sensitive suites with the clock moved to each awkward date (month ends, a leap day, the nights
// Europe's clocks change), as `npm test` does after the other suites: `node scripts/test-dates.mjs [date …]`.
import { spawnSync } from 'node:child_process';
import { AWKWARD_DATES, atDate, DATE_SENSITIVE_SUITES, faketimePath } from './lib/awkward-dates.mjs';

if (!faketimePath()) {
  console.error('✖ faketime is not installed (apt-get install faketime)');
  process.exit(1);
}
const dates = process.argv.length > 2 ? process.argv.slice(2) : AWKWARD_DATES;
let failed = false;
for (const date of dates) {
  console.log(`\n• Date-sensitive suites at ${date}`);
  const { command, prefix, env } = atDate(date);
  const result = spawnSync(command, [...prefix, 'npx', 'vitest', 'run', ...DATE_SENSITIVE_SUITES], { stdio: 'inherit', env });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
