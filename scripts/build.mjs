#!/usr/bin/env node
// Builds what `npm start` runs: the hub and cloud servers bundled with esbuild into each package's dist/
// (workspace packages inlined, npm dependencies left to node_modules), and the support form, account pages and household web app with Vite.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { run } from './lib/deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Keeps npm packages external and bundles our own workspaces from source. @type {import('esbuild').Plugin} */
const externalDependencies = {
  name: 'external-dependencies',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@hearth/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Files a server reads beside its own code at run time (browser scripts it serves as they are): the bundle lives in
 * dist/, so they are copied there.
 */
const FILES_BESIDE_CODE = {
  cloud: [
    'services/cloud/passkeys/passkey-button.js',
    'services/infrared/infrared-devices.ndjson',
    'services/infrared/INFRARED-LICENSES.md',
  ],
  hub: [],
};

/**
 * Escapes the non-ASCII characters of the comment lines esbuild keeps (JSDoc with `…`, `→`): one such character
 * makes V8 hold the whole bundle's source as a two-byte string, 2 MB instead of 1 MB for the hub. Only whole
 * comment lines are touched, so no code and no source-map column moves; `\uXXXX` reads the same in a comment.
 * @param {string} file
 */
function escapeNonAsciiComments(file) {
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(/^[ \t]*(?:\/\/|\/\*|\*).*[\u0080-\uffff].*$/gm, (line) =>
    line.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  if (escaped !== text) writeFileSync(file, escaped);
}

/**
 * Bundles one server entry as `npm start` runs it (also a benchmark that must measure the hub as it ships: tsx,
 * which runs the sources, adds a `__name` call to every function it makes, which a bundle does not pay).
 * @param {string} entry
 * @param {string} outfile
 */
export async function bundleServer(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [externalDependencies],
  });
  escapeNonAsciiComments(outfile);
}

export async function buildServers() {
  await Promise.all([
    ...['hub', 'cloud'].map((name) =>
      bundleServer(join(root, 'packages', name, 'src', 'main.ts'), join(root, 'packages', name, 'dist', 'main.js')),
    ),
    // The demo's MQTT broker with its stand-in devices: a process of its own beside the hubs.
    bundleServer(
      join(root, 'packages', 'hub', 'src', 'managers', 'mqtt', 'virtual-devices', 'demo-broker.ts'),
      join(root, 'packages', 'hub', 'dist', 'mqtt-demo.js'),
    ),
    // The demo's virtual Z-Wave network (zwave-js's mock controller and nodes), the stand-in for a Z-Wave stick.
    bundleServer(
      join(root, 'packages', 'hub', 'src', 'virtual-devices', 'zwave', 'main.ts'),
      join(root, 'packages', 'hub', 'dist', 'zwave-demo.js'),
    ),
    // The demo's virtual Matter devices: real Matter nodes over IP, in a process of their own.
    bundleServer(
      join(root, 'packages', 'hub', 'src', 'virtual-devices', 'matter', 'main.ts'),
      join(root, 'packages', 'hub', 'dist', 'matter-demo.js'),
    ),
  ]);
  for (const [name, files] of Object.entries(FILES_BESIDE_CODE))
    for (const file of files)
      copyFileSync(join(root, 'packages', name, 'src', file), join(root, 'packages', name, 'dist', basename(file)));
}

export function buildSupportForm() {
  if (existsSync(join(root, 'packages', 'support-form', 'index.html'))) {
    run(root, 'npm', ['run', 'build', '--silent', '-w', '@hearth/support-form']);
  }
}

export function buildAccountPages() {
  if (existsSync(join(root, 'packages', 'account', 'index.html'))) {
    run(root, 'npm', ['run', 'build', '--silent', '-w', '@hearth/account']);
  }
}

export function buildHomeApp() {
  if (existsSync(join(root, 'packages', 'home', 'index.html'))) {
    run(root, 'npm', ['run', 'build', '--silent', '-w', '@hearth/home']);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServers();
  buildSupportForm();
  buildAccountPages();
  buildHomeApp();
  console.log('• Built hub, cloud, support form, account pages and household web app');
}
