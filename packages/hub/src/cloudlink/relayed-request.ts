import { type IncomingHttpHeaders, IncomingMessage, type Server, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { ChannelHandler, ResponseHead, TunnelChannel } from '@hearth/contract/relay';

/**
 * What a relayed request's `socket` is: the relayed client's address for the hub's per-address limits, and a sink
 * for the bytes Node's response would put on a network socket (the head and body go to the tunnel instead).
 */
class RelayedSocket extends Writable {
  readonly remotePort = 0;
  readonly remoteFamily: string;

  constructor(readonly remoteAddress: string) {
    super();
    this.remoteFamily = remoteAddress.includes(':') ? 'IPv6' : 'IPv4';
  }

  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    callback();
  }

  // What HTTP servers and their plugins call on a socket; nothing to do here.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

export function relayedSocket(remoteAddress: string): Writable {
  return new RelayedSocket(remoteAddress);
}

/** Whether a request came through the cloud's relay rather than from the hub's own network. */
export const cameThroughRelay = (socket: unknown): boolean => socket instanceof RelayedSocket;

/**
 * A relayed request's body may wait this much in Node's request object (nobody reading it yet) before the cloud is
 * paused: a frame is one slice of at most 64 KB, and a body of the usual size is taken without a pause and resume.
 */
const REQUEST_HOLD_BYTES = 128 * 1024;

/**
 * A response whose head and body go to a tunnel stream as they are written, without being serialised as HTTP and
 * parsed again: Node's own `writeHead` validates and merges the headers (so `setHeader` before it, implicit heads
 * and HEAD/204/304 bodies behave as on a socket) and hands them to `_storeHeader`, which here keeps them for the
 * tunnel instead of making the HTTP head's text; writes go to the tunnel with its backpressure (a write answers
 * `false` while the tunnel is full or the cloud paused the stream, and `drain` follows).
 *
 * The head waits for the rest of the turn: an answer ended in the same turn (Fastify's `writeHead` then `end`)
 * goes to the cloud as one frame with its body.
 */
class RelayedResponse extends ServerResponse {
  /** The head, written by `writeHead` and not yet sent. */
  private pendingHead: ResponseHead | null = null;

  constructor(
    request: IncomingMessage,
    private readonly stream: TunnelChannel,
  ) {
    super(request);
    // Headers passed to `writeHead` are merged into the stored ones only when some exist; this makes them exist,
    // so `_storeHeader` is given every header of the answer, in one form.
    this.setHeader('x-relay', '1');
    this.removeHeader('x-relay');
  }

  // biome-ignore lint/suspicious/noExplicitAny: Node's overloads (status, [message], [headers])
  override writeHead(...args: any[]): this {
    if (this.headersSent) return this;
    return super.writeHead(...(args as [number]));
  }

  /**
   * Node's `writeHead` ends here with the status line and the stored headers (lower-case name → [name as set,
   * value]): they are kept as raw pairs for the tunnel. `_header` is what Node checks to know the head was written.
   */
  _storeHeader(firstLine: string, stored: Record<string, [string, unknown]> | null): void {
    const headers: string[] = [];
    for (const key in stored) {
      const [name, value] = stored[key] as [string, unknown];
      if (Array.isArray(value)) for (const one of value) headers.push(name, String(one));
      else if (value !== undefined) headers.push(name, String(value));
    }
    const fields = this as unknown as { _header: string; _headerSent: boolean };
    fields._header = firstLine;
    fields._headerSent = false;
    this.pendingHead = { status: this.statusCode, statusText: this.statusMessage, headers };
    process.nextTick(sendPendingHead, this);
  }

  /** Sends the head if it still waits. */
  sendPendingHead(): void {
    const head = this.pendingHead;
    if (!head) return;
    this.pendingHead = null;
    this.stream.sendHead(head);
  }

  /** The body bytes a write carries (a UTF-8 string as it is), or `undefined` when it carries none. */
  private bodyOf(chunk: unknown, encoding: unknown): Buffer | string | undefined {
    const hasBody = (this as unknown as { _hasBody: boolean })._hasBody;
    if (!hasBody || chunk === undefined || chunk === null || (chunk as { length: number }).length === 0) return undefined;
    return typeof chunk === 'string' && typeof encoding === 'string' && !/^utf-?8$/i.test(encoding)
      ? Buffer.from(chunk, encoding as BufferEncoding)
      : (chunk as Buffer | string);
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = (typeof encoding === 'function' ? encoding : callback) as ((error?: Error | null) => void) | undefined;
    if (!this.headersSent) this.writeHead(this.statusCode);
    this.sendPendingHead();
    const bytes = this.bodyOf(chunk, encoding);
    if (bytes === undefined) {
      if (typeof done === 'function') process.nextTick(done);
      return true;
    }
    return this.stream.write(bytes, typeof done === 'function' ? (error) => process.nextTick(done, error) : undefined);
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this.writableEnded) return this;
    let done = callback;
    if (typeof chunk === 'function') {
      done = chunk;
      chunk = undefined;
    } else if (typeof encoding === 'function') {
      done = encoding;
      encoding = undefined;
    }
    if (!this.headersSent) this.writeHead(this.statusCode);
    const head = this.pendingHead;
    if (head) {
      // The whole answer at once.
      this.pendingHead = null;
      this.stream.sendAnswer(head, this.bodyOf(chunk, encoding));
    } else {
      if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
      this.stream.end();
    }
    // Node's end marks the response finished and emits 'finish' once its (discarding) socket took the last bytes.
    super.end(done as () => void);
    return this;
  }
}

