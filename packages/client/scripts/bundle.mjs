#!/usr/bin/env node
// Bundles the client's browser entry with esbuild. The operation table (src/core/table.ts) is evaluated here,
// at build time, and inlined as plain data, so neither TypeBox nor the contract's schemas reach browsers.
import { mkdirSync, writeFileSync } from 'node:fs';
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
 * transport table keeps only that one, and its polling and WebTransport modules (which engine.io-client
 * re-exports, and whose top-level code would otherwise keep them in) are empty stand-ins.
 */
export function websocketOnly() {
  const stubs = {
    'polling-xhr.js': 'export class XHR {}',
    'polling-fetch.js': 'export class Fetch {}',
    'webtransport.js': 'export class WT {}',
  };
  return {
    name: 'engine-io-websocket-only',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /engine\.io-client[\\/]build[\\/]esm[\\/]transports[\\/][\w.-]+\.js$/ }, (args) => {
        const name = args.path.split(/[\\/]/).pop();
        if (name === 'index.js')
          return {
            contents: 'import { WS } from "./websocket.node.js"; export const transports = { websocket: WS };',
            loader: 'js',
            resolveDir: dirname(args.path),
          };
        if (name in stubs) return { contents: stubs[name], loader: 'js' };
        return undefined;
      });
    },
  };
}

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
    plugins: [inlineOperationTable(), websocketOnly()],
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
