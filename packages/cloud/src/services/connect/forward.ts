import { createHmac, timingSafeEqual } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HearthError } from '@hearth/contract';
import type { Clock } from '@hearth/contract/clock';
import type { TunnelHolder } from './directory';
import type { HubAnswer } from './relay';

/** Headers one node adds when it hands a hub's request to the node holding the tunnel; never passed to a hub. */
export const FORWARD_HEADERS = {
  /** `<unix seconds>.<HMAC>` over the hub, the time and the two headers below, with the cloud's shared key. */
  proof: 'x-hearth-relay-forward',
  /** The client's address as the first node saw it (the hub's per-address limits count the client). */
  client: 'x-hearth-relay-client',
  /** `1` when the request is the cloud's own (a connect call), which may reach the hub's `/api/connect/…`. */
  cloud: 'x-hearth-relay-cloud',
} as const;

const FORWARD_NAMES = new Set<string>(Object.values(FORWARD_HEADERS));
/** A proof older than this is refused (replays of a captured one stay short-lived). */
const PROOF_SECONDS = 60;

/** What a node learns from a forwarded request once its proof holds. */
export interface Forwarded {
  clientAddress: string;
  fromCloud: boolean;
}

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
};

/**
 * Node-to-node forwarding of the relay: a request for a hub whose tunnel another node holds is sent on to that
 * node's internal address, over HTTP, with a proof made with a key every node shares (kept in the database). The
 * receiving node believes the client address and the cloud's own flag only with a valid proof, and never forwards
 * a forwarded request again.
 */
export class NodeForwarder {
  /** Keep-alive connections between nodes: a forward costs no new connection. */
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly key: () => Promise<Buffer>,
    /** The client's address of a request (the trusted proxies' `X-Forwarded-For` behind a balancer). */
    private readonly clientAddress: (request: IncomingMessage) => string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  private async proof(hubId: string, timestamp: number, clientAddress: string, fromCloud: boolean): Promise<string> {
    const mac = createHmac('sha256', await this.key())
      .update(`${hubId}\n${timestamp}\n${clientAddress}\n${fromCloud ? 1 : 0}`)
      .digest('base64url');
    return `${timestamp}.${mac}`;
  }

  /** The forwarding headers of a request for `hubId` (raw pairs). */
  async headers(hubId: string, clientAddress: string, fromCloud: boolean): Promise<string[]> {
    const timestamp = Math.floor(this.clock.now() / 1000);
    return [
      FORWARD_HEADERS.proof,
      await this.proof(hubId, timestamp, clientAddress, fromCloud),
      FORWARD_HEADERS.client,
      clientAddress,
      FORWARD_HEADERS.cloud,
      fromCloud ? '1' : '0',
    ];
  }

  /** Whether the request says it was forwarded by another node (its proof is not checked yet). */
  static claims(request: IncomingMessage): boolean {
    return request.headers[FORWARD_HEADERS.proof] !== undefined;
  }

  /** The forwarded request's facts when its proof holds; throws `forbidden` otherwise. */
  async verify(hubId: string, request: IncomingMessage): Promise<Forwarded> {
    const [stamp = '', mac = ''] = header(request, FORWARD_HEADERS.proof).split('.');
    const timestamp = Number(stamp);
    const clientAddress = header(request, FORWARD_HEADERS.client);
    const fromCloud = header(request, FORWARD_HEADERS.cloud) === '1';
    if (Number.isInteger(timestamp) && Math.abs(this.clock.now() / 1000 - timestamp) <= PROOF_SECONDS) {
      const expected = Buffer.from((await this.proof(hubId, timestamp, clientAddress, fromCloud)).split('.')[1] as string);
      const given = Buffer.from(mac);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return { clientAddress, fromCloud };
    }
    throw new HearthError('forbidden', 'This forwarded relay request carries no valid proof of a cloud node');
  }

