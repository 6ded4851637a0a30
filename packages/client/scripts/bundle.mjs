#!/usr/bin/env node
// Bundles the client's browser entry with esbuild, with the browser overrides (browser-overrides.mjs): the
// operation table inlined as plain data, engine.io-client reduced to its websocket transport.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildBrowserOverrides } from './browser-overrides.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the minified browser bundle: the entry `hearth-client.js` and the chunks it loads on demand
 * (socket.io-client, on the first realtime connection). Answers esbuild's result (with its metafile); with
 * `outdir`, also writes the files there.
 */
export async function bundleClient({ outdir } = {}) {
  const result = await build({
    entryPoints: { 'hearth-client': here('../src/browser.ts') },
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: outdir ?? here('../dist'),
    chunkNames: 'hearth-client-[name]-[hash]',
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
