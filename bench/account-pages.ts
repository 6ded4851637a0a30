// The account pages' weight: the production bundle's JavaScript and CSS (Vite, gzip -9), against a baseline built
// in the same run: React and react-dom alone rendering one element (esbuild, minified, production). Goal: at most
// 120 KB of JavaScript.
// Run: npx tsx bench/account-pages.ts
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fmt, line } from './lib/report';

const JS_GOAL_KB = 120;
const root = join(import.meta.dirname, '..');
const assets = join(root, 'packages', 'account', 'dist', 'assets');
const gzipKb = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length / 1024;

execFileSync('npm', ['run', 'build', '--silent', '-w', '@hearth/account'], { cwd: root, stdio: 'ignore' });
const sizes = { js: 0, css: 0, files: 0 };
for (const file of readdirSync(assets)) {
  const kb = gzipKb(readFileSync(join(assets, file)));
  if (file.endsWith('.js')) {
    sizes.js += kb;
    sizes.files += 1;
  }
  if (file.endsWith('.css')) sizes.css += kb;
}

const baseline = await build({
  stdin: {
    contents:
      "import { createElement } from 'react'; import { createRoot } from 'react-dom/client'; createRoot(document.body).render(createElement('p', null, 'Hearth'));",
    resolveDir: join(root, 'packages', 'account'),
    loader: 'js',
  },
  bundle: true,
  minify: true,
  write: false,
  format: 'esm',
  target: 'es2020',
  define: { 'process.env.NODE_ENV': '"production"' },
});
const reactKb = gzipKb(baseline.outputFiles[0]?.contents ?? new Uint8Array());

console.log('account pages production bundle (gzip -9)');
line(`JavaScript (${sizes.files} file${sizes.files === 1 ? '' : 's'}, every page)`, `${fmt(sizes.js)} KB`, {
  text: `≤ ${JS_GOAL_KB} KB`,
  met: sizes.js <= JS_GOAL_KB,
});
line('CSS', `${fmt(sizes.css)} KB`);
line('baseline: React + react-dom rendering one element', `${fmt(reactKb)} KB`);
line('account pages ÷ baseline', `${fmt(sizes.js / reactKb, 2)}×`);
line('account pages beyond React', `${fmt(sizes.js - reactKb)} KB`);
