#!/usr/bin/env node
// Size of the client library in a browser: the browser entry of packages/client (CloudAPI, HubAPI, every
// operation of the contract, the realtime socket with socket.io's protocol parsers) bundled with esbuild into
// one file, minified, then gzipped as a server sends it.
// Goal: under 24 KB gzip, a third of the ecosystem client's 72 KB (homey-api 3.20, cloud + hub clients).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundleClient } from '../packages/client/scripts/bundle.mjs';
import { packClient } from '../packages/client/scripts/package.mjs';

const GOAL_KB = 24;
const BASELINE_KB = 72;

const result = await bundleClient();
const kb = (bytes) => (bytes / 1024).toFixed(1);
const [file] = result.outputFiles;
const [output] = Object.values(result.metafile.outputs);

const byPart = new Map();
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
const gzip = gzipSync(file.contents, { level: 9 }).length;

console.log('client browser bundle (esbuild, minified), by source');
for (const [name, bytes] of [...byPart].sort((a, b) => b[1] - a[1]))
  console.log(`  ${name.padEnd(32)} ${kb(bytes).padStart(7)} KB`);
console.log(
  `${basename(file.path)}: ${kb(file.contents.length)} KB minified, ${kb(gzip)} KB gzip  (${(gzip / 1024 / BASELINE_KB).toFixed(2)}x of homey-api 3.20's ${BASELINE_KB} KB)`,
);

// What a developer's own bundler makes of the published package: plain esbuild, no plugin of ours, of the
// package's browser export. This is the figure the goal is about.
const work = mkdtempSync(join(tmpdir(), 'hearth-client-bench-'));
await packClient({ outdir: work });
const plain = await build({
  entryPoints: [join(work, 'package', 'browser.js')],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  write: false,
  logLevel: 'error',
});
rmSync(work, { recursive: true, force: true });
const plainGzip = gzipSync(plain.outputFiles[0].contents, { level: 9 }).length;
console.log(
  `plain esbuild --bundle --minify of the packed browser export: ${kb(plain.outputFiles[0].contents.length)} KB minified, ${kb(plainGzip)} KB gzip  (${(plainGzip / 1024 / BASELINE_KB).toFixed(2)}x of homey-api 3.20's ${BASELINE_KB} KB)`,
);
console.log(
  plainGzip / 1024 <= GOAL_KB
    ? `within the goal of ${GOAL_KB} KB`
    : `over the goal of ${GOAL_KB} KB by ${kb(plainGzip - GOAL_KB * 1024)} KB`,
);
