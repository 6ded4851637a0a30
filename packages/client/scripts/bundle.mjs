#!/usr/bin/env node
// Bundles the client's browser entry with esbuild, with the browser overrides (browser-overrides.mjs): the
// operation table inlined as plain data, the realtime libraries without the code the client never runs.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildBrowserOverrides } from './browser-overrides.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the minified browser bundle: the entry `hearth-client.js` and `hearth-client-realtime-<hash>.js`
 * (socket.io-client), which the entry imports on the first realtime connection. Answers both builds' output
 * files and one metafile; with `outdir`, also writes the files there.
 *
 * Two builds rather than esbuild's code splitting: splitting moves the runtime helper both files could share
 * into a third file that every page loads, where each build keeps its own helpers inline.
 */
export async function bundleClient({ outdir } = {}) {
  const options = {
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
  };
  // socket.io-client's `io`, the one export the entry's socket factory uses.
  const realtime = await build({
    ...options,
    entryPoints: { 'hearth-client-realtime': 'hearth:realtime' },
    plugins: [
      {
        name: 'hearth-client-realtime-entry',
        setup(build) {
          build.onResolve({ filter: /^hearth:realtime$/ }, () => ({ path: 'realtime', namespace: 'hearth' }));
          build.onLoad({ filter: /^realtime$/, namespace: 'hearth' }, () => ({
            contents: 'export { io } from "socket.io-client";',
            resolveDir: here('../src'),
            loader: 'js',
          }));
        },
      },
      esbuildBrowserOverrides(),
    ],
  });
  const [realtimeFile] = realtime.outputFiles;
  const hash = createHash('sha256').update(realtimeFile.contents).digest('hex').slice(0, 8);
  const realtimeName = `hearth-client-realtime-${hash}.js`;
  realtimeFile.path = realtimeFile.path.replace(/hearth-client-realtime\.js$/, realtimeName);
  const [key, output] = Object.entries(realtime.metafile.outputs)[0];
  realtime.metafile.outputs = { [key.replace(/hearth-client-realtime\.js$/, realtimeName)]: output };

  // The page's entry: its dynamic import of socket.io-client becomes the file above, next to it.
  const page = await build({
    ...options,
    entryPoints: { 'hearth-client': here('../src/browser.ts') },
    plugins: [
      {
        name: 'hearth-client-realtime-chunk',
        setup(build) {
          build.onResolve({ filter: /^socket\.io-client$/ }, () => ({ path: `./${realtimeName}`, external: true }));
        },
      },
      esbuildBrowserOverrides(),
    ],
  });
  const result = {
    ...page,
    outputFiles: [...page.outputFiles, realtimeFile],
    metafile: {
      inputs: { ...page.metafile.inputs, ...realtime.metafile.inputs },
      outputs: { ...page.metafile.outputs, ...realtime.metafile.outputs },
    },
  };
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
