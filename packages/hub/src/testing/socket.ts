import { Manager, type ManagerOptions, type Socket } from 'socket.io-client';
import type { TestHub } from './hub';

/** Emits `event` with an acknowledgement, as the ecosystem's client does; answers the acknowledgement's arguments. */
export const ack = (socket: Socket, event: string, ...args: unknown[]) =>
  new Promise<unknown[]>((resolve) => socket.emit(event, ...args, (...answer: unknown[]) => resolve(answer)));

/** Resolves once `socket` is connected (at once if it already is); rejects with the error if the connection fails. */
export const connected = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (socket.connected) resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

/** A client connected to a test hub's realtime socket, handshaken and joined to `/api`. */
export interface Realtime {
  manager: Manager;
  root: Socket;
  api: Socket;
  /** The acknowledgement of `handshakeClient`: `[null, result]`, since a refusal throws. */
  handshake: unknown[];
  close(): void;
}

/**
 * Connects like the ecosystem's client: `handshakeClient` with `token` on `/`, then `/api` on the same connection
 * without a token. Throws if the handshake is refused, naming the hub's error, so a test fails at its cause.
 * `options` override the Manager's (no reconnection by default, so a dropped hub does not keep the test busy).
 */
export async function connectRealtime(t: TestHub, token = t.token, options: Partial<ManagerOptions> = {}): Promise<Realtime> {
  const manager = new Manager(t.url, { path: '/socket.io/', transports: ['websocket'], reconnection: false, ...options });
  const root = manager.socket('/');
  let api: Socket | undefined;
  const close = () => {
    api?.close();
    root.close();
  };
  try {
    await connected(root);
    const handshake = await ack(root, 'handshakeClient', { token, homeyId: t.hub.context.config.id });
    if (handshake[0] != null) throw new Error(`handshakeClient refused: ${JSON.stringify(handshake[0])}`);
    // `/api` joins only after the handshake, as the ecosystem's client does (its sockets connect when created).
    api = manager.socket('/api');
    await connected(api);
    return { manager, root, api, handshake, close };
  } catch (error) {
    close();
    throw error;
  }
}
