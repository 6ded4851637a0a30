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
  /** The demo's virtual Matter devices (`MATTER_DEMO=1`): their kind, name, zone and pairing code. */
  matterDevices: { kind: string; name: string; zone: string; manualPairingCode: string }[];
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

/**
 * Where a file's ports come from. Files run side by side (two Vitest workers), and a port found free is only taken
 * when its server starts, so each worker draws from a range of its own (`VITEST_POOL_ID`, 1 and up): two files never
 * pick the same block between the check and the bind. The ranges lie below the kernel's ephemeral ports (32768 and
 * up on Linux), which any outgoing connection — a browser's, a hub's — may take at any moment.
 */
const PORT_RANGE_START = 20_000;
const PORTS_PER_WORKER = 3_000;
const WORKER_RANGES = 4;
const BLOCK = 5;

/**
 * Five consecutive free ports: three for the hubs from `hubBase`, the cloud's, and the demo MQTT broker's (which
 * would otherwise prefer 1884, the same port for every system on the machine).
 */
export async function freePorts(): Promise<{ cloud: number; hubBase: number; mqtt: number }> {
  const worker = Math.max(0, (Number(process.env.VITEST_POOL_ID) || 1) - 1) % WORKER_RANGES;
  const start = PORT_RANGE_START + worker * PORTS_PER_WORKER;
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = start + Math.floor(Math.random() * (PORTS_PER_WORKER - BLOCK));
    const ports = Array.from({ length: BLOCK }, (_, i) => base + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return { cloud: base + 3, hubBase: base, mqtt: base + 4 };
  }
  throw new Error('no free ports');
}

/**
 * Stops an orchestrator (`npm start`, `npm run start:cluster`) as Ctrl-C does, so that it stops the servers it
 * started, and waits for it; kills it if it has not exited 15 s later (its own shutdown kills its servers after 10 s).
 * A SIGKILL alone left a system that did not start in time running, cloud, hubs and apps, beside every later file.
 */
export async function interrupt(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
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
        MQTT_DEMO_PORT: String(ports.mqtt),
        // The demo hubs have fixed ids: two systems side by side would advertise the same names over mDNS, which
        // nothing here looks up (the hub's advertisement has its own tests in the client's discovery suites).
        HUB_MDNS: '0',
        // The demo's Matter devices cost each system a process and commissioning time; the files about them turn
        // them on (MATTER_DEMO=1).
        MATTER_DEMO: '0',
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
      await interrupt(child, exited);
      throw new Error(`the system did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let running: {
    cloud: { url: string };
    hubs: RunningSystem['hubs'];
    mqttUrl?: string;
    mqttBroker?: string;
    zwavePort?: string;
    matterDevices?: RunningSystem['matterDevices'];
  };
  try {
    running = JSON.parse(readFileSync(runningFile, 'utf8'));
  } catch (error) {
    // Not left running beside every later file: a failed read once left a whole system up for half an hour.
    await interrupt(child, exited);
    throw new Error(`the system's running.json could not be read (${(error as Error).message}):\n${output}`);
  }
  return {
    cloudUrl: running.cloud.url,
    hubs: running.hubs,
    mqttUrl: running.mqttUrl ?? null,
    mqttBroker: running.mqttBroker ?? null,
    zwavePort: running.zwavePort ?? null,
    matterDevices: running.matterDevices ?? [],
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
