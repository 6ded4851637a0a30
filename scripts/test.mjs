#!/usr/bin/env node
// `npm test`: installs what is missing, runs every workspace's tests, then the end-to-end suite, and prints
// one closing line `Tests: N passed, N failed`. Suites whose real component is absent (no DATABASE_URL, no
// REDIS_URL, no Chromium) are skipped loudly; with CI=true they are mandatory and their absence fails the run.
// Extra arguments go to Vitest: `npm test -- --project hub`.
// Each phase's reports (Vitest's JSON report and each file's whole time) stay in .data/test-reports/ (or
// $HEARTH_TEST_REPORTS) for `node scripts/test-times.mjs`; the run ends with the phase times and the slowest
// files, and names each file over 60 s. With CI=true a file over HEARTH_TEST_FILE_LIMIT (300 s) fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { libfaketimePath } from './lib/awkward-dates.mjs';
import { ensureDependencies } from './lib/deps.mjs';
import { chromiumPath, postgresUrl, redisUrl } from './lib/requirements.mjs';
import { formatOverLimit, formatTimes, overLimit, readTimes, reportsDir } from './test-times.mjs';

/**
 * How long a test file may take, import, hooks and tests together. Over the target a file is named as one to make
 * faster or split; over the limit (HEARTH_TEST_FILE_LIMIT seconds) it fails the run under CI=true: a hang guard.
 * The limit is not the target yet. On a fresh 2-core CI machine, one file at a time, the slowest files took 122 s
 * (the support form's end-to-end file, now split in two) and 63 s (the sign-in throttle, now split in two); with
 * two files side by side each file gets about half the machine, so the slowest halves may take up to twice their
 * share. 300 s leaves that room and still names a hung file ten minutes sooner than the 900 s before it. Vitest's own
 * test and hook time limits stop a single hung test sooner still; this limit catches a file that is slow overall.
 */
const FILE_TARGET_SECONDS = 60;
const FILE_LIMIT_SECONDS = Number(process.env.HEARTH_TEST_FILE_LIMIT ?? 300);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true';
ensureDependencies(root);

const missing = [];
if (!postgresUrl()) missing.push('PostgreSQL suites: DATABASE_URL is not set');
if (!redisUrl()) missing.push('Redis suites of the limit store: REDIS_URL is not set');
if (!chromiumPath()) missing.push('browser suites: no Chromium at /usr/bin/chromium (apt-get install chromium)');
if (!libfaketimePath()) missing.push('date-sensitive suites at awkward dates: no faketime (apt-get install faketime)');
for (const line of missing) {
  const banner = ci ? '✖ REQUIRED IN CI' : '⚠ SKIPPED';
  console.warn(`\n${banner} — ${line}`);
}
if (ci && missing.length > 0) process.exit(1);

const reports = reportsDir();
mkdirSync(reports, { recursive: true });
// Only the last run's reports: a phase that did not run this time must not be counted again.
for (const name of readdirSync(reports)) if (name.endsWith('.json')) rmSync(join(reports, name));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failed = false;

/** @param {string} name @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
function vitest(name, args, env = process.env) {
  const outputFile = join(reports, `${name}.json`);
  const vitestArgs = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${outputFile}`,
    `--reporter=${join(root, 'scripts', 'lib', 'file-times-reporter.mjs')}`,
    ...args,
  ];
  const result = spawnSync('npx', vitestArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, HEARTH_FILE_TIMES: join(reports, `${name}.files.json`) },
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
  vitest('1-workspaces', ['--project', '!e2e*']);
  console.log('\n• End-to-end tests (HEARTH_E2E_WORKERS files side by side, then those that run alone)');
  vitest('2-e2e', ['--project', 'e2e*']);
  if (libfaketimePath()) {
    console.log('\n• Date-sensitive suites at awkward dates (one project per date: scripts/lib/awkward-dates.mjs)');
    // On PGlite: a PostgreSQL server's clock cannot be moved with the test's.
    const { DATABASE_URL: _server, TEST_DATABASE_URL: _testServer, ...env } = process.env;
    vitest('3-dates', ['--config', 'vitest.dates.config.ts'], env);
  }
}

const times = readTimes([reports]);
if (times.files.length > 0) console.log(`\n${formatTimes(times, 10)}\n(all of it: node scripts/test-times.mjs)`);
const hung = overLimit(times.files, FILE_LIMIT_SECONDS);
const slow = overLimit(times.files, FILE_TARGET_SECONDS).filter((file) => !hung.includes(file));
if (slow.length > 0) console.warn(`\n${formatOverLimit(slow, FILE_TARGET_SECONDS, false)}`);
if (hung.length > 0) console.error(`\n${formatOverLimit(hung, FILE_LIMIT_SECONDS, ci)}`);
if (ci && hung.length > 0) failed = true;

if (missing.length > 0) console.warn(`\n⚠ Not everything ran:\n  - ${missing.join('\n  - ')}`);
const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failed || totals.failed > 0 ? 1 : 0);
