#!/usr/bin/env node
// Bundles the client's browser entry with esbuild, with the browser overrides (browser-overrides.mjs): the
// operation table inlined as plain data, the protocol parsers without the code the client never runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildBrowserOverrides } from './browser-overrides.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the minified browser bundle `hearth-client.js`: CloudAPI, HubAPI, every operation and the realtime
 * socket in one file. Answers esbuild's result (output files and metafile); with `outdir`, also writes the
 * file there.
 */
export async function bundleClient({ outdir } = {}) {
  const result = await build({
    entryPoints: { 'hearth-client': here('../src/browser.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: outdir ?? here('../dist'),
    write: false,
    metafile: true,
    conditions: ['browser'],
    logLevel: 'error',
    plugins: [esbuildBrowserOverrides()],
  });
  if (outdir) {
    mkdirSync(outdir, { recursive: true });
    for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] ?? here('../dist');
  const result = await bundleClient({ outdir });
  for (const file of result.outputFiles) console.log(`wrote ${file.path}`);
}
