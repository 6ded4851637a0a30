import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

const here = dirname(fileURLToPath(import.meta.url));
const command = join(here, '..', '..', '..', '..', '..', 'scripts', 'app.mjs');
const fixture = join(here, 'fixtures', 'org.community.airsense');

/** `npm run app -- run <dir>` as a developer runs it: a real process against a real hub, its output collected. */
function runApp(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [command, ...args], {
    env: { ...process.env, HEARTH_HUB_URL: '', HEARTH_HUB_TOKEN: '', HEARTH_DATA_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('npm run app -- run <dir>', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('packs and uploads the app, prints its output as it runs, and stops it on Ctrl-C', async () => {
    const run = runApp(['run', fixture, '--hub', t.url, '--token', t.token]);
    try {
      // The app's own log lines, from its process on the hub, arrive in the command's output.
      await until(run.output, (text) => text.includes('AirSense has been initialized'), 60_000);
      expect(run.output()).toMatch(/Running org\.community\.airsense \(session [^)]+\)\. Press Ctrl-C to stop it\./);
      const apps = await t.call<Record<string, { id: string }>>('GET', '/apps/app');
      expect(Object.keys(apps.body)).toContain('org.community.airsense');
      // A line the app logs later is printed once, when it comes.
      await until(run.output, (text) => text.includes('first poll done'), 30_000);
      expect(run.output().split('AirSense has been initialized').length).toBe(2);
    } finally {
      run.child.kill('SIGINT');
    }
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Stopped org.community.airsense.');
    // Run from the tools, the app ends with its session.
    await until(
      async () => Object.keys((await t.call<Record<string, unknown>>('GET', '/apps/app')).body),
      (ids) => !ids.includes('org.community.airsense'),
      15_000,
    );
  }, 120_000);

  it('runs the README’s minimal app', async () => {
    const run = runApp(['run', join(here, 'fixtures', 'com.example.hello'), '--hub', t.url, '--token', t.token]);
    try {
      await until(run.output, (text) => text.includes('Hello from Hello'), 60_000);
    } finally {
      run.child.kill('SIGINT');
    }
    expect(await run.exited).toBe(0);
  }, 90_000);

  it('says what is wrong: a refused token, a folder without app.json, no hub', async () => {
    const refused = runApp(['run', fixture, '--hub', t.url, '--token', 'not-a-token']);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/the hub refused the app: 401/);
    const notAnApp = runApp(['run', here, '--hub', t.url, '--token', t.token]);
    expect(await notAnApp.exited).toBe(1);
    expect(notAnApp.output()).toContain('has no app.json');
    const nowhere = runApp(['run', fixture]);
    expect(await nowhere.exited).toBe(1);
    expect(nowhere.output()).toContain('no hub to run on');
  });
});
