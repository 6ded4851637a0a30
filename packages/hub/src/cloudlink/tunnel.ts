import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Duplex, Writable } from 'node:stream';
import {
  type FrameSink,
  type OpenRequest,
  peerProtocol,
  socketSink,
  TUNNEL_PATH,
  TUNNEL_PROTOCOL,
  TUNNEL_PROTOCOL_HEADER,
  type TunnelChannel,
  TunnelSession,
  TunnelStream,
} from '@hearth/contract/relay';
import WebSocket from 'ws';
import type { CloudLink } from './client';
import { markCloudConnection } from './connect-calls';
import { connectionPair } from './connection-pair';
import { dispatchRelayed, relayedSocket } from './relayed-request';

export interface TunnelOptions {
  /** First reconnect delay; each failure doubles it up to `maxDelayMs`, each delay drawn from its upper half. */
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  /** How often the hub pings the cloud; a ping unanswered by the next one ends the tunnel (it reconnects). */
  readonly heartbeatMs?: number;
}

interface Logger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export interface Tunnel {
  /** Whether the tunnel is up now. */
  connected(): boolean;
  /** Resolves when the tunnel is next up (at once when it is). */
  whenConnected(): Promise<void>;
  /** Closes the tunnel and stops reconnecting. */
  stop(): Promise<void>;
}

/**
 * The hub's side of the connect relay: one outbound WebSocket to the cloud, authenticated like the hub's other
 * calls (the internal client's token and `X-Homey-ID`), so the household opens no port. Each stream the cloud
 * opens is one request for the hub (or an upgraded socket.io connection) and is served by the hub's own HTTP
 * server through an in-memory connection. Reconnects with exponential back-off and jitter; pings both ways.
 */
export function openTunnel(link: CloudLink, hubId: string, server: Server, log: Logger, options: TunnelOptions = {}): Tunnel {
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const url = `${(link.url ?? '').replace(/^http/, 'ws')}${TUNNEL_PATH}`;
  const unmasked = /^wss:|^ws:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])[:/]/.test(url);
  let socket: WebSocket | null = null;
  let up = false;
  let stopped = false;
  let failures = 0;
  let freshToken = false;
  let retry: NodeJS.Timeout | null = null;
  let waiters: Array<() => void> = [];

  const scheduleReconnect = () => {
    if (stopped) return;
    const ceiling = Math.min(maxDelay, minDelay * 2 ** Math.min(failures, 20));
    failures += 1;
    // Jitter spreads the hubs of a cloud that restarted over the delay instead of all returning at once.
    retry = setTimeout(connect, ceiling / 2 + Math.random() * (ceiling / 2));
  };

  async function connect() {
    retry = null;
    if (stopped) return;
    let token: string;
    try {
      token = await link.bearer(freshToken);
      freshToken = false;
    } catch (error) {
      log.warn({ err: error }, 'the relay tunnel could not get a token; retrying');
      scheduleReconnect();
      return;
    }
    if (stopped) return;
    const ws = new WebSocket(url, {
      headers: {
        authorization: `Bearer ${token}`,
        'x-homey-id': hubId,
        [TUNNEL_PROTOCOL_HEADER]: String(TUNNEL_PROTOCOL),
      },
      perMessageDeflate: false,
      handshakeTimeout: 10_000,
      // Masking guards proxies on a browser's path against bytes a page chose (RFC 6455 §10.3); under TLS or on
      // loopback no such proxy reads them, and an all-zero mask lets ws skip copying and masking every frame.
      ...(unmasked ? { generateMask: (mask: Buffer) => mask.fill(0) } : {}),
    });
    socket = ws;
    // The network socket is known once the upgrade is answered, before the cloud can open any stream.
    // So is the protocol the cloud speaks (an older cloud names none: version 1).
    let sink: FrameSink | null = null;
    ws.once('upgrade', (response) => {
      sink = socketSink(ws, response.socket);
      session.peerProtocol = peerProtocol(response.headers[TUNNEL_PROTOCOL_HEADER]);
    });
    const session = new TunnelSession(
      {
        send: (frame, done) => (sink ? sink.send(frame, done) : done(new Error('the tunnel is not open'))),
        bufferedAmount: () => ws.bufferedAmount,
      },
      { onOpen: (channel, request) => serveStream(server, channel, request) },
    );
    let alive = true;
    let heartbeat: NodeJS.Timeout | null = null;
    ws.on('open', () => {
      up = true;
      failures = 0;
      log.info({ url }, 'relay tunnel up');
      heartbeat = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        ws.ping();
      }, heartbeatMs);
      for (const resolve of waiters) resolve();
      waiters = [];
    });
    ws.on('pong', () => {
      alive = true;
    });
    ws.on('message', (data: Buffer) => {
      alive = true;
      if (!session.receive(data)) ws.close(1002, 'not a tunnel frame');
    });
    ws.on('error', (error) => {
      // A refused token is fetched anew for the next attempt (the cloud may have forgotten it).
      if (/\b401\b/.test(error.message)) freshToken = true;
      if (!stopped) log.warn({ err: error }, 'relay tunnel error');
    });
    ws.on('close', () => {
      if (heartbeat) clearInterval(heartbeat);
      up = false;
      if (socket === ws) socket = null;
      session.close('the tunnel to the cloud closed');
      scheduleReconnect();
    });
  }

  if (link.url) void connect();

  return {
    connected: () => up,
    whenConnected: () => (up ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const open = socket;
      if (!open || open.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        open.once('close', () => resolve());
        open.close(1001, 'hub stopping');
        setTimeout(() => open.terminate(), 1000).unref();
      });
    },
  };
}

