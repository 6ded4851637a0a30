import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Builds the servers and the three front ends once for the whole end-to-end run, as `npm start` would, so the
 * files neither pay for a build each nor rebuild `dist/` while another file's system serves from it. The files'
 * own build steps (`startSystem`, `startCluster`, `buildAccountPages`, `buildHomeApp`) see `HEARTH_E2E_BUILT`
 * and skip; run outside Vitest they still build.
 */
export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
  process.env.HEARTH_E2E_BUILT = '1';
}
