#!/usr/bin/env node
// `npm run app -- run <dir>`: runs the app in <dir> on a hub through its developer kit, as the ecosystem's
// `homey app run` does: packs the folder as a tar.gz, uploads it (`POST /api/manager/devkit/`), prints the app's
// output until Ctrl-C, then stops the app on the hub. The hub and token: `--hub <url>` and `--token <token>`, else
// HEARTH_HUB_URL and HEARTH_HUB_TOKEN, else the first hub `npm start` runs (its .data/running.json).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { create as createTar } from 'tar';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** How often the app's output is asked for: the devkit keeps its recent lines, each with an id. */
const POLL_MS = 500;

const usage = `Usage: npm run app -- run <app folder> [--hub <url>] [--token <token>] [--env KEY=VALUE …] [--clean]

Runs the app on a hub through its developer kit and prints its output until Ctrl-C, which stops it.
Without --hub/--token: HEARTH_HUB_URL and HEARTH_HUB_TOKEN, else the first hub of a running \`npm start\`.`;

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** The hub to run on: the options, the environment, or what `npm start` wrote it runs. */
function hubOf(/** @type {{ hub?: string, token?: string }} */ options) {
  let url = options.hub ?? process.env.HEARTH_HUB_URL;
  let token = options.token ?? process.env.HEARTH_HUB_TOKEN;
  const running = join(resolve(root, process.env.HEARTH_DATA_DIR ?? '.data'), 'running.json');
  if ((!url || !token) && existsSync(running)) {
    const first = JSON.parse(readFileSync(running, 'utf8')).hubs?.[0];
    url ??= first?.url;
    token ??= first?.ownerToken;
  }
  if (!url || !token) fail(`no hub to run on: start one with \`npm start\`, or give --hub and --token.\n\n${usage}`);
  return { url: String(url).replace(/\/$/, ''), token: String(token) };
}

/** Packs `dir` as the devkit takes it: a tar.gz with app.json at its root. */
async function pack(/** @type {string} */ dir) {
  if (!existsSync(join(dir, 'app.json'))) fail(`${dir} has no app.json: give the app's own folder`);
  const work = mkdtempSync(join(tmpdir(), 'hearth-app-run-'));
  try {
    const file = join(work, 'app.tar.gz');
    const entries = readdirSync(dir).filter((name) => name !== '.git' && name !== '.homeybuild');
    await createTar({ gzip: true, cwd: dir, file, portable: true }, entries);
    return readFileSync(file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A readable sentence of a hub's error answer. */
async function refusal(/** @type {Response} */ response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    return `${response.status} ${body.error ?? ''}: ${body.error_description ?? body.message ?? text}`;
  } catch {
    return `${response.status}: ${text.slice(0, 300)}`;
  }
}

async function run(/** @type {string} */ dir, /** @type {any} */ options) {
  const hub = hubOf(options);
  const headers = { authorization: `Bearer ${hub.token}` };
  const env = Object.fromEntries(
    (options.env ?? []).map((/** @type {string} */ pair) => {
      const at = pair.indexOf('=');
      if (at < 1) fail(`--env takes KEY=VALUE, got ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const archive = await pack(resolve(dir));
  console.log(`• Packed ${dir} (${Math.round(archive.length / 1024)} KB); uploading to ${hub.url}…`);
  const form = new FormData();
  form.append('app', new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'app.tar.gz');
  form.append('env', JSON.stringify(env));
  form.append('debug', 'false');
  form.append('purgeSettings', options.clean ? 'true' : 'false');
  const started = await fetch(`${hub.url}/api/manager/devkit/`, { method: 'POST', headers, body: form }).catch((error) =>
    fail(`the hub at ${hub.url} did not answer: ${error.message}`),
  );
  if (!started.ok) fail(`the hub refused the app: ${await refusal(started)}`);
  const { sessionId, appId } = /** @type {{ sessionId: string, appId: string }} */ (await started.json());
  console.log(`• Running ${appId} (session ${sessionId}). Press Ctrl-C to stop it.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const stopped = await fetch(`${hub.url}/api/manager/devkit/${encodeURIComponent(sessionId)}`, {
      method: 'DELETE',
      headers,
    }).catch((error) => ({ ok: false, status: 0, text: async () => error.message }));
    if (stopped.ok) console.log(`• Stopped ${appId}.`);
    else console.error(`✖ could not stop ${appId}: ${stopped.status} ${await stopped.text()}`);
    process.exit(stopped.ok ? 0 : 1);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  // The devkit keeps the session's recent lines, oldest first, each with an id: print the ones not printed yet.
  const printed = new Set();
  while (!stopping) {
    const answer = await fetch(`${hub.url}/api/manager/devkit/std/${encodeURIComponent(sessionId)}`, { headers }).catch(
      (error) => {
        console.error(`✖ the hub did not answer: ${error.message}; asking again`);
        return null;
      },
    );
    if (answer && answer.status === 404) fail(`the session ended on the hub (the app was stopped or the hub restarted)`);
    if (answer?.ok)
      for (const line of /** @type {{ id: string, stream: string, line: string }[]} */ (await answer.json())) {
        if (printed.has(line.id)) continue;
        printed.add(line.id);
        (line.stream === 'stderr' ? process.stderr : process.stdout).write(`${line.line}\n`);
      }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    hub: { type: 'string' },
    token: { type: 'string' },
    env: { type: 'string', multiple: true },
    clean: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
const [command, dir] = positionals;
if (values.help || command !== 'run' || !dir) {
  console.log(usage);
  process.exit(values.help ? 0 : 1);
}
await run(dir, values);
