import { randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HearthError } from '@hearth/contract';
import { peerProtocol, socketSink, TUNNEL_PROTOCOL, TUNNEL_PROTOCOL_HEADER, TunnelSession } from '@hearth/contract/relay';
import type { FastifyRequest } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { createAuthenticator } from '../../platform/auth';
import type { CloudContext } from '../../platform/context';
import type { TunnelDirectory, TunnelHolder } from './directory';

/** A hub's live tunnel on this node. */
export interface HubTunnel {
  readonly hubId: string;
  readonly session: TunnelSession;
  readonly connectedAt: number;
}

export interface TunnelHostOptions {
  /** How often the cloud pings each tunnel; one unanswered by the next ping closes it. */
  readonly heartbeatMs: number;
  /** This node's internal address, where other nodes forward requests for the tunnels it holds. */
  readonly address: () => string;
  /** Called when a hub's tunnel comes up (the cloud records its relay address). */
  readonly onConnect?: (hubId: string) => Promise<void> | void;
}

interface Entry extends HubTunnel {
  readonly ws: WebSocket;
  alive: boolean;
}

/** Writes a refusal on a socket that asked to upgrade and closes it. */
function refuseUpgrade(socket: Duplex, error: HearthError): void {
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ''}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * The tunnels held by this cloud process: the only per-process state of the relay, because a socket cannot be
 * anywhere else. Where each tunnel is lives in the {@link TunnelDirectory}, refreshed with every heartbeat.
 * A hub authenticates as the provider's internal client (the credential it registers with) and names itself
 * with `X-Homey-ID`; it must be registered. A second tunnel of the same hub replaces the first.
 */
export class TunnelHost {
  /** This process's name in the directory. */
  readonly node = randomUUID();
  private readonly tunnels = new Map<string, Entry>();
  private readonly server = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 * 1024 });
  private readonly authenticate;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly context: CloudContext,
    private readonly directory: TunnelDirectory,
    private readonly options: TunnelHostOptions,
  ) {
    this.authenticate = createAuthenticator(context);
    // The hub learns which frames this side reads from its upgrade's answer.
    this.server.on('headers', (headers: string[]) => {
      headers.push(`${TUNNEL_PROTOCOL_HEADER}: ${TUNNEL_PROTOCOL}`);
    });
  }

  start(): void {
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  /** This node as the directory names it. */
  holder(): TunnelHolder {
    return { node: this.node, address: this.options.address() };
  }

  /** The hub's tunnel when this node holds it. */
  get(hubId: string): HubTunnel | null {
    return this.tunnels.get(hubId) ?? null;
  }

  get size(): number {
    return this.tunnels.size;
  }

  /** Accepts a hub's tunnel (`GET /connect/tunnel` with an upgrade), or refuses it with 401/403. */
  async accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let hubId: string;
    try {
      hubId = await this.check(request);
    } catch (error) {
      refuseUpgrade(socket, error instanceof HearthError ? error : new HearthError('forbidden', 'Tunnel refused'));
      return;
    }
    const protocol = peerProtocol(request.headers[TUNNEL_PROTOCOL_HEADER]);
    this.server.handleUpgrade(request, socket, head, (ws) => this.adopt(hubId, ws, socket, protocol));
  }

  private async check(request: IncomingMessage): Promise<string> {
    const principal = await this.authenticate({ headers: request.headers } as FastifyRequest);
    if (!principal) throw new HearthError('invalid_token', 'A tunnel needs the hub’s access token');
    if (!principal.internal) throw new HearthError('forbidden', 'Only hubs open tunnels');
    const hubId = request.headers['x-homey-id'];
    if (typeof hubId !== 'string' || !/^[0-9a-f]{24}$/.test(hubId))
      throw new HearthError('forbidden', 'A tunnel needs the hub’s id in X-Homey-ID');
    const hub = await this.context.database.db.selectFrom('hubs').select('id').where('id', '=', hubId).executeTakeFirst();
    if (!hub) throw new HearthError('forbidden', 'This hub is not registered');
    return hubId;
  }

  private adopt(hubId: string, ws: WebSocket, socket: Duplex, protocol: number): void {
    const session = new TunnelSession(socketSink(ws, socket), { peerProtocol: protocol });
    const entry: Entry = { hubId, ws, session, connectedAt: this.context.clock.now(), alive: true };
    const previous = this.tunnels.get(hubId);
    this.tunnels.set(hubId, entry);
    // The hub reconnected before the old socket was noticed dead: the new one is the one that works.
    previous?.ws.close(4000, 'replaced by a new tunnel');
    ws.on('pong', () => {
      entry.alive = true;
    });
    ws.on('message', (data: Buffer) => {
      entry.alive = true;
      if (!session.receive(data)) ws.close(1002, 'not a tunnel frame');
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      session.close('the hub’s tunnel closed');
      if (this.tunnels.get(hubId) === entry) {
        this.tunnels.delete(hubId);
        void this.directory.release(hubId, this.node).catch((error) => this.failed('releasing a tunnel', hubId, error));
      }
    });
    void this.directory
      .claim(hubId, this.holder(), this.options.heartbeatMs * 3)
      .catch((error) => this.failed('claiming a tunnel', hubId, error));
    void Promise.resolve(this.options.onConnect?.(hubId)).catch((error) =>
      this.failed('recording the relay origin', hubId, error),
    );
  }

  /** A failure of the directory (Redis) or the database in the background: the tunnel stays, the log says why. */
  private failed(doing: string, hubId: string, error: unknown): void {
    this.context.log.error({ err: error, hubId }, `relay: ${doing} failed`);
  }

  private beat(): void {
    for (const entry of this.tunnels.values()) {
      if (!entry.alive) {
        entry.ws.terminate();
        continue;
      }
      entry.alive = false;
      entry.ws.ping();
      void this.directory
        .claim(entry.hubId, this.holder(), this.options.heartbeatMs * 3)
        .catch((error) => this.failed('renewing a tunnel’s claim', entry.hubId, error));
    }
  }

  /** Closes every tunnel (the hubs reconnect, to another node when there is one). */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    const closing = [...this.tunnels.values()].map(
      (entry) =>
        new Promise<void>((resolve) => {
          if (entry.ws.readyState === WebSocket.CLOSED) return resolve();
          entry.ws.once('close', () => resolve());
          entry.ws.terminate();
        }),
    );
    await Promise.all(closing);
    this.server.close();
  }
}
