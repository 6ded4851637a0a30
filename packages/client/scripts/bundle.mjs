#!/usr/bin/env node
// Bundles the client's browser entry with esbuild. The operation table (src/core/table.ts) is evaluated here,
// at build time, and inlined as plain data, so neither TypeBox nor the contract's schemas reach browsers.
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** esbuild plugin: replaces src/core/table.ts with its evaluated value. */
export function inlineOperationTable() {
  const tablePath = here('../src/core/table.ts');
  return {
    name: 'inline-operation-table',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]core[\\/]table\.ts$/ }, async (args) => {
        if (args.path !== tablePath) return undefined;
        const { compactTable } = await tsImport(tablePath, import.meta.url);
        return { contents: `export const compactTable = ${JSON.stringify(compactTable)};`, loader: 'js' };
      });
    },
  };
}

/**
 * esbuild plugin: the client only ever opens websocket transports (wire-protocol.md), so engine.io-client's
 * transport table keeps only that one and the polling and WebTransport code stays out of the bundle.
 */
export function websocketOnly() {
  return {
    name: 'engine-io-websocket-only',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /engine\.io-client[\\/]build[\\/]esm[\\/]transports[\\/]index\.js$/ }, (args) => ({
        contents: 'import { WS } from "./websocket.node.js"; export const transports = { websocket: WS };',
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
    },
  };
}

/** Builds the minified browser bundle; answers esbuild's result (with its metafile). */
export async function bundleClient({ outfile } = {}) {
  return build({
    entryPoints: [here('../src/browser.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    conditions: ['browser'],
    logLevel: 'error',
    plugins: [inlineOperationTable(), websocketOnly()],
  }).then((result) => {
    if (outfile) writeFileSync(outfile, result.outputFiles[0].contents);
    return result;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outfile = process.argv[2] ?? here('../dist/hearth-client.js');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(new URL('../dist/', `file://${outfile}`).pathname, { recursive: true });
  await bundleClient({ outfile });
  console.log(`wrote ${outfile}`);
}
