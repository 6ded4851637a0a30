import type { PreparedRequest } from '@hearth/contract/client';
import { type CloudAPIOptions, type CloudToken, CloudAPI as CoreCloudAPI } from './cloud/CloudAPI';
import { APIError, errorFor } from './core/errors';
import type { Platform } from './core/platform';
import { type StorageAdapter, type StoredState, type WebStorage, WebStorageAdapter } from './core/storage';
import { errorMessage } from './core/transport';
import { HubAPI as CoreHubAPI, type HubAPIOptions } from './hub/HubAPI';
import { openSocket, type WebSocketConstructor } from './hub/socket';

export * from './core';

interface BrowserGlobals {
  localStorage: WebStorage;
  sessionStorage: WebStorage;
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

  /**
   * Sends `body` (a file, a form) as the body of a prepared POST, reporting upload progress. Address, token, one
   * refresh on a 401 `invalid_token` and errors are as for every call; answers the decoded JSON answer.
   */
  async upload(
    request: PreparedRequest,
    body: Blob | FormData,
    onProgress: (fraction: number) => void,
    contentType?: string,
  ): Promise<unknown> {
    const { owner } = request.operation;
    const search = Object.keys(request.query).length > 0 ? `?${new URLSearchParams(request.query)}` : '';
    const url = `${this.baseUrlOf(owner.kind === 'cloud' ? owner.service : 'cloud')}${request.path}${search}`;
    const first = await this.getToken();
    let answer = await sendWithProgress(url, first?.access_token, body, onProgress, contentType);
    if (
      answer.status === 401 &&
      this.autoRefreshTokens &&
      first?.refresh_token &&
      (answer.body as { error?: unknown } | undefined)?.error === 'invalid_token'
    ) {
      // Another call may already have refreshed: then just retry with the new token.
      const current = await this.getToken();
      const token = current && current.access_token !== first.access_token ? current : await this.refreshToken();
      answer = await sendWithProgress(url, token.access_token, body, onProgress, contentType);
    }
    if (answer.status >= 200 && answer.status < 300) {
      onProgress(1);
      return answer.body;
    }
    const code = (answer.body as { error?: unknown } | undefined)?.error;
    throw errorFor(answer.status, errorMessage(answer.body, answer.statusText), typeof code === 'string' ? code : undefined);
  }
}

const readJson = (storage: WebStorage, key: string): unknown => {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
};

/**
 * A page's store: the token in local storage under `tokenKey` (a reload and the page's other tabs stay signed in;
 * their `storage` events tell them of a sign-in or sign-out), the rest of the client's state (the PKCE verifier)
 * in session storage under `sessionKey`, as it only lives across the trip to the sign-in page.
 */
export function pageStore(tokenKey: string, sessionKey: string): StorageAdapter {
  return {
    get(): StoredState {
      const token = readJson(browser.localStorage, tokenKey) as { access_token?: unknown } | null;
      const rest = readJson(browser.sessionStorage, sessionKey);
      return {
        ...(rest && typeof rest === 'object' ? (rest as StoredState) : {}),
        ...(typeof token?.access_token === 'string' ? { token } : {}),
      };
    },
    set({ token, ...rest }: StoredState): void {
      if (token) browser.localStorage.setItem(tokenKey, JSON.stringify(token));
      else browser.localStorage.removeItem(tokenKey);
      if (Object.keys(rest).length > 0) browser.sessionStorage.setItem(sessionKey, JSON.stringify(rest));
      else browser.sessionStorage.removeItem(sessionKey);
    },
  };
}

/** What of the browser's XMLHttpRequest an upload uses (the client's core has no DOM types). */
interface ProgressRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: unknown): void;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  readonly status: number;
  readonly statusText: string;
  readonly responseText: string;
}

/** One request by XMLHttpRequest, which reports upload progress (fetch does not); answers the decoded JSON. */
function sendWithProgress(
  url: string,
  accessToken: string | undefined,
  body: Blob | FormData,
  onProgress: (fraction: number) => void,
  contentType: string | undefined,
): Promise<{ status: number; statusText: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new (globalThis as unknown as { XMLHttpRequest: new () => ProgressRequest }).XMLHttpRequest();
    xhr.open('POST', url);
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    if (contentType) xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let decoded: unknown;
      try {
        decoded = JSON.parse(xhr.responseText);
      } catch {
        decoded = undefined;
      }
      resolve({ status: xhr.status, statusText: xhr.statusText, body: decoded });
    };
    xhr.onerror = () => reject(new APIError('Network error', 0, 'network_error'));
    xhr.send(body);
  });
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
