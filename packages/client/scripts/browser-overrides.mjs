// What the client's browser builds replace, whichever bundler makes them (the client's own esbuild script and
// the support form's Vite build): one place, so both bundles carry the same code.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const operationTablePath = fileURLToPath(new URL('../src/core/table.ts', import.meta.url));

/** Files the overrides may replace: the operation table and engine.io-client's transport modules. */
export const overriddenFiles =
  /([\\/]client[\\/]src[\\/]core[\\/]table\.ts|engine\.io-client[\\/]build[\\/]esm[\\/]transports[\\/][\w.-]+\.js)$/;

const transportStubs = {
  'polling-xhr.js': 'export class XHR {}',
  'polling-fetch.js': 'export class Fetch {}',
  'webtransport.js': 'export class WT {}',
};

/**
 * The source a browser bundle uses instead of the file at `path`, or `undefined` to keep the file:
 * - the operation table (src/core/table.ts) is evaluated at build time and inlined as plain data, so neither
 *   TypeBox nor the contract's schemas reach browsers;
 * - the client only ever opens websocket transports (wire-protocol.md), so engine.io-client's transport table
 *   keeps only that one, and its polling and WebTransport modules (which engine.io-client re-exports, and whose
 *   top-level code would otherwise keep them in) are empty stand-ins.
 */
export async function browserOverride(path) {
  if (path === operationTablePath) {
    const { compactTable } = await tsImport(operationTablePath, import.meta.url);
    return `export const compactTable = ${JSON.stringify(compactTable)};`;
  }
  if (!/engine\.io-client[\\/]build[\\/]esm[\\/]transports[\\/]/.test(path)) return undefined;
  const name = path.split(/[\\/]/).pop();
  if (name === 'index.js') return 'import { WS } from "./websocket.js"; export const transports = { websocket: WS };';
  return transportStubs[name];
}

/** The overrides as an esbuild plugin. */
export function esbuildBrowserOverrides() {
  return {
    name: 'hearth-client-browser-overrides',
    setup(build) {
      build.onLoad({ filter: overriddenFiles }, async (args) => {
        const contents = await browserOverride(args.path);
        return contents === undefined ? undefined : { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** The overrides as a Vite (Rollup) plugin. */
export function viteBrowserOverrides() {
  return {
    name: 'hearth-client-browser-overrides',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0];
      return overriddenFiles.test(path) ? browserOverride(path).then((code) => code ?? null) : null;
    },
  };
}
