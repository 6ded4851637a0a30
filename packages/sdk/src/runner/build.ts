import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `packages/sdk`, from this file (source) or from a bundle that inlined it (its `dist` sits beside). */
const sdkRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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
