import type { StorageAdapter } from './storage';
import type { Fetch } from './transport';

/** The options of a socket the realtime client opens (named as socket.io-client names them). */
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

// biome-ignore lint/suspicious/noExplicitAny: socket events carry whatever the server sent
export type SocketListener = (...args: any[]) => void;

/** A namespace of a socket.io connection, as the realtime client uses it (socket.io-client's interface). */
export interface ClientSocket {
  readonly connected: boolean;
  readonly io: SocketManager;
  on(event: string, listener: SocketListener): unknown;
  once(event: string, listener: SocketListener): unknown;
  /** Removes `listener`, every listener of `event`, or, without arguments, every listener. */
  off(event?: string, listener?: SocketListener): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

/** The connection under the namespaces: answers the socket of another namespace on it. */
export interface SocketManager {
  socket(namespace: string): ClientSocket;
}

/** Opens a socket.io connection to `url` (its root namespace); a custom factory may answer a promise. */
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
  /**
   * HTTP and the realtime socket trusting `ca` (PEM) for a hub's local secure address (`localUrlSecure`), whose
   * certificate the cloud's CA signed. Node only: a browser trusts what its system trusts.
   */
  trusting?(ca: string): Pick<Platform, 'fetch' | 'socket'>;
}
