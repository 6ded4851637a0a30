import { type CloudAPIOptions, type CloudToken, CloudAPI as CoreCloudAPI } from './cloud/CloudAPI';
import type { Platform } from './core/platform';
import { type WebStorage, WebStorageAdapter } from './core/storage';
import { HubAPI as CoreHubAPI, type HubAPIOptions } from './hub/HubAPI';
import { openSocket, type WebSocketConstructor } from './hub/socket';

export * from './core';

interface BrowserGlobals {
  localStorage: WebStorage;
  location: { href: string; assign(url: string): void };
  history: { replaceState(data: unknown, unused: string, url?: string): void; state: unknown };
}

const browser = globalThis as unknown as BrowserGlobals;

/** Browsers: fetch, Web Crypto (PKCE), the realtime socket over the browser's WebSocket, `localStorage` under `homey-api`. */
export const browserPlatform: Platform = {
  fetch: (input, init) => globalThis.fetch(input, init),
  socket: (url, options) => openSocket(url, options, globalThis.WebSocket as unknown as WebSocketConstructor),
  createStore: () => new WebStorageAdapter(browser.localStorage),
  // Typed for lib.dom too, whose Web Crypto takes only ArrayBuffer-backed views.
  sha256: (data) => globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>),
  randomBytes: (length) => globalThis.crypto.getRandomValues(new Uint8Array(length)),
  pkce: true,
};

/** The cloud client for browsers: PKCE sign-in, and the returned `code` read from (and removed from) the address. */
export class CloudAPI extends CoreCloudAPI {
  constructor(options: CloudAPIOptions = {}) {
    super({ ...options, platform: browserPlatform });
  }

  /** The `code` the sign-in page returned in the address, if any. */
  getAuthorizationCode(): string | null {
    return new URL(browser.location.href).searchParams.get('code');
  }

  hasAuthorizationCode(): boolean {
    return this.getAuthorizationCode() !== null;
  }

  /** Sends the browser to the sign-in page. */
  async login(options: { state?: string; scopes?: string[] } = {}): Promise<void> {
    browser.location.assign(await this.getLoginUrl(options));
  }

  /**
   * Exchanges the `code` (by default the one in the address) for a token, and removes `code` and `state`
   * from the address bar history so a reload or a shared link never replays it.
   */
  override async authenticateWithAuthorizationCode(options: { code?: string } = {}): Promise<CloudToken> {
    const code = options.code ?? this.getAuthorizationCode();
    const url = new URL(browser.location.href);
    if (url.searchParams.has('code')) {
      url.searchParams.delete('code');
      url.searchParams.delete('state');
      browser.history.replaceState(browser.history.state, '', url.toString());
    }
    return super.authenticateWithAuthorizationCode({ code: code ?? '' });
  }
}

/** A hub client for browsers. */
export class HubAPI extends CoreHubAPI {
  constructor(options: HubAPIOptions) {
    super({ ...options, platform: browserPlatform });
  }

  static local(options: { address: string; token: string; timeout?: number }): Promise<CoreHubAPI> {
    return CoreHubAPI.connectLocal(options, browserPlatform);
  }
}
