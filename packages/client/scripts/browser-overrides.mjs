// What the client's browser builds replace, whichever bundler makes them (the client's own esbuild script and
// the support form's Vite build): one place, so both bundles carry the same code.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const operationTablePath = fileURLToPath(new URL('../src/core/table.ts', import.meta.url));

/**
 * Modules of engine.io-parser that the client's connection (src/hub/socket.ts) never runs, by path inside
 * node_modules, with the stand-in each browser build uses. The parser's own code does everything else, unchanged.
 * Over a websocket, binary travels as binary frames; only HTTP long-polling sends it as base64 text (`b…`), so
 * engine.io-parser's base64 decoder never runs. (socket.io's own packets are src/hub/socket-packets.ts.)
 */
const standIns = {
  'engine.io-parser/build/esm/contrib/base64-arraybuffer.js':
    'export const encode = () => { throw new Error("base64 packets are polling-only"); }; export const decode = encode;',
};

const standInOf = (path) => {
  const inPackage = path.replaceAll('\\', '/').split('/node_modules/').pop();
  return Object.hasOwn(standIns, inPackage) ? standIns[inPackage] : undefined;
};

/** Files the overrides may replace: the operation table and the parser's modules above. */
export const overriddenFiles =
  /([\\/]client[\\/]src[\\/]core[\\/]table\.ts|[\\/]node_modules[\\/]engine\.io-parser[\\/]build[\\/]esm[\\/][\w.\\/-]+\.js)$/;

/**
 * The source a browser bundle uses instead of the file at `path`, or `undefined` to keep the file:
 * - the operation table (src/core/table.ts) is evaluated at build time and inlined as plain data, so neither
 *   TypeBox nor the contract's schemas reach browsers;
 * - the parser's modules the client never runs (see {@link standIns}) are stand-ins.
 */
export async function browserOverride(path) {
  if (path === operationTablePath) {
    const { compactTable } = await tsImport(operationTablePath, import.meta.url);
    return `export const compactTable = ${JSON.stringify(compactTable)};`;
  }
  return standInOf(path);
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
