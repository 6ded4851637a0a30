import { Api, ApiApp } from '../lib/api';
import { Manager } from './manager';

/**
 * `this.homey.api`: the hub's web API seen from the app. `realtime` publishes events on the app's own uri;
 * `get`/`post`/`put`/`delete` call the hub's web API (paths under `/api`) as the app, which needs the
 * `homey:manager:api` permission; `getApiApp` talks to another app's web API.
 */
export class ManagerApi extends Manager {
  static ID = 'api';
  readonly #apis = new Map<string, Api>();

  get(uri: string): Promise<unknown> {
    return this.bridge.call('api.request', { method: 'GET', uri, body: null });
  }
  post(uri: string, body: unknown): Promise<unknown> {
    return this.bridge.call('api.request', { method: 'POST', uri, body: body ?? null });
  }
  put(uri: string, body: unknown): Promise<unknown> {
    return this.bridge.call('api.request', { method: 'PUT', uri, body: body ?? null });
  }
  delete(uri: string): Promise<unknown> {
    return this.bridge.call('api.request', { method: 'DELETE', uri, body: null });
  }

  /** Publishes `event` with `data` to clients subscribed to `homey:app:<appId>` (the app's settings page, widgets). */
  async realtime(event: string, data: unknown): Promise<void> {
    await this.bridge.call('api.realtime', { event, data: data ?? null });
  }

  /** The web API at `uri`: `homey:manager:<name>` or `homey:app:<appId>`. */
  getApi(uri: string): Api {
    if (!/^homey:(manager|app):[^:]+$/.test(uri)) throw new Error(`Invalid API uri: ${uri}`);
    let api = this.#apis.get(uri);
    if (!api) {
      api = uri.startsWith('homey:app:')
        ? new ApiApp(uri, this.bridge, (a) => this.unregisterApi(a))
        : new Api(uri, this.bridge, (a) => this.unregisterApi(a));
      this.#apis.set(uri, api);
    }
    return api;
  }

  hasApi(uri: string): boolean {
    return this.#apis.has(uri);
  }

  getApiApp(appId: string): ApiApp {
    return this.getApi(`homey:app:${appId}`) as ApiApp;
  }

  hasApiApp(appId: string): boolean {
    return this.hasApi(`homey:app:${appId}`);
  }

  unregisterApi(api: Api): void {
    this.#apis.delete(api.uri);
  }

  /** A token of the hub's owner, to call the hub's web API from outside the app (needs `homey:manager:api`). */
  getOwnerApiToken(): Promise<string> {
    return this.bridge.call('api.getOwnerApiToken', {});
  }

  /** The hub's address on the local network, e.g. `http://192.168.1.20`. */
  async getLocalUrl(): Promise<string> {
    return this.bridge.init.localUrl;
  }
}
