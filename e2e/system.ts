import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningSystem {
  cloudUrl: string;
  hubs: { id: string; name: string; model: string; url: string; ownerToken: string }[];
  /** The demo MQTT broker the hub "Home" bridges (`null` with `MQTT_DEMO=0`), and which broker it is. */
  mqttUrl: string | null;
  mqttBroker: string | null;
  /** The demo's virtual Z-Wave network (a stand-in stick) the hub "Home" opens, when `npm start` ran it. */
  zwavePort: string | null;
  dataDir: string;
  /** Everything the orchestrator printed so far. */
  output(): string;
  /** Stops everything and removes the data directory (`keepData`: leaves it, for the test to read and remove). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free port for the cloud and a base with three consecutive free ports for the hubs. */
export async function freePorts(): Promise<{ cloud: number; hubBase: number }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const ports = [base, base + 1, base + 2, base + 3];
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return { cloud: base + 3, hubBase: base };
  }
  throw new Error('no free ports');
}

/** Drops a PostgreSQL schema a system or cluster of the suite made in `DATABASE_URL`'s database. */
export async function dropDatabaseSchema(schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

/**
 * Starts the whole system exactly as `npm start` does (same script, embedded stores, demo world) in a
 * throw-away data directory on free ports, and resolves once everything is up. With `DATABASE_URL` set the cloud
 * gets a fresh schema of its own (dropped on stop), so systems of files running side by side, and of earlier
 * runs, share neither rows nor Redis keys (the cloud names its keys after its schema).
 */
export async function startSystem(env: Record<string, string> = {}): Promise<RunningSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
  const ports = await freePorts();
  const schema = process.env.DATABASE_URL ? `e2e_${randomBytes(5).toString('hex')}` : null;
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'scripts', 'start.mjs'), ...(builtForRun() ? ['--no-build'] : [])],
    {
      cwd: root,
      env: {
        ...process.env,
        HEARTH_DATA_DIR: dataDir,
        CLOUD_PORT: String(ports.cloud),
        HUB_PORT_BASE: String(ports.hubBase),
        ...(schema ? { DATABASE_SCHEMA: schema } : {}),
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
  const runningFile = join(dataDir, 'running.json');
  const deadline = Date.now() + 150_000;
  while (!existsSync(runningFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the system did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const running = JSON.parse(readFileSync(runningFile, 'utf8'));
  return {
    cloudUrl: running.cloud.url,
    hubs: running.hubs,
    mqttUrl: running.mqttUrl ?? null,
    mqttBroker: running.mqttBroker ?? null,
    zwavePort: running.zwavePort ?? null,
    dataDir,
    output: () => output,
    async stop(options = {}) {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      if (schema) await dropDatabaseSchema(schema);
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** True when the run's global setup (`global-setup.ts`) already built the servers and front ends from the code as it is. */
export const builtForRun = (): boolean => process.env.HEARTH_E2E_BUILT === '1';