/** A head written but neither ended nor followed by a write in its turn goes on its own. */
function sendPendingHead(response: RelayedResponse): void {
  response.sendPendingHead();
}

/**
 * Serves one relayed request (not an upgrade) by handing it to the hub's HTTP server as Node's own request and
 * response objects, as the server does for a request read from a socket — the same routes, hooks, limits and
 * socket.io polling, without an in-memory connection, an HTTP client and a second parse of the answer. The body
 * streams from the tunnel with backpressure; the answer streams back.
 */
export function dispatchRelayed(
  server: Server,
  channel: TunnelChannel,
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  rawHeaders: string[],
  socket: Writable,
): void {
  const request = new IncomingMessage(socket as never);
  request.method = method;
  request.url = url;
  request.httpVersion = '1.1';
  request.httpVersionMajor = 1;
  request.httpVersionMinor = 1;
  request.headers = headers;
  request.rawHeaders = rawHeaders;
  // Reading lets a paused cloud go on.
  request._read = () => {
    channel.resumePeer();
  };
  const response = new RelayedResponse(request, channel);
  channel.handler = new RelayedExchange(channel, request, response, socket);
  // Node emits the response's 'close' when its socket closes, once.
  response.assignSocket(socket as never);
  response.once('finish', () => {
    // A body nobody read is drained, as Node's server does, so the stream ends both ways and is released.
    if (!request.complete) request.resume();
    process.nextTick(() => socket.destroy());
  });
  server.emit('request', request, response);
}

/** What the cloud sends on a relayed request's stream, to Node's request and response objects. */
class RelayedExchange implements ChannelHandler {
  constructor(
    private readonly channel: TunnelChannel,
    private readonly request: IncomingMessage,
    private readonly response: RelayedResponse,
    private readonly socket: Writable,
  ) {}

  data(chunk: Buffer): void {
    // Past what may wait unread, the cloud is paused until the request is read (`_read` resumes it).
    this.request.push(chunk);
    if (this.request.readableLength > REQUEST_HOLD_BYTES) this.channel.pausePeer();
  }

  end(): void {
    this.request.complete = true;
    this.request.push(null);
  }

  /** The client gave up or the tunnel went: whoever works on the request learns it was aborted. */
  reset(): void {
    if (this.response.writableEnded) return;
    if (!this.request.destroyed) this.request.destroy();
    this.socket.destroy();
  }

  drain(): void {
    this.response.emit('drain');
  }
}
