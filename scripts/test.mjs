#!/usr/bin/env node
// `npm test`: installs what is missing, runs every workspace's tests, then the end-to-end suite, and prints
// one closing line `Tests: N passed, N failed`. Suites whose real component is absent (no DATABASE_URL, no
// REDIS_URL, no Chromium) are skipped loudly; with CI=true they are mandatory and their absence fails the run.
// Extra arguments go to Vitest: `npm test -- --project hub`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AWKWARD_DATES, atDate, DATE_SENSITIVE_SUITES, faketimePath } from './lib/awkward-dates.mjs';
import { ensureDependencies } from './lib/deps.mjs';
import { chromiumPath, postgresUrl, redisUrl } from './lib/requirements.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true';
ensureDependencies(root);

const missing = [];
if (!postgresUrl()) missing.push('PostgreSQL suites: DATABASE_URL is not set');
if (!redisUrl()) missing.push('Redis suites of the limit store: REDIS_URL is not set');
if (!chromiumPath()) missing.push('browser suites: no Chromium at /usr/bin/chromium (apt-get install chromium)');
if (!faketimePath()) missing.push('date-sensitive suites at awkward dates: no faketime (apt-get install faketime)');
for (const line of missing) {
  const banner = ci ? '✖ REQUIRED IN CI' : '⚠ SKIPPED';
  console.warn(`\n${banner} — ${line}`);
}
if (ci && missing.length > 0) process.exit(1);

const reports = mkdtempSync(join(tmpdir(), 'hearth-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failed = false;

/**
 * @param {string} name @param {string[]} args
 * @param {{ command: string, prefix: string[], env: NodeJS.ProcessEnv }} [under] a command to run Vitest under
 */
function vitest(name, args, under) {
  const outputFile = join(reports, `${name}.json`);
  const vitestArgs = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`, ...args];
  const result = spawnSync(under?.command ?? 'npx', under ? [...under.prefix, 'npx', ...vitestArgs] : vitestArgs, {
    cwd: root,
    stdio: 'inherit',
    env: under?.env ?? process.env,
  });
  if (result.status !== 0) failed = true;
  if (!existsSync(outputFile)) {
    failed = true;
    return;
  }
  const report = JSON.parse(readFileSync(outputFile, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

const extra = process.argv.slice(2);
if (extra.length > 0) vitest('selected', extra);
else {
  console.log('\n• Unit and integration tests');
  vitest('workspaces', ['--project', '!e2e']);
  console.log('\n• End-to-end tests');
  vitest('e2e', ['--project', 'e2e']);
  if (faketimePath())
    for (const date of AWKWARD_DATES) {
      console.log(`\n• Date-sensitive suites with the clock at ${date}`);
      vitest(`dates-${date.slice(0, 10)}`, DATE_SENSITIVE_SUITES, atDate(date));
    }
}
rmSync(reports, { recursive: true, force: true });

if (missing.length > 0) console.warn(`\n⚠ Not everything ran:\n  - ${missing.join('\n  - ')}`);
const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failed || totals.failed > 0 ? 1 : 0);
