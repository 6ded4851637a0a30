import { EventEmitter } from 'node:events';
import type { AppBridge } from '../internal/bridge';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The web API of a hub manager (`homey:manager:<name>`) or of another app (see {@link ApiApp}), from
 * `this.homey.api.getApi(uri)`. Paths are relative to it: `getApi('homey:manager:devices').get('/device')`.
 * Calls need the `homey:manager:api` permission (other apps' APIs also need that app to allow them).
 */
export class Api extends EventEmitter {
  readonly type: string;
  readonly id: string;

  constructor(
    readonly uri: string,
    protected readonly bridge: AppBridge,
    private readonly onUnregister: (api: Api) => void,
  ) {
    super();
    const [, type = '', ...rest] = uri.split(':');
    this.type = type;
    this.id = rest.join(':');
  }

  get(path: string): Promise<unknown> {
    return this.request('GET', path);
  }
  post(path: string, body: unknown): Promise<unknown> {
    return this.request('POST', path, body);
  }
  put(path: string, body: unknown): Promise<unknown> {
    return this.request('PUT', path, body);
  }
  delete(path: string): Promise<unknown> {
    return this.request('DELETE', path);
  }

  unregister(): void {
    this.onUnregister(this);
  }

  /** The path under `/api` this API's paths hang from. */
  protected get base(): string {
    return this.type === 'app' ? `/app/${this.id}` : `/manager/${this.id}`;
  }

  protected request(method: Method, path: string, body: unknown = null): Promise<unknown> {
    const suffix = path.startsWith('/') ? path : `/${path}`;
    return this.bridge.call('api.request', { method, uri: `${this.base}${suffix}`, body });
  }
}

/** Another app's web API (`homey:app:<appId>`), from `this.homey.api.getApiApp(appId)`. */
export class ApiApp extends Api {
  /** Whether that app is installed on this hub. */
  getInstalled(): Promise<boolean> {
    return this.bridge.call('apps.getInstalled', { appId: this.id });
  }

  /** That app's installed version, or `null`. */
  async getVersion(): Promise<string> {
    return (await this.bridge.call('apps.getVersion', { appId: this.id })) ?? '';
  }
}
