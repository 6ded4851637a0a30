import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AppToHubEventMap,
  AppToHubMethods,
  DeviceSnapshot,
  HubToAppEventMap,
  HubToAppMethods,
  InitParams,
} from '../protocol/messages';
import { Peer } from '../protocol/peer';
import { ensureRunner } from './build';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'com.test.sdk');
const manifest = JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as Record<string, unknown>;

const light = (id: string, name: string): DeviceSnapshot => ({
  id,
  driverId: 'light',
  name,
  class: 'light',
  data: { id },
  store: { ip: '10.0.0.1' },
  settings: { fade: 1 },
  capabilities: ['onoff', 'dim'],
  capabilitiesOptions: {},
  values: { onoff: false, dim: 0 },
  available: true,
  unavailableMessage: null,
  warning: null,
  energy: null,
});

/**
 * The hub's side of the protocol, played by the test: it forks the real runner with the fixture app, records
 * every request the app makes (answering each with `null`, or what `answers` says) and collects its output.
 */
let child: ChildProcess;
let hub: Peer<AppToHubMethods, HubToAppMethods, AppToHubEventMap, HubToAppEventMap>;
const requests: { method: string; params: unknown }[] = [];
const output: string[] = [];
const answers: Partial<Record<keyof AppToHubMethods, unknown>> = {
  'images.create': { id: 'image-1' },
  'pair.emit': 'view answered',
};

const requested = (method: string) => requests.filter((r) => r.method === method).map((r) => r.params);
const logged = (text: string) => expect.poll(() => output.some((line) => line.includes(text))).toBe(true);

beforeAll(async () => {
  const runner = await ensureRunner();
  child = fork(runner, [], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: {} });
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n')));
  hub = new Peer({
    send: (envelope) => child.connected && child.send(envelope),
    timeoutMs: 5_000,
  });
  child.on('message', (message) => hub.receive(message));
  const methods = [
    'settings.set',
    'settings.unset',
    'flow.trigger',
    'flow.createToken',
    'flow.setTokenValue',
    'images.create',
    'images.update',
    'insights.createLog',
    'insights.createEntry',
    'device.setCapabilityValue',
    'device.setStore',
    'device.setSettings',
    'device.setWarning',
    'device.setAvailable',
    'pair.emit',
    'pair.showView',
  ] as const;
  for (const method of methods) {
    hub.handle(method, (params: unknown) => {
      requests.push({ method, params });
      return (answers[method] ?? null) as never;
    });
  }
  const init: InitParams = {
    appId: 'com.test.sdk',
    manifest,
    env: { GREETING: 'hi' },
    dir,
    userdataDir: dir,
    tmpDir: dir,
    hubId: 'hub-1',
    hubVersion: '12.1.0',
    platform: 'local',
    platformVersion: 2,
    language: 'nl',
    units: 'metric',
    timezone: 'Europe/Amsterdam',
    geolocation: { latitude: 52.1, longitude: 5.1, accuracy: 5, mode: 'manual' },
    localUrl: 'http://192.168.1.20',
    settings: { kept: 'from before' },
    devices: [light('hall', 'Hall light')],
  };
  await hub.call('init', init);
});

afterAll(() => child?.kill());

