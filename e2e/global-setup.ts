import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { builtForRun } from './system';

/**
 * Builds the servers and the three front ends once for the whole end-to-end run, as `npm start` would, so the
 * files neither pay for a build each nor rebuild `dist/` while another file's system serves from it. The files'
 * own build steps (`startSystem`, `startCluster`, `buildAccountPages`, `buildHomeApp`) see `HEARTH_E2E_BUILT`
 * and skip; run outside Vitest they still build.
 */
export default function setup(): void {
  // Both end-to-end projects (`e2e`, `e2e-alone`) name this set-up; in one run the second finds the build done.
  if (builtForRun()) return;
  execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
  process.env.HEARTH_E2E_BUILT = '1';
}
