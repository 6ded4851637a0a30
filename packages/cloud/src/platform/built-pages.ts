import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a front end the cloud serves was built: the directory `envVar` names when set, else
 * `packages/<workspace>/dist` found by walking up from this file (works from the sources and from the bundled
 * `dist/main.js`).
 */
export function builtPagesDirectory(workspace: string, envVar: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[envVar];
  if (configured) return resolve(configured);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'packages', workspace))) return join(dir, 'packages', workspace, 'dist');
    dir = dirname(dir);
  }
  return resolve('packages', workspace, 'dist');
}
