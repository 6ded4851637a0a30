#!/usr/bin/env node
// `npm run typecheck`: every workspace's `tsc -p .`, as many side by side as the machine has cores (each is one
// single-threaded compiler), largest first so the longest does not start last. Prints each workspace's time and
// exits 1 if any failed, after all ran (so one run names every failing workspace).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** @type {{ workspaces: string[] }} */
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
/** Workspaces that take longest (measured: they type-check the hub's or the cloud's sources with their own) go first. */
const LONGEST_FIRST = ['e2e', 'bench', 'packages/cloud', 'packages/hub', 'packages/home'];
const queue = workspaces
  .filter((workspace) => JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')).scripts?.typecheck)
  .sort((a, b) => rank(a) - rank(b));
/** @param {string} workspace */
function rank(workspace) {
  const at = LONGEST_FIRST.indexOf(workspace);
  return at === -1 ? LONGEST_FIRST.length : at;
}

let failed = false;
/** @param {string} workspace */
function check(workspace) {
  const started = Date.now();
  /** @type {Promise<void>} */
  const done = new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', '.'], { cwd: join(root, workspace), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${code === 0 ? '✓' : '✖'} ${workspace} (${seconds} s)`);
      if (code !== 0) {
        failed = true;
        process.stdout.write(output.replace(/^(?=\S)/gm, `${workspace}/`));
      }
      resolve();
    });
  });
  return done;
}

async function worker() {
  for (let workspace = queue.shift(); workspace; workspace = queue.shift()) await check(workspace);
}
const started = Date.now();
await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), queue.length)) }, worker));
console.log(`Type check ${failed ? 'failed' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
