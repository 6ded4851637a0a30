import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { type Duplex, Writable } from 'node:stream';
import { HearthError } from '@hearth/contract';
import { type LimitStore, RateLimited, type WindowCount } from '@hearth/contract/fastify';
import type { ChannelHandler, OpenRequest, ResponseHead, TunnelChannel } from '@hearth/contract/relay';
import type { TunnelDirectory, TunnelHolder } from './directory';
import { FORWARD_HEADERS, type Forwarded, NodeForwarder } from './forward';
import type { HubTunnel, TunnelHost } from './tunnels';

export interface RelayOptions {
  /** The host names of relay origins end with `.<hostSuffix>` after the hub's id, e.g. `connect.localhost`. */
  readonly hostSuffix: string;
  /** Requests one hub may receive through the relay per minute, from everyone together. */
  readonly requestsPerMinute: number;
  /** Requests (and upgraded connections) one hub may have open through the relay at once. */
  readonly maxStreams: number;
  /**
   * Requests without credentials (no `Authorization`) one address may send one hub per minute; requests the hub
   * refuses for their token (401) count here too, and an address over it is refused even with a token.
   */
  readonly anonymousPerAddressPerMinute: number;
  /** Requests without credentials one hub may receive per minute from everyone together (apart from its budget). */
  readonly anonymousPerMinute: number;
  /** Requests without credentials one hub may have open at once (they never take the owners' share of `maxStreams`). */
  readonly anonymousMaxStreams: number;
  /**
   * Upgraded connections (socket.io's WebSocket) one hub may have open at once, and one address to one hub. They are
   * counted apart from the requests' streams: a socket is held for hours, and strangers holding them must not take
   * the share of `maxStreams` the owners' requests need. (Their opening is counted on the per-minute budgets as a
   * request is: on the anonymous ones without `Authorization`, which a browser's WebSocket never sends.)
   */
  readonly maxUpgrades: number;
  readonly upgradesPerAddress: number;
  /** A request's body must have arrived whole this long after its head, or it is answered 408 and cut. */
  readonly bodyTimeoutMs: number;
  /** The client's address of a request (the trusted proxies' `X-Forwarded-For` behind a balancer). */
  readonly clientAddress: (request: IncomingMessage) => string;
}

/**
 * Headers that describe one connection (RFC 9110 §7.6.1), not the message, and the cloud's own node-to-node
 * forwarding headers: never passed through.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
  ...Object.values(FORWARD_HEADERS),
]);

/** Raw header pairs without hop-by-hop ones; `keep` names those an upgrade needs or the next hop re-frames. */
function passable(raw: string[], keep: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(name) && !keep.includes(name)) continue;
    out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

