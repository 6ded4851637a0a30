// The support form's speed: production bundle size (JS and CSS, gzip; goal under 150 KB JS), and in Chromium on
// loopback against the whole system, the time from navigation (signed in) until the first step is interactive
// and the number of sequential API request rounds before it (goal: at most two).
// Run: npx tsx bench/support-form.ts
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromiumPath, launchBrowser } from '../e2e/browser';
import { startSystem } from '../e2e/system';
import { fmt, line, percentile } from './lib/report';

const JS_GOAL_KB = 150;
const ROUNDS_GOAL = 2;
const RUNS = 7;
const root = join(import.meta.dirname, '..');
const dist = join(root, 'packages', 'support-form', 'dist', 'assets');

execFileSync('npm', ['run', 'build', '--silent', '-w', '@hearth/support-form'], { cwd: root, stdio: 'ignore' });
const sizes = { js: 0, css: 0 };
for (const file of readdirSync(dist)) {
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.js')) sizes.js += gz;
  if (file.endsWith('.css')) sizes.css += gz;
}
console.log('support form production bundle (Vite, gzip -9)');
line('JavaScript', `${fmt(sizes.js / 1024)} KB`, { text: `< ${JS_GOAL_KB} KB`, met: sizes.js / 1024 < JS_GOAL_KB });
line('CSS', `${fmt(sizes.css / 1024)} KB`);

if (!chromiumPath) {
  console.log('  (no Chromium: the load figures are skipped)');
  process.exit(0);
}

const system = await startSystem();
const browser = await launchBrowser();
try {
  const tokenResponse = await fetch(`${system.cloudUrl}/cloud/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('hearth-demo:hearth-demo-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username: 'demo@hearth.test', password: 'hearth-demo-password' }),
  });
  const { access_token } = (await tokenResponse.json()) as { access_token: string };
  const times: number[] = [];
  let rounds = 0;
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    // The form keeps its token in local storage: start each run signed in.
    await context.addInitScript(
      `localStorage.setItem('hearth-support-form:token', ${JSON.stringify(JSON.stringify({ access_token }))})`,
    );
    const page = await context.newPage();
    const requests: { url: string; start: number; end: number }[] = [];
    const started = new Map<unknown, number>();
    page.on('request', (r) => started.set(r, performance.now()));
    page.on('requestfinished', (r) => requests.push({ url: r.url(), start: started.get(r) ?? 0, end: performance.now() }));
    const t0 = performance.now();
    await page.goto(`${system.cloudUrl}/support/`);
    await page.getByRole('button', { name: /Dana Demo/ }).waitFor({ state: 'visible' });
    times.push(performance.now() - t0);
    // A request's round: one more than the latest round that had finished before it started.
    const api = requests.filter((r) => !r.url.includes('/support/')).sort((a, b) => a.start - b.start);
    const round = new Map<(typeof api)[number], number>();
    for (const request of api) {
      const before = api.filter((other) => other.end <= request.start).map((other) => round.get(other) ?? 1);
      round.set(request, 1 + Math.max(0, ...before));
    }
    rounds = Math.max(rounds, ...round.values(), 0);
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(`support form load in Chromium on loopback, signed in (${RUNS} runs)`);
  line('navigation → first step interactive, median', `${fmt(percentile(times, 50))} ms`);
  line('navigation → first step interactive, p90', `${fmt(percentile(times, 90))} ms`);
  line('sequential API request rounds before it', String(rounds), { text: `≤ ${ROUNDS_GOAL}`, met: rounds <= ROUNDS_GOAL });
} finally {
  await browser.close();
  await system.stop();
}
