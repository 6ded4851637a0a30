// Issue 3 benchmark: resident memory of an idle demo hub (the process `npm start` runs), against a bare
// Fastify process measured in the same run. Goal: under 150 MB. The demo apps with code run in processes of
// their own (issue 16): their resident (RSS) and proportional (PSS: shared pages divided among the processes
// sharing them) memory is printed beside the hub's, each app process against its goal of 45 MB.
// Run: npx tsx bench/hub-idle.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleMemory } from './lib/memory';
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

/** Starts a process, waits for its ready line, lets it idle, and answers its memory (see `idleMemory`). */
const idle = (args: string[], env: Record<string, string>, readyLine: string) =>
  idleMemory({ cwd: root, args, env, readyLine, idleSeconds });

const dataDir = mkdtempSync(join(tmpdir(), 'hearth-idle-'));
const bare = await idle(
  [
    '--input-type=module',
    '-e',
    "import F from 'fastify'; const a = F(); a.get('/', () => 'ok'); await a.listen({ port: 0, host: '127.0.0.1' }); console.log('READY');",
  ],
  {},
  'READY',
);
const hub = await idle(
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

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const apps = hub.children;
const appRss = apps.map((a) => a.rss);
console.log(`Idle resident memory after ${idleSeconds} s`);
line('bare Fastify process (baseline)', `${fmt(bare.rss)} MB`);
line('demo hub process', `${fmt(hub.rss)} MB  (PSS ${fmt(hub.pss)} MB)`, { text: '< 150 MB', met: hub.rss < 150 });
line('hub / baseline', `${fmt(hub.rss / bare.rss, 2)}×`);
// FlakyHome crashes on purpose: while it waits out its back-off it has no process.
line(
  `app processes (${apps.length})`,
  apps.length === 0
    ? 'none running'
    : `RSS ${fmt(Math.min(...appRss))}–${fmt(Math.max(...appRss))} MB each, ${fmt(sum(appRss))} MB in all`,
  { text: '< 45 MB each', met: appRss.every((rss) => rss < 45) },
);
line('app processes, proportional (PSS)', `${fmt(sum(apps.map((a) => a.pss)))} MB in all`);
line('hub and its apps (RSS / PSS)', `${fmt(hub.rss + sum(appRss))} MB / ${fmt(hub.pss + sum(apps.map((a) => a.pss)))} MB`);
