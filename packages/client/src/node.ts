import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import { type CloudAPIOptions, CloudAPI as CoreCloudAPI } from './cloud/CloudAPI';
import type { Platform } from './core/platform';
import { MemoryStorageAdapter } from './core/storage';
import { HubAPI as CoreHubAPI, type HubAPIOptions } from './hub/HubAPI';
import { openSocket, type WebSocketConstructor } from './hub/socket';
import { resolveMdns } from './mdns';

export * from './core';

/** Node: global fetch and Web Crypto, the realtime socket over `ws`, an in-memory store, mDNS lookups. */
export const nodePlatform: Platform = {
  fetch: (input, init) => globalThis.fetch(input, init),
  socket: (url, options) => openSocket(url, options, WebSocket as unknown as WebSocketConstructor),
  createStore: () => new MemoryStorageAdapter(),
  // Typed for lib.dom too (code compiled with it imports this entry), whose Web Crypto takes only ArrayBuffer-backed views.
  sha256: (data) => globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>),
  randomBytes: (length) => globalThis.crypto.getRandomValues(new Uint8Array(length)),
  pkce: false,
  mdns: resolveMdns,
  trusting: (ca) => {
    // undici's own fetch with an agent that verifies against `ca` (Node's global fetch takes no CA).
    const dispatcher = new Agent({ connect: { ca } });
    const TrustingWebSocket = class extends WebSocket {
      constructor(url: string) {
        super(url, { ca });
      }
    };
    return {
      fetch: ((input, init) => undiciFetch(input as string, { ...(init as object), dispatcher })) as typeof fetch,
      socket: (url, options) => openSocket(url, options, TrustingWebSocket as unknown as WebSocketConstructor),
    };
  },
};

/** The cloud client for Node (memory token store unless given one). */
export class CloudAPI extends CoreCloudAPI {
  constructor(options: CloudAPIOptions = {}) {
    super({ ...options, platform: nodePlatform });
  }
}

/** A hub client for Node. */
export class HubAPI extends CoreHubAPI {
  constructor(options: HubAPIOptions) {
    super({ ...options, platform: nodePlatform });
  }

  /** A client for a hub at a known address with a token; checks the address answers as a hub. */
  static local(options: {
    address: string;
    token: string;
    timeout?: number;
    debug?: (line: string) => void;
  }): Promise<CoreHubAPI> {
    return CoreHubAPI.connectLocal(options, nodePlatform);
  }
}
