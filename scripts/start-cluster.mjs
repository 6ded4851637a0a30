#!/usr/bin/env node
// `npm run start:cluster -- --nodes 3`: the cloud as a cluster on this machine — N identical cloud nodes on one
// PostgreSQL and one Redis, behind HAProxy (configured by scripts/cluster/haproxy.cfg), with the demo hubs using the
// balancer's address. A node that dies is started again after a second, as a service manager would.
// Options: --nodes N (1–16, default 3), --reset (drop the cluster's schema and files first), --no-hubs, --no-build.
// Environment: DATABASE_URL, DATABASE_SCHEMA (default hearth_cluster), REDIS_URL, CLOUD_PORT (the balancer, 4000),
// CLUSTER_NODE_PORT_BASE (4010), HUB_PORT_BASE (4100), HEARTH_DATA_DIR (.data); see the README.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Children } from './lib/children.mjs';
import { ensurePostgres, haproxyPath, redisAnswers, redisServerArgs, writeBalancerConfig } from './lib/cluster-infra.mjs';
import { demoCredentials, demoHubProcesses } from './lib/demo.mjs';
import { ensureDependencies } from './lib/deps.mjs';
import { writeRunningFile } from './lib/running-file.mjs';
import { serverEntries, serverNodeArgs } from './lib/servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const { values: options } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3' },
    reset: { type: 'boolean', default: false },
    'no-hubs': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});
const nodeCount = Number(options.nodes);
if (!Number.isInteger(nodeCount) || nodeCount < 1 || nodeCount > 16) {
  console.error(`✖ --nodes must be a whole number from 1 to 16, got ${options.nodes}`);
  process.exit(1);
}
const host = '127.0.0.1';
const balancerPort = Number(env.CLOUD_PORT ?? 4000);
const nodePortBase = Number(env.CLUSTER_NODE_PORT_BASE ?? 4010);
const hubPortBase = Number(env.HUB_PORT_BASE ?? 4100);
const cloudUrl = `http://${host}:${balancerPort}`;
const schema = env.DATABASE_SCHEMA ?? 'hearth_cluster';
const clusterDir = join(resolve(root, env.HEARTH_DATA_DIR ?? '.data'), 'cluster');
const internalSecret = env.HEARTH_INTERNAL_CLIENT_SECRET ?? randomBytes(24).toString('hex');
const runningFile = join(clusterDir, 'running.json');

const children = new Children();
const shutdown = (/** @type {number} */ exitCode) => children.shutdown(exitCode, () => rmSync(runningFile, { force: true }));
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
const fail = (/** @type {unknown} */ error) => {
  console.error(`✖ ${error instanceof Error ? error.message : error}`);
  shutdown(1);
};

ensureDependencies(root);
if (!options['no-build']) {
  const { buildServers, buildSupportForm, buildAccountPages } = await import('./build.mjs');
  console.log('• Building…');
  await buildServers();
  buildSupportForm();
  buildAccountPages();
}

