// Issue 3 benchmark: resident memory of an idle demo hub (the process `npm start` runs), against a bare
// Fastify process measured in the same run. Goal: under 150 MB. Run: npx tsx bench/hub-idle.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fmt, line } from './lib/report';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const { buildServers } = (await import(join(root, 'scripts', 'build.mjs'))) as { buildServers: () => Promise<void> };
// The hub process exactly as `npm start` runs it: the same entry and Node options.
const { serverEntries, serverNodeArgs } = (await import(join(root, 'scripts', 'lib', 'servers.mjs'))) as {
  serverEntries: { hub: string };
  serverNodeArgs: { hub: string[] };
};
await buildServers();

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/** Starts a process, waits for its ready line, lets it idle, and answers its resident memory. */
async function idleRss(args: string[], env: Record<string, string>, readyLine: string): Promise<number> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => text.startsWith(readyLine) && resolve());
    child.once('exit', (code) => reject(new Error(`exited early (${code})`)));
  });
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const rss = rssMb(child.pid!);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return rss;
}

const dataDir = mkdtempSync(join(tmpdir(), 'hearth-idle-'));
const bare = await idleRss(
  [
    '--input-type=module',
    '-e',
    "import F from 'fastify'; const a = F(); a.get('/', () => 'ok'); await a.listen({ port: 0, host: '127.0.0.1' }); console.log('READY');",
  ],
  {},
  'READY',
);
const hub = await idleRss(
  [...serverNodeArgs.hub, serverEntries.hub],
  {
    HUB_ID: '5ea7c0de00000000000000a1',
    HUB_NAME: 'Home',
    HUB_MODEL: 'hearth-pro-5q',
    HUB_PORT: '0',
    HEARTH_DATA_DIR: dataDir,
    HEARTH_DEMO: '1',
  },
  'HEARTH_READY',
);
rmSync(dataDir, { recursive: true, force: true });

console.log(`Idle resident memory after ${idleSeconds} s`);
line('bare Fastify process (baseline)', `${fmt(bare)} MB`);
line('demo hub process', `${fmt(hub)} MB`, { text: '< 150 MB', met: hub < 150 });
line('hub / baseline', `${fmt(hub / bare, 2)}×`);
