import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAppManifest, loadApp, ManifestError } from './index';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes an app folder from a map of relative paths to JSON values or text. */
function appFolder(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-manifest-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

const base = { id: 'com.example.lights', version: '1.2.3', sdk: 3, name: { en: 'Lights' }, author: { name: 'Ada' } };
const socket = { id: 'socket', name: 'Socket', class: 'socket', capabilities: ['onoff'] };

describe('the app manifest', () => {
  it('accepts a complete SDK v3 manifest', () => {
    const manifest = {
      ...base,
      permissions: ['homey:manager:api'],
      drivers: [
        {
          ...socket,
          pair: [
            { id: 'list_devices', template: 'list_devices', navigation: { next: 'add_devices' } },
            { id: 'add_devices', template: 'add_devices' },
          ],
        },
      ],
      flow: {
        triggers: [{ id: 'pressed', title: 'Pressed', tokens: [{ name: 'count', type: 'number', title: 'Count' }] }],
        conditions: [{ id: 'is_on', title: 'Is on', args: [{ name: 'device', type: 'device', filter: 'driver_id=socket' }] }],
        actions: [{ id: 'blink', title: 'Blink', args: [{ name: 'times', type: 'number', min: 1, max: 10 }] }],
      },
      api: { getStatus: { method: 'GET', path: '/status', public: true }, setMode: { method: 'POST', path: '/mode' } },
    };
    expect(checkAppManifest(manifest)).toEqual([]);
  });

  it("accepts what the ecosystem's manifests use: groups, lower-case methods, untyped tokens, labelled values", () => {
    const manifest = {
      ...base,
      runtime: 'nodejs',
      author: { name: 'Ada' },
      drivers: [
        {
          ...socket,
          id: 'LivingRoomSensor',
          settings: [{ type: 'group', label: { en: 'Advanced' }, children: [{ id: 'poll', type: 'number', label: 'Poll' }] }],
        },
      ],
      flow: {
        triggers: [{ id: 'said', title: 'Said', tokens: [{ name: 'text', title: 'Text' }] }],
        actions: [
          {
            id: 'mode',
            title: 'Mode',
            args: [{ name: 'mode', type: 'dropdown', values: [{ id: 'eco', label: { en: 'Eco' } }, { id: 'boost' }] }],
          },
        ],
      },
      api: { getStatus: { method: 'get', path: '/status' }, setMode: { method: 'post', path: '/mode' } },
    };
    expect(checkAppManifest(manifest)).toEqual([]);
    // The driver id names its folder: a path in it is still refused, by field.
    expect(checkAppManifest({ ...base, drivers: [{ ...socket, id: '../x' }] })[0]?.field).toBe('drivers[0].id');
    // Repeated routes are found whatever the case of their method.
    expect(checkAppManifest({ ...base, api: { a: { method: 'get', path: '/x' }, b: { method: 'GET', path: '/x' } } })).toEqual([
      { field: 'api.b', message: 'repeats the route GET /x' },
    ]);
  });

  it('names the field at fault', () => {
    expect(checkAppManifest({ ...base, version: 'one' })).toEqual([
      { field: 'version', message: expect.stringContaining('pattern') },
    ]);
    expect(checkAppManifest({ ...base, sdk: 2 })).toEqual([{ field: 'sdk', message: 'must be 3' }]);
    const { author: _author, ...withoutAuthor } = base;
    expect(checkAppManifest(withoutAuthor)).toEqual([{ field: 'author', message: 'is required' }]);
    expect(checkAppManifest({ ...base, drivers: [{ ...socket, class: 7 }] })[0]?.field).toBe('drivers[0].class');
    expect(checkAppManifest({ ...base, drivers: [{ id: 'socket', name: 'S', class: 'socket' }] })).toEqual([
      { field: 'drivers[0].capabilities', message: 'is required' },
    ]);
    expect(checkAppManifest({ ...base, api: { get: { method: 'PATCH', path: '/x' } } })).toEqual([
      {
        field: 'api.get.method',
        message: 'must be "GET" or "POST" or "PUT" or "DELETE" or "get" or "post" or "put" or "delete"',
      },
    ]);
    expect(checkAppManifest([])).toEqual([{ field: '(manifest)', message: 'must be a JSON object' }]);
  });

  it('checks what the schema cannot: repeated ids, references and the files the manifest names', () => {
    const dir = appFolder({});
    const problems = checkAppManifest(
      {
        ...base,
        runtime: 'python',
        drivers: [{ ...socket, pair: [{ id: 'login', navigation: { next: 'nowhere' } }] }, socket],
        flow: {
          actions: [
            { id: 'go', title: 'Go', args: [{ name: 'device', type: 'device', filter: 'driver_id=lamp' }] },
            { id: 'go', title: 'Go' },
          ],
        },
        api: { a: { method: 'GET', path: '/x' }, b: { method: 'GET', path: '/x' } },
      },
      dir,
    );
    expect(problems).toEqual([
      { field: 'runtime', message: 'must be "nodejs": this hub runs Node.js apps' },
      { field: 'drivers[0].pair[0].navigation', message: 'names view nowhere, which the driver does not have' },
      { field: 'drivers[0].pair[0].id', message: 'is a custom view without drivers/socket/pair/login.html' },
      { field: 'drivers[1].id', message: 'repeats driver id socket' },
      { field: 'flow.actions[0].args[0].filter', message: 'names driver lamp, which the app does not have' },
      { field: 'flow.actions[1].id', message: 'repeats card id go' },
      { field: 'api.b', message: 'repeats the route GET /x' },
    ]);
  });

  it('loads app.json with env.json, and refuses a bad one naming the field', () => {
    const dir = appFolder({ 'app.json': { ...base, drivers: [socket] }, 'env.json': { KEY: 'secret' } });
    const loaded = loadApp(dir);
    expect(loaded.manifest.id).toBe('com.example.lights');
    expect(loaded.env).toEqual({ KEY: 'secret' });
    const bad = appFolder({ 'app.json': { ...base, drivers: [{ ...socket, capabilities: 'onoff' }] } });
    expect(() => loadApp(bad)).toThrow(new ManifestError([{ field: 'drivers[0].capabilities', message: 'must be array' }]));
    expect(() => loadApp(bad)).toThrow('Invalid app manifest: drivers[0].capabilities must be array');
    expect(() => loadApp(appFolder({ 'app.json': '{ nope' }))).toThrow(/^Invalid app manifest: app.json is not valid JSON/);
    expect(() => loadApp(appFolder({}))).toThrow('Invalid app manifest: app.json is missing');
    expect(() => loadApp(appFolder({ 'app.json': base, 'env.json': { N: 1 } }))).toThrow(
      'Invalid app manifest: env.json.N must be a string',
    );
  });

  it('merges a .homeycompose folder into the manifest', () => {
    const dir = appFolder({
      '.homeycompose/app.json': { ...base, flow: { triggers: [{ id: 'inline', title: 'Inline' }] } },
      '.homeycompose/capabilities/mode.json': { type: 'enum', title: 'Mode', values: [{ id: 'a', title: 'A' }] },
      '.homeycompose/flow/actions/blink.json': { title: 'Blink' },
      'drivers/socket/driver.compose.json': { name: 'Socket', class: 'socket', capabilities: ['onoff', 'mode'] },
      'drivers/socket/driver.flow.compose.json': {
        triggers: [{ id: 'socket_pressed', title: 'Pressed', args: [{ name: 'times', type: 'number' }] }],
      },
      'drivers/socket/pair/start.html': '<p>start</p>',
      'app.json': { ...base, name: 'stale generated file' },
    });
    const { manifest } = loadApp(dir);
    expect(manifest.name).toEqual({ en: 'Lights' });
    expect(manifest.capabilities).toEqual({ mode: { type: 'enum', title: 'Mode', values: [{ id: 'a', title: 'A' }] } });
    expect(manifest.drivers).toEqual([{ id: 'socket', name: 'Socket', class: 'socket', capabilities: ['onoff', 'mode'] }]);
    expect(manifest.flow).toEqual({
      triggers: [
        { id: 'inline', title: 'Inline' },
        {
          id: 'socket_pressed',
          title: 'Pressed',
          args: [
            { type: 'device', name: 'device', filter: 'driver_id=socket' },
            { name: 'times', type: 'number' },
          ],
        },
      ],
      actions: [{ id: 'blink', title: 'Blink' }],
    });
  });
});
