/**
 * The entry of an app's process. The hub forks this file (bundled as `dist/runner.cjs`), with Node's
 * permission model limiting the files it may touch, and drives it over the IPC channel: `init` boots the app,
 * later requests reach its devices, flow cards, pair sessions and web API. `require('homey')` in the app's code
 * answers this SDK.
 */
import Module from 'node:module';
import { join } from 'node:path';
import * as sdk from '../index';
import type { AppBridge } from '../internal/bridge';
import type { AppToHubEventMap, AppToHubMethods, HubToAppEventMap, HubToAppMethods } from '../protocol/messages';
import { type Envelope, Peer } from '../protocol/peer';
import { AppInstance } from './app-instance';

/** How long a call from the app to its hub may take. */
const HUB_CALL_TIMEOUT_MS = 30_000;

const send = (envelope: Envelope): boolean => {
  if (!process.connected || !process.send) return false;
  process.send(envelope);
  return true;
};

const peer = new Peer<HubToAppMethods, AppToHubMethods, HubToAppEventMap, AppToHubEventMap>({
  send,
  timeoutMs: HUB_CALL_TIMEOUT_MS,
});
process.on('message', (message) => peer.receive(message));
// Without its hub the app has nothing to do: the hub went away (or closed the channel to stop it).
process.on('disconnect', () => process.exit(0));

let crashing = false;
process.on('uncaughtException', (error) => {
  if (crashing) return;
  crashing = true;
  console.error(error);
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? null) : null;
  const exit = () => process.exit(1);
  if (!process.connected || !process.send) exit();
  else {
    process.send({ t: 'evt', event: 'crash', data: { message, stack } } satisfies Envelope, undefined, {}, exit);
    setTimeout(exit, 1_000).unref();
  }
});

/** Makes `require('homey')` in the app's code answer this SDK, without touching the file system. */
function provideHomeyModule(): void {
  const internal = Module as unknown as {
    _resolveFilename(request: string, ...rest: unknown[]): string;
    _cache: Record<string, Module>;
  };
  const id = join(__dirname, 'node_modules', 'homey', 'index.js');
  const module = new Module(id);
  module.filename = id;
  module.loaded = true;
  module.exports = sdk;
  internal._cache[id] = module;
  const resolve = internal._resolveFilename;
  internal._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'homey' ? id : resolve.call(this, request, ...rest);
  };
}

let instance: AppInstance | undefined;

peer.handle('init', async (init) => {
  if (instance) throw new Error('The app was started already');
  Object.assign(sdk.env, init.env);
  Object.assign(sdk.manifest, init.manifest);
  provideHomeyModule();
  const bridge: AppBridge = {
    call: (method, params) => peer.call(method, params),
    emit: (event, data) => peer.emit(event, data),
    init,
  };
  instance = new AppInstance(bridge, init);
  const handlers = instance.handlers();
  for (const [method, handler] of Object.entries(handlers)) {
    peer.handle(method as keyof HubToAppMethods, handler as (params: unknown) => Promise<unknown>);
  }
  try {
    await instance.start();
  } catch (error) {
    // The hub's answer carries only the message; the stack goes to the app's error output, which is its log and
    // what the developer's devkit session shows.
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    throw error;
  }
  return null;
});

peer.handle('uninit', async () => {
  await instance?.stop();
  return null;
});

peer.on('setting', ({ key, value, removed }) => instance?.homey.settings.applyRemote(key, value, removed));
peer.on('memwarn', (data) => instance?.homey.emit('memwarn', data));
peer.on('cpuwarn', (data) => instance?.homey.emit('cpuwarn', data));
peer.on('unload', () => instance?.homey.emit('unload'));
peer.on('zwave.report', (report) => instance?.homey.zwave.deliver(report));
peer.on('zwave.online', (change) => instance?.homey.zwave.deliverOnline(change));
peer.on('cloud.webhook', ({ webhookId, ...message }) => instance?.homey.cloud.deliver(webhookId, message));
peer.on('flow.cardUpdated', ({ kind, cardId }) => instance?.homey.flow.find(kind, cardId)?.emit('update'));