/**
 * A relayed request's headers, from the pairs the cloud sent (Node's `rawHeaders`): as Node's request objects hold
 * them (names in lower case, repeated names in an array) and as raw pairs, both with the relayed client's address
 * added to `X-Forwarded-For`, so the hub learns the request was relayed (its metrics, for one, are not served to
 * relayed callers).
 */
function relayedHeaders(raw: string[], remoteAddress: string): { headers: IncomingHttpHeaders; rawHeaders: string[] } {
  const headers: Record<string, string | string[]> = {};
  const rawHeaders: string[] = [];
  let forwardedFor: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (lower === 'x-forwarded-for') {
      forwardedFor = forwardedFor === undefined ? value : `${forwardedFor}, ${value}`;
      continue;
    }
    rawHeaders.push(name, value);
    const seen = headers[lower];
    headers[lower] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  const chain = forwardedFor ? `${forwardedFor}, ${remoteAddress}` : remoteAddress;
  headers['x-forwarded-for'] = chain;
  rawHeaders.push('x-forwarded-for', chain);
  return { headers, rawHeaders };
}

/**
 * Serves one relayed request with the hub's HTTP server. A plain request goes to the server as Node's request and
 * response objects ({@link dispatchRelayed}); an upgrade (socket.io's WebSocket) needs a connection, so it goes in
 * over an in-memory one and the upgraded connection's bytes stream through the tunnel.
 */
export function serveStream(server: Server, channel: TunnelChannel, open: OpenRequest): void {
  const { headers, rawHeaders } = relayedHeaders(open.headers, open.remoteAddress);
  const upgrade = typeof headers.upgrade === 'string';
  const [client, connection] = upgrade ? connectionPair(open.remoteAddress) : [null, relayedSocket(open.remoteAddress)];
  // Only the cloud opens streams, and it says which requests are its own: those may reach `/api/connect/…`.
  if (open.fromCloud === true) markCloudConnection(connection);
  if (!client) {
    dispatchRelayed(server, channel, open.method, open.url, headers, rawHeaders, connection as Writable);
    return;
  }
  const stream = new TunnelStream(channel);
  server.emit('connection', connection);
  const request = httpRequest({ method: open.method, path: open.url, headers, createConnection: () => client });
  const fail = (error: Error) => {
    request.destroy();
    client.destroy();
    stream.destroy(error);
  };
  request.on('error', fail);
  stream.on('error', () => {
    request.destroy();
    client.destroy();
  });
  request.on('response', (response) => {
    stream.sendHead({
      status: response.statusCode ?? 502,
      statusText: response.statusMessage ?? '',
      headers: response.rawHeaders,
    });
    response.pipe(stream);
    response.on('error', fail);
    response.on('end', () => client.destroy());
  });
  request.on('upgrade', (response, socket: Duplex, head: Buffer) => {
    stream.sendHead({
      status: response.statusCode ?? 101,
      statusText: response.statusMessage ?? '',
      headers: response.rawHeaders,
    });
    if (head.length > 0) stream.write(head);
    socket.pipe(stream);
    stream.pipe(socket);
    socket.on('error', fail);
    socket.on('close', () => stream.destroy());
    stream.on('close', () => socket.destroy());
  });
  request.end();
}
