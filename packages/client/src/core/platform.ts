import type { StorageAdapter } from './storage';
import type { Fetch } from './transport';

/** The options of a socket the realtime client opens; a subset of socket.io-client's. */
export interface SocketOptions {
  transports: string[];
  path: string;
  reconnection: boolean;
  reconnectionDelay: number;
  reconnectionDelayMax: number;
  randomizationFactor: number;
  timeout: number;
  autoConnect: boolean;
}

/** The parts of a socket.io client socket the library uses. */
export interface ClientSocket {
  readonly connected: boolean;
  readonly io: SocketManager;
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event?: string, listener?: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export interface SocketManager {
  socket(namespace: string): ClientSocket;
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event?: string, listener?: (...args: never[]) => void): unknown;
}

/**
 * Opens a socket.io connection to `url` (the root namespace). Browsers load socket.io-client on first use, so
 * the factory may answer a promise.
 */
export type SocketFactory = (url: string, options: SocketOptions) => ClientSocket | Promise<ClientSocket>;

/** An mDNS resolver (Node only): answers the IPv4 address of `host` (`homey-<id>.local`) or throws. */
export type MdnsResolve = (host: string, timeout: number) => Promise<string>;

/** Everything platform-specific, injected by the Node and browser entry points. */
export interface Platform {
  fetch: Fetch;
  socket: SocketFactory;
  /** Creates the default store when the caller gives none. */
  createStore(): StorageAdapter;
  /** SHA-256 for PKCE; absent where no Web Crypto exists. */
  sha256?(data: Uint8Array): Promise<ArrayBuffer>;
  randomBytes(length: number): Uint8Array;
  /** Whether sign-in uses PKCE (browsers: public clients). */
  pkce: boolean;
  mdns?: MdnsResolve;
}
