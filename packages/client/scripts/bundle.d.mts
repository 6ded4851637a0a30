import type { BuildResult } from 'esbuild';

/** Builds the minified browser bundle (entry `hearth-client.js` and its on-demand chunks); writes them with `outdir`. */
export function bundleClient(options?: {
  outdir?: string;
}): Promise<BuildResult<{ write: false; metafile: true }> & { outputFiles: import('esbuild').OutputFile[] }>;
