#!/usr/bin/env node
// Size of the client library in a browser: the browser entry of packages/client (CloudAPI, HubAPI, every
// operation of the contract, socket.io-client) bundled with esbuild, minified, then gzipped.
// Goal: under 24 KB gzip, a third of the ecosystem client's 72 KB (homey-api 3.20, cloud + hub clients).
import { gzipSync } from 'node:zlib';
import { bundleClient } from '../packages/client/scripts/bundle.mjs';

const GOAL_KB = 24;
const BASELINE_KB = 72;

const result = await bundleClient();
const code = result.outputFiles[0].contents;
const gzip = gzipSync(code, { level: 9 });
const kb = (bytes) => (bytes / 1024).toFixed(1);

const byPart = new Map();
const [output] = Object.values(result.metafile.outputs);
for (const [path, input] of Object.entries(output.inputs)) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  const name = match
    ? match[1]
    : path.includes('core/table.ts')
      ? 'operation table (inlined)'
      : path.split('/').slice(0, 2).join('/');
  byPart.set(name, (byPart.get(name) ?? 0) + input.bytesInOutput);
}
console.log('client browser bundle (esbuild, minified)');
for (const [name, bytes] of [...byPart].sort((a, b) => b[1] - a[1]))
  console.log(`  ${name.padEnd(32)} ${kb(bytes).padStart(7)} KB`);
console.log(`minified: ${kb(code.length)} KB`);
console.log(
  `gzip:     ${kb(gzip.length)} KB  (goal ${GOAL_KB} KB; homey-api 3.20 ${BASELINE_KB} KB; ratio ${(gzip.length / 1024 / BASELINE_KB).toFixed(2)}x of it)`,
);
console.log(gzip.length / 1024 <= GOAL_KB ? 'within goal' : `over goal by ${kb(gzip.length - GOAL_KB * 1024)} KB`);
