import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtForRun, dropDatabaseSchema, freePorts, interrupt } from './system';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningCluster {
  /** The balancer's address: the cloud as clients see it. */
  url: string;
  /** The nodes as they run now (a node killed and started again has a new pid). */
  nodes(): { name: string; url: string; pid: number }[];
  output(): string;
  stop(): Promise<void>;
}

/** PostgreSQL, Redis and HAProxy are all needed; the answer names what is missing. */
export function clusterRequirements(): string[] {
  const missing: string[] = [];
  if (!process.env.DATABASE_URL) missing.push('DATABASE_URL');
  if (!process.env.REDIS_URL) missing.push('REDIS_URL');
  if (spawnSync('sh', ['-c', 'command -v haproxy && command -v redis-server']).status !== 0)
    missing.push('haproxy and redis-server (apt-get install haproxy redis-server)');
  return missing;
}

/**
 * Starts `npm run start:cluster` (the same script) without hubs, on free ports, a fresh database schema and the
 * given Redis, and resolves once the balancer serves.
 */
export async function startCluster(
  nodes: number,
  env: Record<string, string>,
  options: { build?: boolean } = {},
): Promise<RunningCluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-cluster-'));
  const ports = await freePorts();
  const schema = `cluster_${randomBytes(5).toString('hex')}`;
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(root, 'scripts', 'start-cluster.mjs'),
      '--nodes',
      String(nodes),
      '--no-hubs',
      ...(options.build === false || builtForRun() ? ['--no-build'] : []),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        HEARTH_DATA_DIR: dataDir,
        CLOUD_PORT: String(ports.cloud),
        CLUSTER_NODE_PORT_BASE: String(ports.hubBase),
        DATABASE_SCHEMA: schema,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const runningFile = join(dataDir, 'cluster', 'running.json');
  const deadline = Date.now() + 170_000;
  while (!existsSync(runningFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await interrupt(child, exited);
      throw new Error(`the cluster did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const read = () => JSON.parse(readFileSync(runningFile, 'utf8'));
  return {
    url: read().cloud.url,
    nodes: () => read().nodes,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      await dropDatabaseSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
