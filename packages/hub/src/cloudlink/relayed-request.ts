import { type IncomingHttpHeaders, IncomingMessage, type Server, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { TunnelStream } from '@hearth/contract/relay';

/**
 * What a relayed request's `socket` is: the relayed client's address for the hub's per-address limits, and a sink
 * for the bytes Node's response would put on a network socket (the head and body go to the tunnel instead).
 */
export function relayedSocket(remoteAddress: string): Writable {
  const socket = new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
  const fields = socket as unknown as Record<string, unknown>;
  fields.remoteAddress = remoteAddress;
  fields.remotePort = 0;
  fields.remoteFamily = remoteAddress.includes(':') ? 'IPv6' : 'IPv4';
  // What HTTP servers and their plugins call on a socket; nothing to do here.
  for (const method of ['setTimeout', 'setNoDelay', 'setKeepAlive', 'ref', 'unref']) fields[method] = () => socket;
  return socket;
}

/**
 * A response whose head and body go to a tunnel stream as they are written, without being serialised as HTTP and
 * parsed again: Node's own `writeHead` validates and merges the headers (so `setHeader` before it, implicit heads
 * and HEAD/204/304 bodies behave as on a socket), and writes go to the stream with its backpressure.
 */
class RelayedResponse extends ServerResponse {
  constructor(
    request: IncomingMessage,
    private readonly stream: TunnelStream,
  ) {
    super(request);
    // Headers passed to `writeHead` are merged into the stored ones only when some exist; this makes them exist,
    // so `getHeaders()` lists every header of the answer.
    this.setHeader('x-relay', '1');
    this.removeHeader('x-relay');
    stream.on('drain', () => this.emit('drain'));
  }

  // biome-ignore lint/suspicious/noExplicitAny: Node's overloads (status, [message], [headers])
  override writeHead(...args: any[]): this {
    if (this.headersSent) return this;
    super.writeHead(...(args as [number]));
    const headers: string[] = [];
    for (const [name, value] of Object.entries(this.getHeaders())) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const one of value) headers.push(name, one);
      else headers.push(name, String(value));
    }
    this.stream.sendHead({ status: this.statusCode, statusText: this.statusMessage, headers });
    return this;
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (!this.headersSent) this.writeHead(this.statusCode);
    const hasBody = (this as unknown as { _hasBody: boolean })._hasBody;
    if (!hasBody || chunk === undefined || chunk === null || (chunk as { length: number }).length === 0) {
      if (typeof done === 'function') process.nextTick(done as () => void);
      return true;
    }
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : chunk;
    return this.stream.write(bytes, done as (error?: Error | null) => void);
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
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
    else if (!this.headersSent) this.writeHead(this.statusCode);
    this.stream.end();
    // Node's end marks the response finished and emits 'finish' once its (discarding) socket took the last bytes.
    super.end(done as () => void);
    return this;
  }
}

/**
 * Serves one relayed request (not an upgrade) by handing it to the hub's HTTP server as Node's own request and
 * response objects, as the server does for a request read from a socket — the same routes, hooks, limits and
 * socket.io polling, without an in-memory connection, an HTTP client and a second parse of the answer. The body
 * streams from the tunnel with backpressure; the answer streams back.
 */
export function dispatchRelayed(
  server: Server,
  stream: TunnelStream,
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
  // Reading resumes the tunnel stream; a full buffer pauses it, and the cloud is told to pause.
  request._read = () => {
    stream.resume();
  };
  stream.on('data', (chunk: Buffer) => {
    if (!request.push(chunk)) stream.pause();
  });
  stream.once('end', () => {
    request.complete = true;
    request.push(null);
  });
  const response = new RelayedResponse(request, stream);
  // Node emits the response's 'close' when its socket closes, once.
  response.assignSocket(socket as never);
  response.once('finish', () => {
    // A body nobody read is drained, as Node's server does, so the stream ends both ways and is released.
    if (!request.complete) request.resume();
    process.nextTick(() => socket.destroy());
  });
  // The client gave up or the tunnel went: whoever works on the request learns it was aborted.
  stream.once('close', () => {
    if (response.writableEnded) return;
    if (!request.destroyed) request.destroy();
    socket.destroy();
  });
  stream.on('error', () => {});
  server.emit('request', request, response);
}
