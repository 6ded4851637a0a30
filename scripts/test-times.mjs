#!/usr/bin/env node
// Where the test run's time goes: the time per project and the slowest files, from the file times `npm test`
// keeps in .data/test-reports/ (one `<phase>.files.json` per phase, written by scripts/lib/file-times-reporter.mjs).
// `node scripts/test-times.mjs [report dir or files…] [--top N] [--limit SECONDS]`; with --limit it exits 1 and
// names every file that took longer (the hang guard `npm test` applies with CI=true).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm test` keeps its reports. */
export const reportsDir = () => process.env.HEARTH_TEST_REPORTS ?? join(root, '.data', 'test-reports');

/** @typedef {{ project: string, file: string, ms: number, state: string, tests: number }} FileTime */

/**
 * The file times in the given report files or directories (each `*.files.json` of a directory).
 * @param {string[]} paths
 * @returns {{ phases: { name: string, wallMs: number }[], files: FileTime[] }}
 */
export function readTimes(paths) {
  const reports = paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.files.json'))
          .sort()
          .map((name) => join(path, name))
      : [path],
  );
  const phases = [];
  const files = [];
  for (const report of reports) {
    const { wallMs, files: entries } = JSON.parse(readFileSync(report, 'utf8'));
    phases.push({ name: report.replace(/^.*\//, '').replace(/\.files\.json$/, ''), wallMs });
    files.push(...entries);
  }
  return { phases, files };
}

const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

/** @param {{ phases: { name: string, wallMs: number }[], files: FileTime[] }} times @param {number} top */
export function formatTimes({ phases, files }, top = 30) {
  const lines = [];
  lines.push('Phases (wall clock):');
  for (const phase of phases) lines.push(`  ${phase.name.padEnd(24)}${seconds(phase.wallMs).padStart(10)}`);
  /** @type {Map<string, { files: number, tests: number, ms: number, slowest: number }>} */
  const projects = new Map();
  for (const file of files) {
    const entry = projects.get(file.project) ?? { files: 0, tests: 0, ms: 0, slowest: 0 };
    entry.files++;
    entry.tests += file.tests;
    entry.ms += file.ms;
    entry.slowest = Math.max(entry.slowest, file.ms);
    projects.set(file.project, entry);
  }
  lines.push('', 'Projects (file times added up; files run side by side, so the wall clock is shorter):');
  lines.push(
    `  ${'project'.padEnd(30)}${'files'.padStart(6)}${'tests'.padStart(7)}${'total'.padStart(11)}${'slowest'.padStart(11)}`,
  );
  for (const [name, p] of [...projects].sort((a, b) => b[1].ms - a[1].ms))
    lines.push(
      `  ${name.padEnd(30)}${String(p.files).padStart(6)}${String(p.tests).padStart(7)}${seconds(p.ms).padStart(11)}${seconds(p.slowest).padStart(11)}`,
    );
  lines.push('', `Slowest ${Math.min(top, files.length)} files (import, hooks and tests):`);
  for (const file of [...files].sort((a, b) => b.ms - a.ms).slice(0, top))
    lines.push(
      `  ${seconds(file.ms).padStart(9)}  ${`${file.project} `.padEnd(18)}${file.file}${file.state === 'passed' ? '' : `  (${file.state})`}`,
    );
  return lines.join('\n');
}

/** The files over the limit, slowest first. @param {FileTime[]} files @param {number} limitSeconds */
export const overLimit = (files, limitSeconds) =>
  files.filter((file) => file.ms > limitSeconds * 1000).sort((a, b) => b.ms - a.ms);

/** @param {FileTime[]} files @param {number} limitSeconds @param {boolean} [fails] whether it fails the run */
export function formatOverLimit(files, limitSeconds, fails = true) {
  const what = fails ? '✖' : '⚠';
  const why = fails ? 'a hang, or a file to make faster or split' : 'to make faster or split';
  return [
    `${what} ${files.length} test file${files.length === 1 ? '' : 's'} took longer than ${limitSeconds} s (${why}):`,
    ...files.map((file) => `  ${seconds(file.ms).padStart(9)}  ${`${file.project} `.padEnd(18)}${file.file}`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '30' }, limit: { type: 'string' } },
  });
  const paths = positionals.length > 0 ? positionals : [reportsDir()];
  for (const path of paths)
    if (!existsSync(path)) {
      console.error(`✖ no test reports at ${path}: run npm test first`);
      process.exit(1);
    }
  const times = readTimes(paths);
  console.log(formatTimes(times, Number(values.top)));
  if (values.limit !== undefined) {
    const slow = overLimit(times.files, Number(values.limit));
    if (slow.length > 0) {
      console.error(`\n${formatOverLimit(slow, Number(values.limit))}`);
      process.exit(1);
    }
  }
}
