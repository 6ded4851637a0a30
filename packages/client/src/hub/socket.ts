import { decodePacket, type Packet as EnginePacket, encodePacket } from 'engine.io-parser';
import { Emitter } from '../core/emitter';
import type { ClientSocket, SocketListener as Listener, SocketManager, SocketOptions } from '../core/platform';
import {
  decodePacket as decodeSocketPacket,
  encodePacket as encodeSocketPacket,
  type Packet,
  PacketType,
} from './socket-packets';

/** What the connection needs of a WebSocket: the browser's own, or `ws` in Node. */
export interface WebSocketLike {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
  send(data: string): void;
  close(): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * One socket.io connection (Engine.IO v4 over a WebSocket) carrying any number of namespaces: the hub's
 * realtime protocol: Engine.IO framing by engine.io-parser, socket.io's text packets by ./socket-packets. It does
 * what the client uses of socket.io-client and no more, which keeps browsers' download small: websocket
 * transport only, JSON packets (the hub sends no binary), acknowledgements, the server's heartbeat, and
 * reconnection with exponential backoff, after which every namespace still in use connects again.
 *
 * Socket events as socket.io-client names them: `connect`, `connect_error`, `disconnect` (reasons
 * `io server disconnect`, `io client disconnect`, `transport close`, `ping timeout`, `parse error`).
 */
class Connection implements SocketManager {
  readonly #url: string;
  readonly #options: SocketOptions;
  readonly #WebSocket: WebSocketConstructor;
  readonly #namespaces = new Map<string, NamespaceSocket>();
  #ws: WebSocketLike | null = null;
  /** Whether the server's Engine.IO `open` packet arrived on the current WebSocket. */
  #open = false;
  #attempts = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
  #connectTimer: ReturnType<typeof setTimeout> | undefined;
  #heartbeatMs = 0;

  constructor(url: string, options: SocketOptions, WebSocket: WebSocketConstructor) {
    this.#url = url;
    this.#options = options;
    this.#WebSocket = WebSocket;
  }

  socket(namespace: string): NamespaceSocket {
    let socket = this.#namespaces.get(namespace);
    if (!socket) {
      socket = new NamespaceSocket(this, namespace);
      this.#namespaces.set(namespace, socket);
    }
    return socket;
  }

