#!/usr/bin/env node
// Size of the client library in a browser: the browser entry of packages/client (CloudAPI, HubAPI, every
// operation of the contract, the realtime socket with socket.io's protocol parsers) bundled with esbuild,
// minified, then gzipped. The figures give what a page loads at once and the total of every file the bundle
// has (each gzipped on its own, as a server sends them); today both are the one file.
// Goal: under 24 KB gzip, a third of the ecosystem client's 72 KB (homey-api 3.20, cloud + hub clients).
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleClient } from '../packages/client/scripts/bundle.mjs';

const GOAL_KB = 24;
const BASELINE_KB = 72;

const result = await bundleClient();
const kb = (bytes) => (bytes / 1024).toFixed(1);
const gzipOf = (contents) => gzipSync(contents, { level: 9 }).length;

const outputs = result.metafile.outputs;
const keyOf = (file) => Object.keys(outputs).find((path) => file.path.endsWith(path));
// What a page loads at once: the entry and the chunks it imports statically; the rest is loaded on demand.
const entryKey = Object.keys(outputs).find((path) => basename(path) === 'hearth-client.js');
const atLoad = new Set([entryKey]);
for (const key of atLoad)
  for (const imported of outputs[key].imports) if (imported.kind === 'import-statement') atLoad.add(imported.path);

const byPart = new Map();
const files = [];
for (const file of result.outputFiles) {
  const key = keyOf(file);
  const output = outputs[key];
  for (const [path, input] of Object.entries(output.inputs)) {
    if (input.bytesInOutput === 0) continue;
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match
      ? match[1]
      : path.includes('core/table.ts')
        ? 'operation table (inlined)'
        : path.split('/').slice(0, 2).join('/');
    byPart.set(name, (byPart.get(name) ?? 0) + input.bytesInOutput);
  }
  files.push({ name: basename(file.path), entry: atLoad.has(key), minified: file.contents.length, gzip: gzipOf(file.contents) });
}
files.sort((a, b) => Number(b.entry) - Number(a.entry) || b.gzip - a.gzip);

console.log('client browser bundle (esbuild, minified), by source');
for (const [name, bytes] of [...byPart].sort((a, b) => b[1] - a[1]))
  console.log(`  ${name.padEnd(32)} ${kb(bytes).padStart(7)} KB`);
console.log('files (minified / gzip)');
for (const file of files)
  console.log(
    `  ${file.name.padEnd(40)} ${kb(file.minified).padStart(6)} KB / ${kb(file.gzip).padStart(5)} KB${file.entry ? '  (loaded with the page)' : '  (loaded on the first realtime connection)'}`,
  );
const entry = { gzip: files.filter((file) => file.entry).reduce((sum, file) => sum + file.gzip, 0) };
const total = files.reduce((sum, file) => sum + file.gzip, 0);
const ratio = (bytes) => `${(bytes / 1024 / BASELINE_KB).toFixed(2)}x of homey-api 3.20's ${BASELINE_KB} KB`;
console.log(`entry gzip: ${kb(entry.gzip)} KB  (what a page loads; ${ratio(entry.gzip)})`);
console.log(`total gzip: ${kb(total)} KB  (every file; ${ratio(total)})`);
for (const [label, bytes] of [
  ['entry', entry.gzip],
  ['total', total],
])
  console.log(
    `${label}: ${bytes / 1024 < GOAL_KB ? `within the goal of ${GOAL_KB} KB` : `over the goal of ${GOAL_KB} KB by ${kb(bytes - GOAL_KB * 1024)} KB`}`,
  );
