#!/usr/bin/env node
// Builds @hearth/client as a package a developer installs: `dist/package/` holds ESM JavaScript for Node
// (`node.js`, npm dependencies left to npm) and browsers (`browser.js`, self-contained), `.d.ts` types, a
// package.json whose exports work with Node 20's plain `import` and with any bundler, and the README; then
// `npm pack` makes the tarball. No bundler plugin is needed downstream: what the browser overrides do (the
// operation table as plain data, the protocol parsers without code the client never runs) is done here, once.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildBrowserOverrides } from './browser-overrides.mjs';

const client = fileURLToPath(new URL('..', import.meta.url));
const packages = resolve(client, '..');
const root = resolve(packages, '..');
const require = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));

/** Runtime dependencies of node.js, and TypeBox for the types (`Static<…>` of the contract's schemas). */
const DEPENDENCIES = ['ws', 'undici', 'multicast-dns', 'engine.io-parser', 'typebox'];

/** Leaves npm packages to npm and bundles our workspaces (the contract is not published on its own). */
const npmExternal = {
  name: 'npm-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@hearth/') ? undefined : { path: args.path, external: true },
    );
  },
};

async function buildJavaScript(out) {
  const common = { bundle: true, format: 'esm', logLevel: 'error', charset: 'utf8' };
  await build({
    ...common,
    // Minified as shipped, the licences of the code bundled in (socket.io's parsers) beside it: a bundler that
    // builds the page adds nothing, so the page gets the client at its smallest.
    minify: true,
    legalComments: 'external',
    entryPoints: [join(client, 'src', 'browser.ts')],
    outfile: join(out, 'browser.js'),
    platform: 'browser',
    target: 'es2022',
    conditions: ['browser'],
    plugins: [esbuildBrowserOverrides()],
  });
  await build({
    ...common,
    entryPoints: [join(client, 'src', 'node.ts')],
    outfile: join(out, 'node.js'),
    platform: 'node',
    target: 'node20',
    plugins: [esbuildBrowserOverrides(), npmExternal],
  });
}

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));

/**
 * The `.d.ts` files of the client and of the contract parts it uses, with every module specifier made one that
 * `moduleResolution` `nodenext` accepts: relative, with its `.js` extension (`bundler` accepts those too).
 */
function buildTypes(out) {
  const types = join(out, 'types');
  const config = join(out, 'tsconfig.types.json');
  const contract = join(packages, 'contract', 'src');
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: types,
        rootDir: packages,
        lib: ['ES2023', 'DOM'],
        typeRoots: [join(root, 'node_modules', '@types')],
        paths: {
          '@hearth/contract': [join(contract, 'index.ts')],
          '@hearth/contract/*': [join(contract, '*', 'index.ts'), join(contract, '*.ts')],
        },
      },
      files: [join(client, 'src', 'node.ts'), join(client, 'src', 'browser.ts')],
    }),
  );
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', config], { stdio: 'inherit' });
  rmSync(config);
  const target = (file, specifier) => {
    let base;
    if (specifier === '@hearth/contract') base = join(types, 'contract', 'src', 'index');
    else if (specifier.startsWith('@hearth/contract/')) {
      const sub = join(types, 'contract', 'src', specifier.slice('@hearth/contract/'.length));
      base = existsSync(join(sub, 'index.d.ts')) ? join(sub, 'index') : sub;
    } else if (specifier.startsWith('.')) {
      const path = resolve(dirname(file), specifier.replace(/\.js$/, ''));
      base = existsSync(`${path}.d.ts`) ? path : join(path, 'index');
    } else return specifier;
    if (!existsSync(`${base}.d.ts`)) throw new Error(`${relative(types, file)}: no declarations for ${specifier}`);
    const path = relative(dirname(file), base).replaceAll('\\', '/');
    return `${path.startsWith('.') ? path : `./${path}`}.js`;
  };
  for (const file of walk(types)) {
    const text = readFileSync(file, 'utf8').replace(
      /(from\s+|import\(\s*|import\s+)(['"])([^'"]+)\2/g,
      (_all, lead, quote, specifier) => `${lead}${quote}${target(file, specifier)}${quote}`,
    );
    writeFileSync(file, text);
  }
}

function writeManifest(out) {
  const own = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));
  const entry = (name) => ({ types: `./types/client/src/${name}.d.ts`, default: `./${name}.js` });
  const manifest = {
    name: own.name,
    version: own.version,
    description:
      'The Hearth client library: CloudAPI (sign-in, every cloud service) and HubAPI (discovery, session, realtime, managers) for Node and browsers.',
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20.19' },
    main: './node.js',
    browser: './browser.js',
    types: './types/client/src/node.d.ts',
    exports: {
      '.': { browser: entry('browser'), node: entry('node'), default: entry('node') },
      './node': entry('node'),
      './browser': entry('browser'),
      './package.json': './package.json',
    },
    // The browser bundle carries everything it needs; a bundler for browsers skips the Node-only modules.
    sideEffects: false,
    dependencies: Object.fromEntries(DEPENDENCIES.map((name) => [name, `^${require(name).version}`])),
    files: ['node.js', 'browser.js', 'browser.js.LEGAL.txt', 'types', 'README.md'],
  };
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(client, 'PACKAGE.md'), join(out, 'README.md'));
}

/** Builds `dist/package/` and packs it; answers the tarball's path. */
export async function packClient({ outdir = join(client, 'dist') } = {}) {
  const out = join(outdir, 'package');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await buildJavaScript(out);
  buildTypes(out);
  writeManifest(out);
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', outdir], { cwd: out, encoding: 'utf8' });
  return join(outdir, packed.trim().split('\n').pop());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await packClient());
}
