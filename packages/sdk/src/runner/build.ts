import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** `packages/sdk`, found through module resolution: this file may run from source or inlined in a bundle. */
const sdkRoot = dirname(createRequire(import.meta.url).resolve('@hearth/sdk/package.json'));

/** The bundled runner the hub forks for each app: one CommonJS file with the whole SDK. */
export const runnerFile = join(sdkRoot, 'dist', 'runner.cjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Bundles `src/runner/main.ts` into {@link runnerFile} with esbuild. */
export async function buildRunner(): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(sdkRoot, 'src', 'runner', 'main.ts')],
    outfile: runnerFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    keepNames: true,
    logLevel: 'warning',
  });
  return runnerFile;
}

let ready: Promise<string> | undefined;

/**
 * The runner's path, built first when it is missing or older than the SDK's sources (a development checkout;
 * `npm start` builds it ahead). Built once per process.
 */
export function ensureRunner(): Promise<string> {
  ready ??= (async () => {
    const fresh = existsSync(runnerFile) && statSync(runnerFile).mtimeMs >= newestSource(join(sdkRoot, 'src'));
    return fresh ? runnerFile : buildRunner();
  })();
  return ready;
}