function headLines(status: number, statusText: string, headers: string[]): string {
  let head = `HTTP/1.1 ${status} ${statusText}\r\n`;
  for (let i = 0; i + 1 < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}\r\n`;
}

/** Where {@link Relay.route} sends a request: this node's tunnel of the hub, or the node holding it. */
type Route =
  | { tunnel: HubTunnel; holder?: undefined; forwarded: Forwarded | null }
  | { tunnel?: undefined; holder: TunnelHolder; forwarded: null };

/** Who sent a client's request, as the relay's budgets tell callers apart. */
interface Sender {
  address: string;
  /** No `Authorization`: counted on the anonymous budgets, never on the hub's own. */
  anonymous: boolean;
  /** An upgrade: held open under the upgrade caps, not the requests' stream caps. */
  upgrade?: boolean;
}

/** Where a background failure is told (the cloud's logger). */
export interface RelayLog {
  error(details: object, message: string): void;
}

/** A minute: the window of every per-minute budget of the relay. */
const MINUTE_MS = 60_000;

const offline = () => new HearthError('hub_offline', 'This hub is offline: it is not connected to the cloud right now');

/**
 * The relay lets a hub's answer wait in a client's response (one that reads slowly) up to this much before it
 * pauses the hub's stream: an answer of the usual size is written whole, without a pause and a resume.
 */
const RESPONSE_HOLD_BYTES = 128 * 1024;

/** Answers a client's request the relay cannot carry with the error (502 for anything but a coded error). */
function refuseRequest(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  if (response.headersSent) return void response.destroy();
  const answer = errorAnswer(request, error instanceof HearthError ? error : new HearthError('bad_gateway'));
  response.writeHead(answer.status, answer.headers).end(answer.body);
  request.resume();
}

/** The uniform error body, readable by a browser page on any origin (its CORS pre-flight went to the hub). */
function errorAnswer(request: IncomingMessage, error: HearthError, extra: Record<string, string> = {}) {
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    ...(error instanceof RateLimited ? { 'retry-after': String(error.retryAfterSeconds) } : {}),
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'access-control-allow-origin': typeof request.headers.origin === 'string' ? request.headers.origin : '*',
    'access-control-expose-headers': 'Retry-After',
    ...extra,
  };
  return { status: error.statusCode, headers, body };
}

/**
 * The relay's front door: a request whose host is a hub's relay origin (`<hubId>.<hostSuffix>`) is carried to that
 * hub through its tunnel, untouched — the hub checks the client's own Authorization, the relay never needs the
 * household's session. Bodies stream both ways with backpressure; an upgrade (socket.io's WebSocket) becomes a
 * byte stream through the tunnel. Each hub gets a per-minute budget and a cap on open requests, so a flood at one
 * hub is answered 429 with `Retry-After` without touching others.
 *
 * The cloud runs as several nodes and a tunnel lands on one of them: a request arriving at another node is sent
 * on to the holder named in the {@link TunnelDirectory} ({@link NodeForwarder}), counted against the hub's budget
 * once, by the node it arrived at.
 */
export class Relay {
  constructor(
    private readonly tunnels: TunnelHost,
    private readonly limits: LimitStore,
    private readonly options: RelayOptions,
    private readonly directory: TunnelDirectory,
    private readonly forwarder: NodeForwarder,
  ) {}

  /** The hub a request is for, from its host, or `null` when it is for the cloud itself. */
  hubOf(request: IncomingMessage): string | null {
    const host = (request.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    const dot = host.indexOf('.');
    if (dot !== 24 || host.slice(dot + 1) !== this.options.hostSuffix) return null;
    const id = host.slice(0, dot);
    return /^[0-9a-f]{24}$/.test(id) ? id : null;
  }

  /** Relays an HTTP request when it is for a hub; answers `false` to leave it to the cloud's own routes. */
  handleRequest(request: IncomingMessage, response: ServerResponse): boolean {
    const hubId = this.hubOf(request);
    if (!hubId) return false;
    try {
      const sender: Sender = {
        address: this.options.clientAddress(request),
        anonymous: request.headers.authorization === undefined,
      };
      const route = this.route(hubId, request, sender);
      if (route instanceof Promise)
        void route
          .then((found) => this.carry(hubId, request, response, found, sender))
          .catch((error) => refuseRequest(request, response, error));
      else this.carry(hubId, request, response, route, sender);
    } catch (error) {
      refuseRequest(request, response, error);
    }
    return true;
  }

  /** Sends a client's request on where {@link route} found the hub. */
  private carry(
    hubId: string,
    request: IncomingMessage,
    response: ServerResponse,
    { tunnel, holder, forwarded }: Route,
    sender: Sender,
  ): void {
    if (tunnel) {
      this.forward(hubId, tunnel, request, response, forwarded, sender);
      return;
    }
    const fail = (error: unknown) => refuseRequest(request, response, error);
    this.forwarder
      .forwardRequest(holder, hubId, request, response, passable(request.rawHeaders, ['transfer-encoding']), fail)
      .catch(fail);
  }

  /** Relays an upgrade when it is for a hub; answers `false` otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const hubId = this.hubOf(request);
    if (!hubId) return false;
    socket.on('error', () => socket.destroy());
    const refuse = (error: unknown) => {
      const answer = errorAnswer(request, error instanceof HearthError ? error : new HearthError('bad_gateway'), {
        connection: 'close',
      });
      socket.end(
        headLines(answer.status, STATUS_CODES[answer.status] ?? '', Object.entries(answer.headers).flat()) + answer.body,
      );
    };
    const keep = ['upgrade', 'connection'];
    const sender: Sender = {
      address: this.options.clientAddress(request),
      anonymous: request.headers.authorization === undefined,
      upgrade: true,
    };
    void Promise.resolve()
      .then(() => {
        // Held open on the node the client is connected to; one another node handed on was counted there.
        if (!NodeForwarder.claims(request)) this.holdUpgrade(hubId, sender.address, socket);
        return this.route(hubId, request, sender);
      })
      .then(({ tunnel, holder, forwarded }) => {
        if (!tunnel)
          return this.forwarder.forwardUpgrade(holder, hubId, request, socket, head, passable(request.rawHeaders, keep), refuse);
        const stream = tunnel.session.open(this.describe(request, keep, forwarded));
        this.countUpgradeStream(hubId, stream);
        let answered = false;
        stream.once('head', (answer: ResponseHead) => {
          answered = true;
          if (answer.status === 101) {
            socket.write(headLines(101, answer.statusText, passable(answer.headers, keep)));
            if (head.length > 0) stream.write(head);
            socket.pipe(stream);
            stream.pipe(socket);
          } else {
            socket.write(headLines(answer.status, answer.statusText, [...passable(answer.headers), 'connection', 'close']));
            stream.pipe(socket);
          }
        });
        stream.on('error', () => {
          if (answered) socket.destroy();
          else refuse(new HearthError('bad_gateway'));
        });
        socket.on('close', () => stream.destroy());
      })
      .catch(refuse);
    return true;
  }

  /**
   * The cloud's own request to a hub (a connect call it forwards, a webhook delivery), with `extra` header pairs,
   * within the hub's budget like any other:
   * answers the hub's status, headers and body. Throws `hub_offline`, `rate_limited`, `bad_gateway` or `timeout`.
   */
  async call(hubId: string, method: string, url: string, body?: unknown, extra: string[] = []): Promise<HubAnswer> {
    const { tunnel, holder } = await this.route(hubId, null);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = ['host', `${hubId}.${this.options.hostSuffix}`, 'x-homey-id', hubId, ...extra];
    if (payload) headers.push('content-type', 'application/json', 'content-length', String(payload.length));
    if (!tunnel) return this.forwarder.call(holder, hubId, { method, url, headers }, payload);
    const stream = tunnel.session.open({ method, url, headers, remoteAddress: '127.0.0.1', fromCloud: true });
    stream.end(payload);
    return new Promise<HubAnswer>((resolve, reject) => {
      const timer = setTimeout(() => stream.destroy(new HearthError('timeout', 'The hub did not answer in time')), 10_000);
      let head: ResponseHead | null = null;
      const chunks: Buffer[] = [];
      stream.once('head', (answer: ResponseHead) => {
        head = answer;
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        clearTimeout(timer);
        if (head) resolve({ status: head.status, headers: head.headers, body: Buffer.concat(chunks) });
        else reject(new HearthError('bad_gateway'));
      });
      stream.on('error', (error) => {
        clearTimeout(timer);
        reject(error instanceof HearthError ? error : new HearthError('bad_gateway'));
      });
    });
  }

  /**
   * Where a request for the hub goes: its tunnel on this node, or the node holding it. A request another node
   * forwarded (with a valid proof) was counted there and goes to this node's tunnel only. Throws (or rejects
   * with) `rate_limited`, `hub_offline`, or `forbidden` for a forwarding proof that does not hold. Answers at once
   * when it can — a client's request counted by an in-process store for a tunnel this node holds, the usual case
   * — so that request is relayed without waiting for a turn of the event loop.
   */
  private route(hubId: string, request: IncomingMessage | null, sender?: Sender): Route | Promise<Route> {
    if (request && NodeForwarder.claims(request))
      return this.forwarder.verify(hubId, request).then((forwarded) => this.routeCounted(hubId, forwarded, sender));
    if (sender?.anonymous) {
      // Strangers are counted apart: per address first (one sender cannot use up the others' share), then per hub.
      const byAddress = this.within(
        `relay-anon:${hubId}:${sender.address}`,
        this.options.anonymousPerAddressPerMinute,
        'anonymous-address',
      );
      const counted = () => {
        const byHub = this.within(`relay-anon:${hubId}`, this.options.anonymousPerMinute, 'anonymous-hub');
        return byHub instanceof Promise
          ? byHub.then(() => this.routeCounted(hubId, null, sender))
          : this.routeCounted(hubId, null, sender);
      };
      return byAddress instanceof Promise ? byAddress.then(counted) : counted();
    }
    const hubBudget = () => {
      const counted = this.within(`relay:${hubId}`, this.options.requestsPerMinute, 'hub');
      return counted instanceof Promise
        ? counted.then(() => this.routeCounted(hubId, null, sender))
        : this.routeCounted(hubId, null, sender);
    };
    if (!sender) return hubBudget();
    // A sender whose tokens the hub keeps refusing is a stranger with a made-up token: held before the hub's budget.
    return this.limits.remembers(barredKey(hubId, sender.address)).then((barred) => {
      if (barred)
        throw new RateLimited(
          { name: 'anonymous-address', quota: this.options.anonymousPerAddressPerMinute, windowSeconds: 60 },
          MINUTE_MS,
          'Too many refused requests from this address for this hub. Try again in 60 seconds.',
        );
      return hubBudget();
    });
  }

  /** Counts one request under `key` and throws `rate_limited` when it is beyond `quota` a minute. */
  private within(key: string, quota: number, name: string): void | Promise<void> {
    const counted = this.limits.hit(key, MINUTE_MS);
    if (counted instanceof Promise) return counted.then((window) => overBudget(window, quota, name));
    overBudget(counted, quota, name);
  }

  /**
   * A request with a token the hub refused (401) is charged to its sender's anonymous budget; beyond it, the
   * sender is held for the rest of the window even with a token (so made-up tokens cannot spend the hub's budget).
   */
  private chargeRefused(hubId: string, address: string): void {
    const key = `relay-anon:${hubId}:${address}`;
    void Promise.resolve(this.limits.hit(key, MINUTE_MS))
      .then((window) => {
        if (window.count > this.options.anonymousPerAddressPerMinute)
          return this.limits.remember(barredKey(hubId, address), Math.max(1000, window.resetMs));
      })
      .catch((error) => this.log.error({ err: error, hubId, address }, 'relay: counting a refused token failed'));
  }

  /** Upgraded connections open through this node, per hub and per hub and address (see `maxUpgrades`). */
  private readonly upgradesOpen = new Map<string, number>();

  /** Streams of this node's tunnels that carry an upgraded connection (held here or handed on by another node). */
  private readonly upgradeStreams = new Map<string, number>();

  private countUpgradeStream(hubId: string, stream: Duplex): void {
    this.upgradeStreams.set(hubId, (this.upgradeStreams.get(hubId) ?? 0) + 1);
    stream.once('close', () => {
      const left = (this.upgradeStreams.get(hubId) ?? 1) - 1;
      if (left > 0) this.upgradeStreams.set(hubId, left);
      else this.upgradeStreams.delete(hubId);
    });
  }

  /**
   * Counts an upgraded connection as held until `socket` closes, or throws `rate_limited` when the hub, or this
   * address at the hub, holds as many as it may.
   */
  private holdUpgrade(hubId: string, address: string, socket: Duplex): void {
    const keys = [hubId, `${hubId} ${address}`] as const;
    const full = (name: string, quota: number, whose: string) =>
      new RateLimited(
        { name, quota, windowSeconds: 1 },
        1000,
        `Too many connections open ${whose} through the relay. Try again in 1 second.`,
      );
    if ((this.upgradesOpen.get(keys[1]) ?? 0) >= this.options.upgradesPerAddress)
      throw full('hub-upgrades-address', this.options.upgradesPerAddress, 'from this address to this hub');
    if ((this.upgradesOpen.get(keys[0]) ?? 0) >= this.options.maxUpgrades)
      throw full('hub-upgrades', this.options.maxUpgrades, 'to this hub');
    for (const key of keys) this.upgradesOpen.set(key, (this.upgradesOpen.get(key) ?? 0) + 1);
    socket.once('close', () => {
      for (const key of keys) {
        const left = (this.upgradesOpen.get(key) ?? 1) - 1;
        if (left > 0) this.upgradesOpen.set(key, left);
        else this.upgradesOpen.delete(key);
      }
    });
  }

  /** Where failures in the background are told; the cloud sets its logger. */
  log: RelayLog = { error: (details, message) => console.error(message, details) };

  /** Requests without credentials open per hub on this node, apart from the hub's own share of its streams. */
  private readonly anonymousOpen = new Map<string, number>();

  private routeCounted(hubId: string, forwarded: Forwarded | null, sender?: Sender): Route | Promise<Route> {
    const tunnel = this.tunnels.get(hubId);
    // An upgrade was held under the upgrade caps (holdUpgrade); the streams below are the requests'.
    if (tunnel && sender?.upgrade) return { tunnel, forwarded };
    if (tunnel) {
      const anonymous = this.anonymousOpen.get(hubId) ?? 0;
      const upgrades = this.upgradeStreams.get(hubId) ?? 0;
      if (sender?.anonymous && anonymous >= this.options.anonymousMaxStreams)
        throw new RateLimited(
          { name: 'hub-open-anonymous', quota: this.options.anonymousMaxStreams, windowSeconds: 1 },
          1000,
          'Too many requests without credentials open for this hub through the relay. Try again in 1 second.',
        );
      if (!sender?.anonymous && tunnel.session.size - anonymous - upgrades >= this.options.maxStreams)
        throw new RateLimited(
          { name: 'hub-open', quota: this.options.maxStreams, windowSeconds: 1 },
          1000,
          'Too many requests open for this hub through the relay. Try again in 1 second.',
        );
      return { tunnel, forwarded };
    }
    if (forwarded) throw offline();
    return this.directory.locate(hubId).then((holder) => {
      if (holder && holder.node !== this.tunnels.node) return { holder, forwarded: null };
      throw offline();
    });
  }

  private describe(request: IncomingMessage, keep: readonly string[], forwarded: Forwarded | null): OpenRequest {
    return {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: passable(request.rawHeaders, keep),
      remoteAddress: forwarded ? forwarded.clientAddress : this.options.clientAddress(request),
      ...(forwarded?.fromCloud ? { fromCloud: true } : {}),
    };
  }

  /**
   * Carries a client's request through the hub's tunnel, frame by frame between Node's request and response
   * objects and the tunnel ({@link RelayedExchange}), with the request's body sent with the tunnel's backpressure.
   */
  private forward(
    hubId: string,
    tunnel: HubTunnel,
    request: IncomingMessage,
    response: ServerResponse,
    forwarded: Forwarded | null,
    sender: Sender,
  ): void {
    // A request with neither length nor chunked framing has no body (RFC 9112 §6.3): its end goes with the open
    // frame.
    const bodyless = request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined;
    const exchange = new RelayedExchange(request, response);
    if (!sender.anonymous) exchange.onRefused = () => this.chargeRefused(hubId, sender.address);
    const channel = tunnel.session.openChannel(this.describe(request, ['transfer-encoding'], forwarded), exchange, bodyless);
    exchange.channel = channel;
    if (sender.anonymous) {
      this.anonymousOpen.set(hubId, (this.anonymousOpen.get(hubId) ?? 0) + 1);
      response.once('close', () => {
        const left = (this.anonymousOpen.get(hubId) ?? 1) - 1;
        if (left > 0) this.anonymousOpen.set(hubId, left);
        else this.anonymousOpen.delete(hubId);
      });
    }
    if (bodyless) request.resume();
    else {
      // A body that is slow or never comes would hold the hub's stream (and a share of its budget) for nothing.
      const timer = setTimeout(() => {
        request.unpipe();
        if (!response.headersSent) {
          const answer = errorAnswer(request, new HearthError('request_timeout', 'The request body did not arrive in time'), {
            connection: 'close',
          });
          response.writeHead(answer.status, answer.headers).end(answer.body);
        } else response.destroy();
        channel.reset('the request body did not arrive in time');
      }, this.options.bodyTimeoutMs);
      request.once('end', () => clearTimeout(timer));
      response.once('close', () => clearTimeout(timer));
      const body = new Writable({
        // A stream reset on the way loses the rest of the body; its answer (502, or none) says so.
        write: (chunk: Buffer, _encoding, callback) => channel.write(chunk, () => callback()),
        final: (callback) => {
          channel.end();
          callback();
        },
      });
      request.pipe(body);
      request.once('error', () => channel.reset('the client went away'));
    }
    // The client gave up: the hub stops working on it.
    response.once('close', () => {
      if (!response.writableFinished) channel.reset('the client went away');
    });
  }
}

/**
 * A client's request relayed through a hub's tunnel: the answer's head and body are written to the client's
 * response as they arrive (a head, body and end that arrive together leave in one write), and the hub is paused
 * while the client reads slowly.
 */
class RelayedExchange implements ChannelHandler {
  channel!: TunnelChannel;
  /** Told when the hub refuses the request's credentials (401). */
  onRefused: (() => void) | null = null;
  /** The hub's stream is paused until the client's response drains. */
  private held = false;

  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {}

  head(answer: ResponseHead): boolean {
    const { response } = this;
    if (answer.status === 401) this.onRefused?.();
    try {
      response.writeHead(answer.status, answer.statusText, passable(answer.headers));
      return true;
    } catch {
      // A head Node refuses to write (an invalid status or header, a second head) is the hub's fault.
      this.channel.reset('invalid answer head');
      if (response.headersSent) {
        response.destroy();
        return false;
      }
      const error = errorAnswer(this.request, new HearthError('bad_gateway'));
      response.writeHead(error.status, error.headers).end(error.body);
      return false;
    }
  }

  /** The whole answer in one frame: written and ended in one go. */
  answer(head: ResponseHead, body: Buffer): void {
    if (this.head(head)) this.response.end(body);
  }

  data(chunk: Buffer): void {
    const { response } = this;
    if (response.writableEnded) return;
    response.write(chunk);
    if (this.held || response.writableLength <= RESPONSE_HOLD_BYTES) return;
    this.held = true;
    this.channel.pausePeer();
    response.once('drain', () => {
      this.held = false;
      this.channel.resumePeer();
    });
  }

  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }

  reset(): void {
    if (this.response.headersSent) return void this.response.destroy();
    const answer = errorAnswer(this.request, new HearthError('bad_gateway'));
    this.response.writeHead(answer.status, answer.headers).end(answer.body);
  }
}

/** Throws `rate_limited` when a request counted in `window` is beyond `quota` a minute. */
function overBudget(window: WindowCount, quota: number, name: string): void {
  if (window.count <= quota) return;
  const seconds = Math.max(1, Math.ceil(window.resetMs / 1000));
  throw new RateLimited(
    { name, quota, windowSeconds: 60 },
    window.resetMs,
    `Too many requests for this hub through the relay. Try again in ${seconds} seconds.`,
  );
}

function barredKey(hubId: string, address: string): string {
  return `relay-barred:${hubId}:${address}`;
}

/** A hub's answer to a request of the cloud's own. */
export interface HubAnswer {
  status: number;
  /** Raw header pairs. */
  headers: string[];
  body: Buffer;
}