describe('the SDK runner', () => {
  it('boots the app with its env, manifest, language, permissions and managers', async () => {
    await logged('env hi manifest com.test.sdk homey 2.0.0');
    await logged('i18n Hallo Ada ja');
    await logged('permission true false');
    await logged('clock Europe/Amsterdam lat 52.1');
    await logged("card error Invalid Flow Card ID: nope is not in the manifest's flow.actions");
    await logged('zigbee not_implemented ManagerZigBee.getNode is not available to apps on a Hearth hub');
    await logged('light init Hall light {"id":"hall"} 10.0.0.1');
    expect(requested('flow.createToken')).toEqual([{ id: 'rings', type: 'number', title: 'Rings', value: 0 }]);
    expect(requested('flow.setTokenValue')).toEqual([{ id: 'rings', value: 1 }]);
    expect(requested('images.update')).toEqual([{ id: 'image-1', source: { kind: 'stream' } }]);
    expect(requested('insights.createLog')).toEqual([
      { id: 'rings', title: 'Rings', type: 'number', units: 'x', decimals: null },
    ]);
    expect(requested('insights.createEntry')).toEqual([{ id: 'rings', value: 3 }]);
    // The hub opens the image: its content type answers, its bytes follow as events and end.
    const chunks: Buffer[] = [];
    const ended: (string | null)[] = [];
    hub.on('image.chunk', ({ streamId, data }) => streamId === 'read-1' && chunks.push(Buffer.from(data, 'base64')));
    hub.on('image.end', ({ streamId, error }) => streamId === 'read-1' && ended.push(error));
    await expect(hub.call('image.open', { imageId: 'image-1', streamId: 'read-1' })).resolves.toEqual({
      contentType: 'image/png',
    });
    await expect.poll(() => ended).toEqual([null]);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2]));
  });

  it('batches writes of a multiple capability listener, confirms or refuses them, and fires device triggers', async () => {
    const writes = [
      hub.call('capability.set', { deviceId: 'hall', values: { onoff: true }, opts: {} }),
      hub.call('capability.set', { deviceId: 'hall', values: { dim: 0.4 }, opts: { dim: { duration: 300 } } }),
    ];
    await expect(Promise.all(writes)).resolves.toEqual([null, null]);
    await logged('light set {"onoff":true,"dim":0.4} {"onoff":{},"dim":{"duration":300}}');
    expect(requested('device.setStore')).toContainEqual({
      deviceId: 'hall',
      store: { ip: '10.0.0.1', last: { onoff: true, dim: 0.4 } },
    });
    expect(requested('flow.trigger')).toContainEqual({ cardId: 'light_changed', tokens: {}, state: {}, deviceId: 'hall' });
    await expect(hub.call('capability.set', { deviceId: 'hall', values: { dim: 0.99 }, opts: {} })).rejects.toMatchObject({
      message: 'Too bright',
    });
    await expect(hub.call('capability.set', { deviceId: 'hall', values: { light_hue: 1 }, opts: {} })).rejects.toMatchObject({
      message: 'Invalid Capability: light_hue',
    });
    await expect(hub.call('capability.set', { deviceId: 'nope', values: { onoff: true }, opts: {} })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('runs flow cards: trigger filters, conditions, actions with tokens, autocomplete', async () => {
    const run = (kind: 'trigger' | 'condition' | 'action', cardId: string, args: Record<string, unknown>, state = {}) =>
      hub.call('flow.run', { kind, cardId, args, state, tokens: {}, deviceId: null });
    await expect(run('trigger', 'word_said', { word: 'hi' }, { word: 'hi' })).resolves.toEqual({ result: true });
    await expect(run('trigger', 'word_said', { word: 'hi' }, { word: 'ho' })).resolves.toEqual({ result: false });
    await expect(run('trigger', 'rang', {})).resolves.toEqual({ result: true });
    await expect(run('condition', 'is_even', { number: 4 })).resolves.toEqual({ result: true });
    await expect(run('condition', 'is_even', { number: 3 })).resolves.toEqual({ result: false });
    await expect(run('action', 'greet', { who: { name: 'Grace', id: 'grace' } })).resolves.toEqual({
      result: { greeting: 'Hallo Grace' },
    });
    await expect(run('action', 'unheard', {})).rejects.toMatchObject({ message: 'The action card unheard has no run listener' });
    await expect(
      hub.call('flow.autocomplete', { kind: 'action', cardId: 'greet', argument: 'who', query: 'a', args: {} }),
    ).resolves.toEqual([
      { name: 'Ada', id: 'ada' },
      { name: 'Alan', id: 'alan' },
    ]);
  });

  it('pairs with list_devices and a custom view, and serves the web API', async () => {
    await hub.call('pair.open', { sessionId: 's1', driverId: 'light', type: 'pair', deviceId: null });
    await expect(hub.call('pair.message', { sessionId: 's1', event: 'list_devices', data: null })).resolves.toEqual([
      { name: 'Kitchen light', data: { id: 'kitchen' }, store: { ip: '10.0.0.9' }, settings: { fade: 2 } },
    ]);
    await expect(
      hub.call('pair.message', { sessionId: 's1', event: 'login', data: { username: 'ada', password: 'x' } }),
    ).rejects.toMatchObject({
      message: 'Wrong password',
    });
    await expect(
      hub.call('pair.message', { sessionId: 's1', event: 'login', data: { username: 'ada', password: 'secret' } }),
    ).resolves.toBe('welcome ada');
    expect(requested('pair.showView')).toEqual([{ sessionId: 's1', viewId: 'list_devices' }]);
    await expect(hub.call('pair.message', { sessionId: 's1', event: 'showView', data: 'list_devices' })).resolves.toBeNull();
    await expect(hub.call('pair.message', { sessionId: 's1', event: 'unknown', data: null })).rejects.toMatchObject({
      message: 'The pair session has no handler for unknown',
    });
    await hub.call('pair.close', { sessionId: 's1' });
    await expect(hub.call('pair.message', { sessionId: 's1', event: 'list_devices', data: null })).rejects.toMatchObject({
      code: 'not_found',
    });

    await expect(
      hub.call('api.request', { route: 'echo', params: { name: 'bob' }, query: { q: '1' }, body: { a: 1 } }),
    ).resolves.toEqual({
      name: 'bob',
      query: { q: '1' },
      body: { a: 1 },
      app: 'com.test.sdk',
    });
    expect(requested('flow.trigger')).toContainEqual({ cardId: 'rang', tokens: { times: 3 }, state: {}, deviceId: null });
    await expect(hub.call('api.request', { route: 'missing', params: {}, query: {}, body: null })).rejects.toMatchObject({
      code: 'not_found',
      message: 'api.js has no handler missing',
    });
  });

  it('adds, renames, reconfigures and deletes devices through their hooks', async () => {
    await hub.call('device.added', { device: light('porch', 'Porch light') });
    await logged('light added Porch light');
    expect(requested('device.setCapabilityValue')).toContainEqual({ deviceId: 'porch', capabilityId: 'dim', value: 0.5 });
    expect(requested('device.setSettings')).toContainEqual({ deviceId: 'porch', settings: { fade: 3 } });
    expect(requested('device.setWarning')).toContainEqual({ deviceId: 'porch', message: 'Battery low' });
    await hub.call('device.renamed', { deviceId: 'porch', name: 'Front light' });
    await logged('renamed to Front light');
    await expect(
      hub.call('device.settings', {
        deviceId: 'porch',
        oldSettings: { fade: 3 },
        newSettings: { fade: 5 },
        changedKeys: ['fade'],
      }),
    ).resolves.toEqual({ message: 'fade 3 → 5 (fade)' });
    await expect(
      hub.call('device.settings', {
        deviceId: 'porch',
        oldSettings: { fade: 5 },
        newSettings: { fade: 50 },
        changedKeys: ['fade'],
      }),
    ).rejects.toMatchObject({ message: 'Fade is at most 10 seconds' });
    await hub.call('device.deleted', { deviceId: 'porch' });
    await logged('light deleted');
    expect(requested('device.setAvailable')).toContainEqual({ deviceId: 'porch', available: false, message: 'gone' });
  });

  it('keeps settings in step with the hub, and on stop hears unload, runs onUninit and clears its timers', async () => {
    hub.emit('setting', { key: 'mode', value: 'eco', removed: false });
    await logged('setting set mode "eco"');
    hub.emit('setting', { key: 'kept', value: null, removed: true });
    await logged('setting unset kept');
    expect(requested('settings.set')).toContainEqual({ key: 'last_echo', value: 'bob' });
    hub.emit('memwarn', { count: 1, limit: 128 });
    await logged('memwarn 1 128');
    hub.emit('unload', {});
    await logged('unload received');
    await hub.call('uninit', {});
    await logged('app uninit, timers 1');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.disconnect();
    await expect(exited).resolves.toBe(0);
  });
});
