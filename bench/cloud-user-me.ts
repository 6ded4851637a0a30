// Issue 5 benchmark: GET /cloud/user/me with a valid token, on PGlite and (when DATABASE_URL is set) on
// PostgreSQL, against a bare Fastify route doing one indexed read of the same row on the same database in the
// same process. Goal: ≥ 50% of the baseline's throughput. Run: npx tsx bench/cloud-user-me.ts
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { fmt, line } from './lib/report';

const here = dirname(fileURLToPath(import.meta.url));
const duration = Number(process.env.BENCH_SECONDS ?? 5);

interface Server {
  cloudUrl: string;
  bareUrl: string;
  accessToken: string;
  database: string;
}

async function load(url: string, headers: Record<string, string> = {}) {
  const run = (seconds: number) => autocannon({ url, connections: 16, duration: seconds, headers });
  await run(1);
  const result = await run(duration);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const backends = [{ name: 'PGlite', url: '' }];
if (process.env.DATABASE_URL) backends.push({ name: 'PostgreSQL', url: process.env.DATABASE_URL });
else console.log('(PostgreSQL skipped: DATABASE_URL is not set)');

console.log(`GET /cloud/user/me with a valid token (16 connections, ${duration} s each)`);
for (const backend of backends) {
  const child = fork(join(here, 'lib', 'cloud-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    env: { ...process.env, BENCH_DATABASE_URL: backend.url },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Server));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const bare = await load(`${server.bareUrl}/bare/user`);
  const cloud = await load(`${server.cloudUrl}/cloud/user/me`, { authorization: `Bearer ${server.accessToken}` });
  const ratio = cloud.rps / bare.rps;
  line(`${backend.name}: bare indexed read (baseline)`, `${fmt(bare.rps, 0)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`);
  line(`${backend.name}: GET /cloud/user/me`, `${fmt(cloud.rps, 0)} req/s  p50 ${cloud.p50} ms  p99 ${cloud.p99} ms`);
  line(`${backend.name}: user/me / baseline`, `${fmt(ratio * 100)} %`, { text: '≥ 50 %', met: ratio >= 0.5 });
  child.disconnect();
  await new Promise((resolve) => child.once('exit', resolve));
}
