import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

const manifest = {
  id: 'com.example.archived',
  version: '1.2.3',
  compatibility: '>=12.0.0',
  sdk: 3,
  name: { en: 'Archived example' },
  author: { name: 'Dev Eloper', email: 'dev@example.test' },
  drivers: [{ id: 'plug', name: 'Plug', class: 'socket', capabilities: ['onoff'], connectivity: ['lan'] }],
};

let work: string;

/** A real tar.gz as `homey app run` packs it: `app.json` (raw text) inside `folder` (or at the root), plus its code. */
async function archive(appJson: string | null, folder = ''): Promise<Buffer> {
  const root = mkdtempSync(join(work, 'app-'));
  const dir = join(root, 'src', folder);
  mkdirSync(join(dir, 'drivers', 'plug'), { recursive: true });
  // The ecosystem's validator, which the hub follows for apps with code, wants the app's icon.
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><title>Icon</title></svg>');
  if (appJson !== null) writeFileSync(join(dir, 'app.json'), appJson);
  writeFileSync(
    join(dir, 'app.js'),
    `const Homey = require('homey');
module.exports = class Archived extends Homey.App {
  async onInit() {
    this.log('Hello from the archive', this.homey.env.API_KEY ?? '-');
  }
};
`,
  );
  writeFileSync(
    join(dir, 'drivers', 'plug', 'device.js'),
    "const Homey = require('homey');\nmodule.exports = class Plug extends Homey.Device {};\n",
  );
  const file = join(root, 'app.tar.gz');
  const cwd = join(root, 'src');
  await createTar({ gzip: true, cwd, file, portable: true }, readdirSync(cwd));
  return readFileSync(file);
}

describe('devkit: the older multipart form (POST /api/manager/devkit/)', () => {
  let t: TestHub;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'hearth-devkit-'));
    t = await startTestHub();
  });
  afterAll(async () => {
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Posts a real multipart/form-data body built with FormData and Blob, as Node's fetch sends it. */
  async function post(fields: Record<string, string | Blob>, token: string | null = t.token) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (value instanceof Blob) form.append(name, value, 'app.tar.gz');
      else form.append(name, value);
    }
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${t.url}/api/manager/devkit/`, { method: 'POST', headers, body: form });
    return { status: response.status, body: (await response.json()) as Json };
  }
  const blob = (data: Buffer) => new Blob([new Uint8Array(data)], { type: 'application/gzip' });

  it('runs an app posted as a tar.gz archive with env and debug, then stops it by its session', async () => {
    const answer = await post({
      app: blob(await archive(JSON.stringify(manifest), 'com.example.archived')),
      env: JSON.stringify({ API_KEY: 'k' }),
      debug: 'true',
      purgeSettings: 'false',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ appId: 'com.example.archived', origin: 'devkit_run', debug: true });
    const app = await until(
      () => t.call<Json>('GET', '/apps/app/com.example.archived'),
      (a) => a.body.state === 'running',
    );
    expect(app.body).toMatchObject({ origin: 'devkit_run', version: '1.2.3', channel: 'alpha' });
    const std = await t.call<{ line: string }[]>('GET', `/devkit/std/${answer.body.sessionId}`);
    // The archive's own code ran, in its own process, with the env the developer sent.
    expect(std.body.map((l) => l.line)).toContain('[log] [Archived] Hello from the archive k');
    expect((await t.call('DELETE', `/devkit/${answer.body.sessionId}`)).status).toBe(204);
    expect((await t.call('GET', '/apps/app/com.example.archived')).status).toBe(404);
  });

  it('reads app.json at the archive root too, and purgeSettings replaces the running app', async () => {
    const first = await post({ app: blob(await archive(JSON.stringify(manifest))) });
    expect(first.status).toBe(200);
    const second = await post({
      app: blob(await archive(JSON.stringify({ ...manifest, version: '1.2.4' }))),
      purgeSettings: 'true',
    });
    expect(second.body).toMatchObject({ appId: 'com.example.archived' });
    expect((await t.call<Json>('GET', '/apps/app/com.example.archived')).body.version).toBe('1.2.4');
    // The replaced session is gone; the new one ends the app.
    expect((await t.call('DELETE', `/devkit/${first.body.sessionId}`)).status).toBe(404);
    expect((await t.call('DELETE', `/devkit/${second.body.sessionId}`)).status).toBe(204);
  });

  it('validates the manifest in the archive as the manifest form does, installing nothing', async () => {
    const bad = await post({
      app: blob(
        await archive(JSON.stringify({ ...manifest, drivers: [{ ...manifest.drivers[0], capabilities: ['teleport'] }] })),
      ),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_parameter');
    expect(String(bad.body.error_description)).toMatch(/^Invalid Parameter: app\. .*teleport/);
    expect((await t.call('GET', '/apps/app/com.example.archived')).status).toBe(404);
  });

  it('answers 400 with the field named for a broken archive, a bad field, or no archive', async () => {
    const cases: [Record<string, string | Blob>, string, string][] = [
      [
        { app: blob(Buffer.from('not an archive')) },
        'invalid_parameter',
        'Invalid Parameter: app. The app archive must be a tar.gz file',
      ],
      [{ app: blob(await archive(null)) }, 'invalid_parameter', 'Invalid Parameter: app. The app archive has no app.json'],
      [{ app: blob(await archive('{ not json')) }, 'invalid_parameter', 'Invalid Parameter: app. app.json is not valid JSON'],
      [{ env: '{}' }, 'missing_parameter', 'Missing Parameter: app'],
      [
        { app: blob(await archive(JSON.stringify(manifest))), env: '[1]' },
        'invalid_parameter',
        'Invalid Parameter: env. Must be a JSON object',
      ],
      [
        { app: blob(await archive(JSON.stringify(manifest))), env: '{"A":1}' },
        'invalid_parameter',
        'Invalid Parameter: env.A. Must be a string',
      ],
      [
        { app: blob(await archive(JSON.stringify(manifest))), debug: 'maybe' },
        'invalid_parameter',
        'Invalid Parameter: debug. Expected true or false, got "maybe"',
      ],
    ];
    for (const [fields, error, description] of cases) {
      const answer = await post(fields);
      expect(answer, description).toMatchObject({ status: 400, body: { error, error_description: description } });
    }
    expect((await t.call('GET', '/apps/app/com.example.archived')).status).toBe(404);
  });

  it('needs a token with homey.app, and a multipart body', async () => {
    const app = blob(await archive(JSON.stringify(manifest)));
    expect((await post({ app }, null)).status).toBe(401);
    expect((await post({ app }, t.sessionFor('owner', ['homey.app.readonly']))).body).toMatchObject({ error: 'missing_scopes' });
    const json = await fetch(`${t.url}/api/manager/devkit/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ app: 'x' }),
    });
    expect(json.status).toBe(415);
  });

  it('accepts multipart bodies on that route only', async () => {
    const form = new FormData();
    form.append('manifest', JSON.stringify(manifest));
    const other = await fetch(`${t.url}/api/manager/devkit/app`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    expect(other.status).toBe(415);
    expect(((await other.json()) as Json).error).toBe('unsupported_media_type');
  });
});
