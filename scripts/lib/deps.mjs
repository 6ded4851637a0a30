import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs a command in the repository, inheriting stdio; exits the process when it fails.
 * @param {string} root @param {string} command @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} [options]
 */
export function run(root, command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/**
 * Installs dependencies when they are missing or older than the lock file, so a fresh clone needs only
 * Node and npm.
 * @param {string} root
 */
export function ensureDependencies(root) {
  const installed = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (!existsSync(installed)) {
    console.log('• Installing dependencies (npm ci)…');
    run(root, 'npm', ['ci', '--no-audit', '--no-fund']);
  } else if (statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
    // An existing tree is brought up to the lock file in place: npm ci would delete it first, pulling it from
    // under anything else running from this checkout.
    console.log('• Updating dependencies to package-lock.json (npm install)…');
    run(root, 'npm', ['install', '--no-audit', '--no-fund']);
  }
}
