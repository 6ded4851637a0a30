// Issue 35 benchmark (item 7): resident memory of an idle cloud on its embedded database (PGlite), as `npm start`
// runs it with the demo world, against a bare Node process holding PGlite alone with the same schema, measured in
// the same run. Goal: the cloud under 300 MB. `process.memoryUsage()` of the cloud (sent at its ready line when
// HEARTH_MEMORY_REPORT is set) says where the memory is: V8's heap, or outside it (PGlite's WebAssembly memory).
// Run: npx tsx bench/cloud-idle.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleMemory } from './lib/memory';
import { fmt, line } from './lib/report';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const { buildServers } = (await import(join(root, 'scripts', 'build.mjs'))) as { buildServers: () => Promise<void> };
const { serverEntries, serverNodeArgs } = (await import(join(root, 'scripts', 'lib', 'servers.mjs'))) as {
  serverEntries: { cloud: string };
  serverNodeArgs: { cloud: string[] };
};
await buildServers();

/** Starts a process, waits for its ready line, lets it idle, and answers its memory (see `idleMemory`). */
const idle = (args: string[], env: Record<string, string>, readyLine: string) =>
  idleMemory({ cwd: root, args, env, readyLine, idleSeconds });

const dataDir = mkdtempSync(join(tmpdir(), 'hearth-cloud-idle-'));
try {
  const cloud = await idle(
    [...serverNodeArgs.cloud, serverEntries.cloud],
    { HEARTH_DATA_DIR: dataDir, HEARTH_DEMO: '1', CLOUD_PORT: '0', DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '' },
    'HEARTH_READY',
  );
  // The baseline opens the very database the cloud just left (its schema, its demo world) in PGlite, and idles.
  const bare = await idle(
    [
      '--input-type=module',
      '-e',
      `import { PGlite } from '@electric-sql/pglite'; const db = await PGlite.create(${JSON.stringify(join(dataDir, 'cloud'))}); await db.query('select count(*) from pg_class'); console.log('READY');`,
    ],
    {},
    'READY',
  );
  console.log(`Idle resident memory after ${idleSeconds} s`);
  line('bare Node + PGlite on the same data (baseline)', `${fmt(bare.rss)} MB  (PSS ${fmt(bare.pss)} MB)`);
  line('demo cloud on PGlite', `${fmt(cloud.rss)} MB  (PSS ${fmt(cloud.pss)} MB)`, { text: '< 300 MB', met: cloud.rss < 300 });
  line('cloud / baseline', `${fmt(cloud.rss / bare.rss, 2)}×`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
