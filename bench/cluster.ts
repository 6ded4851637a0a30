// Issue 19 benchmark: GET /cloud/user/me through HAProxy to a cluster of 3 cloud nodes vs 1 node, both on the same
// PostgreSQL and Redis, started by `npm run start:cluster` (the same script) in the same run. On 2 cores expect
// little gain — the point is that three nodes share one database and Redis without errors. Needs DATABASE_URL,
// REDIS_URL and haproxy. Run: npx tsx bench/cluster.ts
import autocannon from 'autocannon';
import { clusterRequirements, startCluster } from '../e2e/cluster';
import { fmt, line } from './lib/report';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const missing = clusterRequirements();
if (missing.length > 0) {
  console.log(`bench/cluster.ts needs: ${missing.join(', ')}`);
  process.exit(1);
}

async function measure(nodes: number, build: boolean) {
  const cluster = await startCluster(
    nodes,
    { HEARTH_RATE_LIMIT_TOKEN: '1000000000', HEARTH_RATE_LIMIT_ADDRESS: '1000000000', LOG_LEVEL: 'error' },
    { build },
  );
  try {
    const signIn = await fetch(`${cluster.url}/cloud/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('hearth-demo:hearth-demo-secret').toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username: 'demo@hearth.test', password: 'hearth-demo-password' }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const run = (seconds: number) =>
      autocannon({
        url: `${cluster.url}/cloud/user/me`,
        connections: 32,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
      });
    await run(1);
    const result = await run(duration);
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failed: result.non2xx + result.errors,
    };
  } finally {
    await cluster.stop();
  }
}

console.log(`GET /cloud/user/me through HAProxy on PostgreSQL + Redis (32 connections, ${duration} s each)`);
const one = await measure(1, true);
const three = await measure(3, false);
line('1 node (baseline)', `${fmt(one.rps, 0)} req/s  p50 ${one.p50} ms  p99 ${one.p99} ms  failed ${one.failed}`);
line('3 nodes', `${fmt(three.rps, 0)} req/s  p50 ${three.p50} ms  p99 ${three.p99} ms  failed ${three.failed}`);
line('3 nodes / 1 node', `${fmt(three.rps / one.rps, 2)} ×`, {
  text: 'no failed request (throughput printed)',
  met: one.failed === 0 && three.failed === 0,
});
