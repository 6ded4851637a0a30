import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubManager } from '../operation';
import { createApiServer, implement, registerOperations } from './index';

const op = hubManager('things');
const things = {
  createThing: op({
    name: 'createThing',
    method: 'POST',
    path: '/thing',
    scope: null,
    auth: false,
    body: Type.Object({ name: Type.String() }),
    response: Type.Object({ name: Type.String() }),
  }),
} as const;

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await createApiServer({ title: 'test', version: '1.0.0', description: 'body limit test' });
  registerOperations(app, implement(things, { createThing: ({ body }) => ({ name: body.name }) }), () => null);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});

afterAll(() => app.close());

interface RawExchange {
  /** The raw HTTP answer as received. */
  answer: string;
  /** An error the socket reported while sending (EPIPE, ECONNRESET), if any. */
  socketError: string | null;
  /** Body bytes written before the answer arrived or the socket ended. */
  sent: number;
}

/**
 * Sends `POST /api/manager/things/thing` with a JSON body of `size` bytes over a plain socket, as a client that
 * keeps writing until it has sent everything would (`chunked`: without a Content-Length). `declared` overrides
 * the Content-Length sent.
 */
function sendLarge(size: number, options: { chunked?: boolean; declared?: number } = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let socketError: string | null = null;
    let sent = 0;
    socket.on('data', (data) => {
      answer += data.toString('latin1');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError = error.code ?? error.message;
    });
    socket.on('close', () => resolve({ answer, socketError, sent }));
    const framing = options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${options.declared ?? size}`;
    socket.write(`POST /api/manager/things/thing HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        const framed = options.chunked
          ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
          : piece;
        sent += piece.length;
        if (!socket.write(framed)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (options.chunked && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('bodies over the 1 MiB limit', () => {
  it('answer 413 with the uniform body after the client sent 5 MB, without resetting the connection', async () => {
    const exchange = await sendLarge(5 * 1024 * 1024);
    expect(exchange.socketError).toBeNull();
    expect(exchange.sent).toBe(5 * 1024 * 1024);
    expect(statusOf(exchange.answer)).toBe(413);
    expect(exchange.answer.toLowerCase()).toContain('content-type: application/json');
    expect(bodyOf(exchange.answer)).toEqual({
      error: 'payload_too_large',
      error_description: 'Request body is too large',
      statusCode: 413,
    });
  });

  it('answer 413 to a chunked body of 5 MB the same way', async () => {
    const exchange = await sendLarge(5 * 1024 * 1024, { chunked: true });
    expect(exchange.socketError).toBeNull();
    expect(statusOf(exchange.answer)).toBe(413);
    expect(bodyOf(exchange.answer)).toMatchObject({ error: 'payload_too_large', statusCode: 413 });
  });

  it('answer 413 at once, without reading it, when the declared length is beyond what is worth reading', async () => {
    // 1 GB declared, 256 KiB sent: the answer comes before the rest, and the connection closes.
    const exchange = await sendLarge(256 * 1024, { declared: 1024 * 1024 * 1024 });
    expect(statusOf(exchange.answer)).toBe(413);
    expect(bodyOf(exchange.answer)).toMatchObject({ error: 'payload_too_large' });
  });

  it('still serve a body within the limit', async () => {
    const name = 'x'.repeat(900 * 1024);
    const response = await fetch(`http://127.0.0.1:${port}/api/manager/things/thing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toHaveLength(name.length);
  });

  it('answer 413 to fetch with a 5 MB body instead of failing the request', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/manager/things/thing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large', statusCode: 413 });
  });
});