try {
  const databaseUrl = await ensurePostgres(env);
  if (options.reset) {
    console.log(`• Removing schema ${schema} and ${clusterDir}`);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '')}" CASCADE`);
    await client.end();
    rmSync(clusterDir, { recursive: true, force: true });
  }
  mkdirSync(clusterDir, { recursive: true });

  let redisUrl = env.REDIS_URL ?? `redis://${host}:6379`;
  if (!(await redisAnswers(redisUrl))) {
    if (env.REDIS_URL) throw new Error(`REDIS_URL ${env.REDIS_URL} does not answer`);
    console.log('• Starting Redis (redis-server) on 127.0.0.1:6379…');
    await children.launch('redis', 'redis-server', redisServerArgs(6379), {
      cwd: clusterDir,
      env,
      onExit: () => fail(new Error('Redis stopped')),
    });
    for (let i = 0; i < 50 && !(await redisAnswers(redisUrl)); i++) await new Promise((r) => setTimeout(r, 100));
    redisUrl = `redis://${host}:6379`;
  }

  const hubs = options['no-hubs'] ? [] : demoHubProcesses({ host, portBase: hubPortBase, cloudUrl, internalSecret });
  const nodes = Array.from({ length: nodeCount }, (_, i) => ({
    name: `node${i + 1}`,
    port: nodePortBase + i,
    url: `http://${host}:${nodePortBase + i}`,
    pid: /** @type {number | undefined} */ (undefined),
  }));
  const nodeEnv = (/** @type {number} */ i) => ({
    ...env,
    CLOUD_HOST: host,
    CLOUD_PORT: String(nodes[i]?.port),
    CLOUD_PUBLIC_URL: cloudUrl,
    // Hubs' relay origins are on the balancer, like the cloud: whichever node a request lands on finds the tunnel.
    CLOUD_CONNECT_URL: env.CLOUD_CONNECT_URL ?? `http://{id}.connect.localhost:${balancerPort}`,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    REDIS_URL: redisUrl,
    // The balancer runs here: only its X-Forwarded-For and X-Request-Id are believed.
    CLOUD_TRUST_PROXY: host,
    HEARTH_INTERNAL_CLIENT_SECRET: internalSecret,
    // One folder for every node's blobs (uploads, archives, backups); nodes on several machines use HEARTH_S3_*.
    HEARTH_DATA_DIR: clusterDir,
    // The first node seeds the demo world; seeding is idempotent, but several at once would only race.
    ...(i === 0
      ? {
          HEARTH_DEMO: '1',
          HEARTH_DEMO_HUBS: JSON.stringify(hubs.map(({ id, name, model, url }) => ({ id, name, model, url }))),
        }
      : { HEARTH_DEMO: '0' }),
  });

  const writeRunning = () =>
    writeRunningFile(runningFile, { cloud: { url: cloudUrl }, nodes, database: { schema }, redis: redisUrl, hubs: startedHubs });
  /** @type {any[]} */
  let startedHubs = [];

  /** Starts node `i`; when it dies, starts it again a second later. @param {number} i @returns {Promise<void>} */
  const startNode = async (i) => {
    const node = /** @type {(typeof nodes)[number]} */ (nodes[i]);
    const { child } = await children.launch(
      node.name,
      process.execPath,
      [...serverNodeArgs.cloud, join(root, serverEntries.cloud)],
      {
        cwd: root,
        env: nodeEnv(i),
        ready: true,
        onExit: (code, signal) => {
          console.error(`[${node.name}] stopped (${code ?? signal}); starting it again`);
          setTimeout(() => startNode(i).then(writeRunning, fail), 1000);
        },
      },
    );
    node.pid = child.pid;
  };
  // The first node migrates and seeds; the others then start together.
  await startNode(0);
  await Promise.all(nodes.slice(1).map((_, i) => startNode(i + 1)));

  const balancerConfig = join(clusterDir, 'haproxy.cfg');
  writeBalancerConfig({
    template: join(root, 'scripts', 'cluster', 'haproxy.cfg'),
    target: balancerConfig,
    bind: `${host}:${balancerPort}`,
    nodes: nodes.map((node) => ({ name: node.name, address: `${host}:${node.port}` })),
  });
  await children.launch('balancer', haproxyPath(), ['-db', '-W', '-f', balancerConfig], {
    cwd: clusterDir,
    env,
    onExit: (code, signal) => fail(new Error(`HAProxy stopped (${code ?? signal})`)),
  });
  for (let i = 0; ; i++) {
    const answer = await fetch(`${cloudUrl}/cloud/health`).catch(() => null);
    if (answer?.status === 200) break;
    if (i > 100) throw new Error(`the balancer at ${cloudUrl} does not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }

  startedHubs = await Promise.all(
    hubs.map(async (hub) => {
      const { facts } = await children.launch(
        `hub ${hub.name}`,
        process.execPath,
        [...serverNodeArgs.hub, join(root, serverEntries.hub)],
        {
          cwd: root,
          env: { ...env, HEARTH_DATA_DIR: clusterDir, ...hub.env },
          ready: true,
          onExit: (code, signal) => fail(new Error(`hub ${hub.name} stopped (${code ?? signal})`)),
        },
      );
      return { id: hub.id, name: hub.name, model: hub.model, url: hub.url, ownerToken: facts.ownerToken };
    }),
  );
  writeRunning();
  console.log(
    [
      '',
      `Hearth is running as a cluster of ${nodeCount} cloud node${nodeCount === 1 ? '' : 's'}.`,
      '',
      `  Cloud (HAProxy) ${cloudUrl}   account pages ${cloudUrl}/   API reference ${cloudUrl}/docs`,
      ...nodes.map((node) => `    ${node.name.padEnd(13)}${node.url}  pid ${node.pid}`),
      `  PostgreSQL      ${databaseUrl.replace(/\/\/[^@]*@/, '//')}  schema ${schema}`,
      `  Redis           ${redisUrl}`,
      ...startedHubs.map((hub) => `  Hub ${hub.name.padEnd(12)}${hub.url}  id ${hub.id}  owner token ${hub.ownerToken}`),
      '',
      `  Demo account    ${demoCredentials.email} / ${demoCredentials.password}`,
      `  Files           ${clusterDir}`,
      '',
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
} catch (error) {
  fail(error);
}