  /** Opens the WebSocket unless it is open, opening or waiting to reconnect. */
  open(): void {
    if (this.#ws || this.#reconnectTimer) return;
    const address = new URL(this.#options.path, this.#url.replace(/^http/, 'ws'));
    address.searchParams.set('EIO', '4');
    address.searchParams.set('transport', 'websocket');
    let ws: WebSocketLike;
    try {
      ws = new this.#WebSocket(address.href);
    } catch (error) {
      this.#closed(new Error((error as Error).message));
      return;
    }
    this.#ws = ws;
    this.#connectTimer = setTimeout(() => this.#drop('timeout'), this.#options.timeout);
    ws.onmessage = ({ data }) => {
      // Text frames only: the hub sends no binary, and a binary frame is no packet the client could read.
      try {
        if (typeof data !== 'string') throw new Error('binary frame');
        this.#receive(data);
      } catch {
        this.#drop('parse error');
      }
    };
    ws.onclose = () => this.#drop('transport close');
    ws.onerror = () => this.#drop('websocket error');
  }

  /** Sends a socket.io packet (dropped while not connected, as the client's calls time out on their own). */
  send(packet: Packet): void {
    if (!this.#open) return;
    this.#sendEngine({ type: 'message', data: encodeSocketPacket(packet) });
  }

  #sendEngine(packet: EnginePacket): void {
    encodePacket(packet, false, (encoded) => this.#ws?.send(encoded as string));
  }

  #receive(text: string): void {
    const packet = decodePacket(text);
    switch (packet.type) {
      case 'open': {
        clearTimeout(this.#connectTimer);
        const { pingInterval, pingTimeout } = JSON.parse(packet.data as string) as { pingInterval: number; pingTimeout: number };
        this.#heartbeatMs = pingInterval + pingTimeout;
        this.#open = true;
        this.#attempts = 0;
        this.#heartbeat();
        for (const socket of this.#namespaces.values()) if (socket.active) socket.sendConnect();
        return;
      }
      case 'ping':
        this.#heartbeat();
        this.#sendEngine({ type: 'pong' });
        return;
      case 'message': {
        const message = decodeSocketPacket(packet.data as string);
        this.#namespaces.get(message.nsp)?.receive(message);
        return;
      }
      case 'close':
        this.#drop('transport close');
        return;
      case 'error':
        throw new Error('not an Engine.IO packet');
    }
  }

  /** The server must ping within its interval plus its timeout, or the connection is gone. */
  #heartbeat(): void {
    clearTimeout(this.#heartbeatTimer);
    this.#heartbeatTimer = setTimeout(() => this.#drop('ping timeout'), this.#heartbeatMs);
  }

  /** Closes the WebSocket after a failure and reconnects if anything still uses the connection. */
  #drop(reason: string): void {
    if (!this.#ws) return;
    const wasOpen = this.#open;
    this.#closeSocket();
    if (wasOpen) for (const socket of this.#namespaces.values()) socket.dropped(reason);
    this.#closed(wasOpen ? null : new Error(reason === 'timeout' ? 'timeout' : 'websocket error'));
  }

  #closed(connectError: Error | null): void {
    if (connectError) for (const socket of this.#namespaces.values()) if (socket.active) socket.failed(connectError);
    if (!this.#options.reconnection || !this.#inUse) return;
    const { reconnectionDelay, reconnectionDelayMax, randomizationFactor } = this.#options;
    // Exponential backoff, factor 2, spread by the randomization factor so many clients do not return at once.
    const base = Math.min(reconnectionDelayMax, reconnectionDelay * 2 ** this.#attempts);
    const delay = Math.min(reconnectionDelayMax, base * (1 + randomizationFactor * (Math.random() * 2 - 1)));
    this.#attempts += 1;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.open();
    }, delay);
  }

  #closeSocket(): void {
    const ws = this.#ws;
    this.#ws = null;
    this.#open = false;
    clearTimeout(this.#connectTimer);
    clearTimeout(this.#heartbeatTimer);
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    // Closing a WebSocket still connecting fails it with an error event, which `ws` in Node would throw
    // without a listener: this one swallows what no longer matters.
    ws.onerror = () => {};
    ws.close();
  }

  /** A namespace was disconnected by the client: when none is in use, the connection closes for good. */
  released(): void {
    if (this.#inUse) return;
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    this.#closeSocket();
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Whether any namespace is wanted connected: only then does the connection reconnect or stay open. */
  get #inUse(): boolean {
    for (const socket of this.#namespaces.values()) if (socket.active) return true;
    return false;
  }
}

/** One namespace of a {@link Connection}, with socket.io-client's socket interface. */
class NamespaceSocket implements ClientSocket {
  readonly io: Connection;
  readonly #namespace: string;
  #events = new Emitter();
  readonly #acks = new Map<number, Listener>();
  #nextAckId = 0;
  #connected = false;
  /** Whether the client wants this namespace connected (it is connected again after a reconnect). */
  active = false;

  constructor(io: Connection, namespace: string) {
    this.io = io;
    this.#namespace = namespace;
  }

  get connected(): boolean {
    return this.#connected;
  }

  on(event: string, listener: Listener): this {
    this.#events.on(event, listener);
    return this;
  }

  once(event: string, listener: Listener): this {
    this.#events.once(event, listener);
    return this;
  }

  /** Removes `listener`, every listener of `event`, or, without arguments, every listener. */
  off(event?: string, listener?: Listener): this {
    if (event) this.#events.off(event, listener);
    else this.#events = new Emitter();
    return this;
  }

  /** Sends `event` with `args`; a function as the last argument receives the server's acknowledgement. */
  emit(event: string, ...args: unknown[]): this {
    const data = [event, ...args];
    const packet: Packet = { type: PacketType.EVENT, nsp: this.#namespace, data };
    const ack = args.at(-1);
    if (typeof ack === 'function') {
      data.pop();
      packet.id = this.#nextAckId++;
      this.#acks.set(packet.id, ack as Listener);
    }
    this.io.send(packet);
    return this;
  }

  connect(): this {
    if (this.#connected) return this;
    this.active = true;
    if (this.io.isOpen) this.sendConnect();
    else this.io.open();
    return this;
  }

  disconnect(): this {
    if (this.#connected) this.io.send({ type: PacketType.DISCONNECT, nsp: this.#namespace });
    this.active = false;
    this.#acks.clear();
    if (this.#connected) {
      this.#connected = false;
      this.#events.emit('disconnect', 'io client disconnect');
    }
    this.io.released();
    return this;
  }

  sendConnect(): void {
    this.io.send({ type: PacketType.CONNECT, nsp: this.#namespace });
  }

  receive(packet: Packet): void {
    switch (packet.type) {
      case PacketType.CONNECT:
        this.#connected = true;
        this.#events.emit('connect');
        return;
      case PacketType.CONNECT_ERROR:
        this.active = false;
        this.failed(new Error((packet.data as { message?: string } | undefined)?.message ?? 'connection refused'));
        this.io.released();
        return;
      case PacketType.EVENT: {
        const [event, ...args] = packet.data as [string, ...unknown[]];
        const { id } = packet;
        if (id !== undefined) {
          let answered = false;
          args.push((...answer: unknown[]) => {
            if (answered) return;
            answered = true;
            this.io.send({ type: PacketType.ACK, nsp: this.#namespace, id, data: answer });
          });
        }
        this.#events.emit(event, ...args);
        return;
      }
      case PacketType.ACK: {
        const ack = this.#acks.get(packet.id as number);
        this.#acks.delete(packet.id as number);
        ack?.(...(packet.data as unknown[]));
        return;
      }
      case PacketType.DISCONNECT:
        this.active = false;
        this.dropped('io server disconnect');
        this.io.released();
        return;
    }
  }

  /** The connection under this namespace is gone (or the server closed the namespace). */
  dropped(reason: string): void {
    this.#acks.clear();
    if (!this.#connected) return;
    this.#connected = false;
    this.#events.emit('disconnect', reason);
  }

  failed(error: Error): void {
    this.#events.emit('connect_error', error);
  }
}

/**
 * Opens the root namespace of a socket.io connection to `url` (as socket.io-client's `io(url, options)`):
 * connects now unless `autoConnect` is false.
 */
export function openSocket(url: string, options: SocketOptions, WebSocket: WebSocketConstructor): ClientSocket {
  const socket = new Connection(url, options, WebSocket).socket('/');
  if (options.autoConnect) socket.connect();
  return socket;
}
