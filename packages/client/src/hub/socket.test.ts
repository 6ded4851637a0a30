import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { ClientSocket, SocketOptions } from '../core/platform';
import { openSocket, type WebSocketConstructor } from './socket';

const options: SocketOptions = {
  transports: ['websocket'],
  path: '/socket.io/',
  reconnection: true,
  reconnectionDelay: 100,
  reconnectionDelayMax: 10_000,
  randomizationFactor: 0.5,
  timeout: 5_000,
  autoConnect: false,
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(server: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A real socket.io server (the library the hub serves with), on a free port. */
async function startSocketIo(serverOptions: { pingInterval?: number; pingTimeout?: number } = {}) {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'], ...serverOptions });
  const url = await listen(http);
  cleanups.push(() => new Promise((resolve) => io.close(() => resolve(undefined))));
  return { io, url };
}

function open(url: string, overrides: Partial<SocketOptions> = {}): ClientSocket {
  const socket = openSocket(url, { ...options, ...overrides }, WebSocket as unknown as WebSocketConstructor);
  cleanups.push(() => socket.disconnect());
  return socket;
}

const next = (socket: ClientSocket, event: string) =>
  new Promise<unknown[]>((resolve) => socket.once(event, (...args: unknown[]) => resolve(args)));

describe('the realtime socket against a real socket.io server', () => {
  it('connects namespaces over one connection and carries events and acknowledgements both ways', async () => {
    const { io, url } = await startSocketIo();
    const engines = new Set<object>();
    io.on('connection', (socket) => {
      engines.add(socket.conn);
      socket.on('double', (value: number, ack: (error: null, result: number) => void) => ack(null, value * 2));
    });
    io.of('/api').on('connection', (socket) => {
      engines.add(socket.conn);
      socket.emit('homey:manager:zones', 'zone.update', { id: 'z1' });
      socket.on('ask', (ack: (answer: string) => void) => ack('answered'));
    });
    const root = open(url);
    const connected = next(root, 'connect');
    root.connect();
    await connected;
    const doubled = await new Promise((resolve) => root.emit('double', 21, (_error: unknown, result: number) => resolve(result)));
    expect(doubled).toBe(42);

    const api = root.io.socket('/api');
    const event = next(api, 'homey:manager:zones');
    api.connect();
    expect(await event).toEqual(['zone.update', { id: 'z1' }]);
    expect(await new Promise((resolve) => api.emit('ask', resolve))).toBe('answered');
    expect(engines.size).toBe(1);
  });

  it('reports a namespace the server refuses as a connect error, and closes a connection nothing uses', async () => {
    const { io, url } = await startSocketIo();
    const root = open(url);
    const connected = next(root, 'connect');
    root.connect();
    await connected;
    const unknown = root.io.socket('/unknown');
    const refused = next(unknown, 'connect_error');
    unknown.connect();
    expect(((await refused)[0] as Error).message).toBe('Invalid namespace');
    expect(unknown.connected).toBe(false);
    root.disconnect();
    while (io.engine.clientsCount > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(io.engine.clientsCount).toBe(0);
  });

  it('answers the server’s heartbeat, so the connection outlives its ping timeout', async () => {
    // Short enough that a client that never answered would be dropped twice over within the wait below.
    const { io, url } = await startSocketIo({ pingInterval: 100, pingTimeout: 400 });
    const root = open(url);
    const connected = next(root, 'connect');
    root.connect();
    await connected;
    const dropped: unknown[] = [];
    root.on('disconnect', (reason: unknown) => dropped.push(reason));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(dropped).toEqual([]);
    expect(root.connected).toBe(true);
    expect(io.sockets.sockets.size).toBe(1);
  });

  it('tells a disconnect by the server apart and stays closed until asked; closes the connection with its last namespace', async () => {
    const { io, url } = await startSocketIo();
    io.on('connection', (socket) => socket.on('leave', () => socket.disconnect()));
    const root = open(url);
    const connected = next(root, 'connect');
    root.connect();
    await connected;
    const disconnected = next(root, 'disconnect');
    root.emit('leave');
    expect(await disconnected).toEqual(['io server disconnect']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(root.connected).toBe(false);
    expect(io.engine.clientsCount).toBe(0);

    const again = next(root, 'connect');
    root.connect();
    await again;
    expect(root.connected).toBe(true);
  });

  it('reconnects after the server restarts and connects its namespaces again', async () => {
    const http = createServer();
    const url = await listen(http);
    const port = Number(new URL(url).port);
    // The client's namespaces must exist on the server, or it refuses them (CONNECT_ERROR).
    const serve = (server: HttpServer) => {
      const io = new Server(server, { transports: ['websocket'] });
      io.of('/api');
      return io;
    };
    let io = serve(http);
    const root = open(url);
    const api = root.io.socket('/api');
    const connected = next(api, 'connect');
    root.connect();
    api.connect();
    await connected;

    const dropped = next(api, 'disconnect');
    io.close();
    expect(await dropped).toEqual(['transport close']);
    const http2 = createServer();
    await new Promise<void>((resolve) => http2.listen(port, '127.0.0.1', resolve));
    io = serve(http2);
    cleanups.push(() => new Promise((resolve) => io.close(() => resolve(undefined))));
    const back = next(api, 'connect');
    await back;
    expect(root.connected).toBe(true);
    expect(api.connected).toBe(true);
  });
});

describe('the realtime socket against a bare WebSocket server', () => {
  /** A WebSocket server that plays the server's side of Engine.IO by hand, to misbehave on purpose. */
  async function startBare(onConnection: (ws: WebSocket) => void) {
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    const attempts: number[] = [];
    wss.on('connection', (ws) => {
      attempts.push(performance.now());
      onConnection(ws);
    });
    const url = await listen(http);
    cleanups.push(
      () =>
        new Promise((resolve) => {
          for (const client of wss.clients) client.terminate();
          wss.close(() => http.close(() => resolve(undefined)));
        }),
    );
    return { url, attempts };
  }

  const openPacket = (pingInterval: number, pingTimeout: number) =>
    `0${JSON.stringify({ sid: 'bare', upgrades: [], pingInterval, pingTimeout, maxPayload: 1e6 })}`;

  it('drops a connection whose server stops pinging (ping timeout) and reconnects', async () => {
    const { url, attempts } = await startBare((ws) => {
      ws.send(openPacket(50, 50));
      ws.on('message', (data) => {
        if (String(data) === '40') ws.send('40{"sid":"ns"}');
      });
    });
    const root = open(url);
    const connected = next(root, 'connect');
    root.connect();
    await connected;
    expect(await next(root, 'disconnect')).toEqual(['ping timeout']);
    await next(root, 'connect');
    expect(attempts.length).toBe(2);
  });

  it('drops the connection on a frame it cannot parse: a broken socket.io packet, no Engine.IO packet, binary', async () => {
    for (const garbage of ['42["unterminated"', 'x', Buffer.from([1, 2, 3])]) {
      const { url } = await startBare((ws) => {
        ws.send(openPacket(25_000, 20_000));
        ws.on('message', (data) => {
          if (String(data) === '40') ws.send('40{"sid":"ns"}');
          else ws.send(garbage);
        });
      });
      const root = open(url, { reconnection: false });
      const connected = next(root, 'connect');
      root.connect();
      await connected;
      root.emit('anything');
      expect(await next(root, 'disconnect')).toEqual(['parse error']);
    }
  });

  it('waits longer before each new attempt, doubling from 100 ms up to the maximum', async () => {
    // A server that accepts the WebSocket and closes it at once: every attempt fails.
    const { url, attempts } = await startBare((ws) => ws.close());
    const root = open(url, { randomizationFactor: 0, reconnectionDelayMax: 400 });
    const errors: unknown[] = [];
    root.on('connect_error', (error: unknown) => errors.push(error));
    root.connect();
    while (attempts.length < 6) await new Promise((resolve) => setTimeout(resolve, 20));
    root.disconnect();
    const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] as number));
    // Timers never fire early: each gap is at least its delay (100, 200, 400, then the 400 ms maximum).
    const delays = [100, 200, 400, 400, 400];
    for (const [i, delay] of delays.entries()) expect(gaps[i]).toBeGreaterThanOrEqual(delay - 5);
    // And the maximum holds: the fifth wait is far from the 1600 ms an uncapped doubling would take.
    expect(gaps[4]).toBeLessThan(1_500);
    expect(errors.length).toBeGreaterThanOrEqual(5);
  });

  it('closes a WebSocket still connecting when it is given up, without an error escaping', async () => {
    // An HTTP server that never answers the upgrade: the WebSocket stays connecting.
    const http = createServer();
    const upgrades: Duplex[] = [];
    http.on('upgrade', (_request, socket: Duplex) => upgrades.push(socket));
    const url = await listen(http);
    cleanups.push(() => {
      for (const socket of upgrades) socket.destroy();
      return new Promise((resolve) => http.close(resolve));
    });
    const root = open(url, { reconnection: false, timeout: 100 });
    const failed = next(root, 'connect_error');
    root.connect();
    expect(((await failed)[0] as Error).message).toBe('timeout');
    const second = open(url);
    second.connect();
    second.disconnect();
    // An error the closed sockets raised now would fail this test as an uncaught exception.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second.connected).toBe(false);
  });

  it('gives up an attempt the server never answers after the connect timeout', async () => {
    const { url } = await startBare(() => {});
    const root = open(url, { reconnection: false, timeout: 200 });
    const failed = next(root, 'connect_error');
    root.connect();
    const [error] = await failed;
    expect((error as Error).message).toBe('timeout');
  });
});
