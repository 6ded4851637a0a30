// What a cluster on this machine stands on: PostgreSQL, Redis and HAProxy from Debian's packages.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Debian's PostgreSQL cluster answers on 127.0.0.1:5432. */
const postgresReady = () => spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']).status === 0;

/**
 * The PostgreSQL the nodes share: `DATABASE_URL` when given; else the server on 127.0.0.1:5432 (started with
 * `pg_ctlcluster` when it is installed but down), database `hearth`, created when missing.
 * @param {NodeJS.ProcessEnv} env @returns {Promise<string>}
 */
export async function ensurePostgres(env) {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  if (!postgresReady()) {
    let versions = [];
    try {
      versions = readdirSync('/etc/postgresql').sort((a, b) => Number(a) - Number(b));
    } catch {
      throw new Error('No PostgreSQL: set DATABASE_URL, or install Debian’s (apt-get install postgresql)');
    }
    console.log('• Starting PostgreSQL (pg_ctlcluster)…');
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', String(versions.at(-1)), 'main', 'start'], { stdio: 'inherit' });
    for (let i = 0; i < 30 && !postgresReady(); i++) await new Promise((r) => setTimeout(r, 1000));
    if (!postgresReady()) throw new Error('PostgreSQL did not start on 127.0.0.1:5432');
  }
  const url = 'postgres://postgres:postgres@127.0.0.1:5432/hearth';
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: url.replace(/\/hearth$/, '/postgres') });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'hearth'");
    if (exists.rowCount === 0) await admin.query('CREATE DATABASE hearth');
  } finally {
    await admin.end();
  }
  return url;
}

/**
 * Answers whether a Redis answers PING at `url`.
 * @param {string} url @returns {Promise<boolean>}
 */
export function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (/** @type {boolean} */ ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** The arguments of a Redis that keeps nothing on disk: the nodes' counters are worth losing, never waiting for. */
export const redisServerArgs = (/** @type {number} */ port) => [
  '--bind',
  '127.0.0.1',
  '--port',
  String(port),
  '--save',
  '',
  '--appendonly',
  'no',
];

/**
 * Writes the repository's HAProxy configuration (`scripts/cluster/haproxy.cfg`) for this cluster.
 * @param {{ template: string, target: string, bind: string, nodes: { name: string, address: string }[] }} options
 */
export function writeBalancerConfig({ template, target, bind, nodes }) {
  const servers = nodes.map((node) => `    server ${node.name} ${node.address} check`).join('\n');
  const text = readFileSync(template, 'utf8').replace('{{bind}}', bind).replace('{{servers}}', servers);
  writeFileSync(target, text);
}

/** The HAProxy binary, or a readable error naming the package. */
export function haproxyPath() {
  const found = spawnSync('sh', ['-c', 'command -v haproxy']).stdout?.toString().trim();
  if (!found) throw new Error('No HAProxy: install Debian’s (apt-get install haproxy)');
  return found;
}