  /** Sends a request on to `holder`; answers its response (an upgrade answers through `onUpgrade`). */
  async open(
    holder: TunnelHolder,
    hubId: string,
    request: { method: string; url: string; headers: string[] },
    forwarded: { clientAddress: string; fromCloud: boolean },
  ) {
    // A client's own forwarding headers are dropped (with their values): only this node's proof goes on.
    const pairs: string[] = [];
    for (let i = 0; i + 1 < request.headers.length; i += 2) {
      if (FORWARD_NAMES.has((request.headers[i] as string).toLowerCase())) continue;
      pairs.push(request.headers[i] as string, request.headers[i + 1] as string);
    }
    pairs.push(...(await this.headers(hubId, forwarded.clientAddress, forwarded.fromCloud)));
    const target = new URL(holder.address);
    const upgrade = pairs.some((value, i) => i % 2 === 0 && value.toLowerCase() === 'upgrade');
    return httpRequest({
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: request.url,
      headers: pairs,
      // An upgraded connection is its own; other requests share kept-alive ones.
      agent: upgrade ? false : this.agent,
      setHost: false,
    });
  }

  /** A client's request (its headers already filtered) on its way to `holder`. */
  private openForClient(holder: TunnelHolder, hubId: string, request: IncomingMessage, headers: string[]) {
    const message = { method: request.method ?? 'GET', url: request.url ?? '/', headers };
    return this.open(holder, hubId, message, { clientAddress: this.clientAddress(request), fromCloud: false });
  }

  /** Relays a client's request through the node holding the tunnel, streaming both ways. */
  async forwardRequest(
    holder: TunnelHolder,
    hubId: string,
    request: IncomingMessage,
    response: ServerResponse,
    headers: string[],
    fail: (error: HearthError) => void,
  ): Promise<void> {
    const outgoing = await this.openForClient(holder, hubId, request, headers);
    request.pipe(outgoing);
    outgoing.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders.filter(keepAnswerHeader));
      answer.pipe(response);
      answer.on('error', () => response.destroy());
    });
    outgoing.on('error', () => {
      if (response.headersSent) return response.destroy();
      fail(unreachable());
    });
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
  }

  /** Relays an upgrade (socket.io's WebSocket) through the node holding the tunnel. */
  async forwardUpgrade(
    holder: TunnelHolder,
    hubId: string,
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    headers: string[],
    fail: (error: HearthError) => void,
  ): Promise<void> {
    const outgoing = await this.openForClient(holder, hubId, request, headers);
    outgoing.end();
    outgoing.on('upgrade', (answer, nodeSocket: Duplex, nodeHead: Buffer) => {
      socket.write(rawHead(answer, answer.rawHeaders));
      if (nodeHead.length > 0) socket.write(nodeHead);
      if (head.length > 0) nodeSocket.write(head);
      nodeSocket.pipe(socket);
      socket.pipe(nodeSocket);
      nodeSocket.on('error', () => socket.destroy());
      nodeSocket.on('close', () => socket.destroy());
      socket.on('close', () => nodeSocket.destroy());
    });
    outgoing.on('response', (answer) => {
      socket.write(rawHead(answer, [...answer.rawHeaders.filter(keepAnswerHeader), 'connection', 'close']));
      answer.pipe(socket);
    });
    outgoing.on('error', () => fail(unreachable()));
  }

  /** The cloud's own request to a hub (a connect call) through the node holding its tunnel. */
  async call(
    holder: TunnelHolder,
    hubId: string,
    request: { method: string; url: string; headers: string[] },
    payload: Buffer | undefined,
  ): Promise<HubAnswer> {
    const outgoing = await this.open(holder, hubId, request, { clientAddress: '127.0.0.1', fromCloud: true });
    return new Promise<HubAnswer>((resolve, reject) => {
      outgoing.setTimeout(10_000, () => outgoing.destroy(new HearthError('timeout', 'The hub did not answer in time')));
      outgoing.on('response', (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 502, headers: answer.rawHeaders, body: Buffer.concat(chunks) }),
        );
        answer.on('error', () => reject(new HearthError('bad_gateway')));
      });
      outgoing.on('error', (error) => reject(error instanceof HearthError ? error : unreachable()));
      outgoing.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The holder did not answer: it stopped, and the hub is reconnecting to another node. */
function unreachable(): HearthError {
  return new HearthError(
    'hub_offline',
    'This hub is offline for a moment: the cloud node holding its connection is gone; retry shortly',
  );
}

/** Node re-frames the body itself: the framing headers of the hop before are not passed on. */
function keepAnswerHeader(value: string, index: number, all: string[]): boolean {
  const name = index % 2 === 0 ? value : (all[index - 1] as string);
  return !/^(connection|keep-alive|transfer-encoding)$/i.test(name);
}

function rawHead(answer: IncomingMessage, headers: string[]): string {
  let head = `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n`;
  for (let i = 0; i + 1 < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}\r\n`;
}
