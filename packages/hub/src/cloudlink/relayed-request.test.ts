import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FrameSink, type ResponseHead, TunnelSession, TunnelStream } from '@hearth/contract/relay';
import { beforeEach, describe, expect, it } from 'vitest';
import { serveStream } from './tunnel';

/** A frame sink delivering to the peer session on the next turn, as a socket would. */
function sinkTo(peer: () => TunnelSession): FrameSink {
  return {
    send(frame, done) {
      setImmediate(() => {
        peer().receive(frame);
        done();
      });
    },
    bufferedAmount: () => 0,
  };
}

/**
 * A real HTTP server (never listening) behind a tunnel: the cloud's session opens streams the hub serves. Both
 * sides speak `protocol` (2: requests without a body and whole answers go as one frame each).
 */
function relayTo(handler: (request: IncomingMessage, response: ServerResponse) => void, peerProtocol = protocol) {
  const server = createServer(handler);
  const hub: TunnelSession = new TunnelSession(
    sinkTo(() => cloud),
    {
      onOpen: (stream, open) => serveStream(server, stream, open),
      peerProtocol,
    },
  );
  const cloud: TunnelSession = new TunnelSession(
    sinkTo(() => hub),
    { peerProtocol },
  );
  return { cloud, hub };
}

/** Reads a relayed answer: its head and body. */
function answerOf(stream: TunnelStream): Promise<{ head: ResponseHead; body: Buffer }> {
  return new Promise((resolve, reject) => {
    let head: ResponseHead | null = null;
    const chunks: Buffer[] = [];
    stream.once('head', (answer: ResponseHead) => {
      head = answer;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => (head ? resolve({ head, body: Buffer.concat(chunks) }) : reject(new Error('no head'))));
    stream.on('error', reject);
  });
}

const header = (head: ResponseHead, name: string) => head.headers[head.headers.indexOf(name) + 1];
const released = async (...sessions: TunnelSession[]) => {
  while (sessions.some((session) => session.size > 0)) await new Promise((resolve) => setImmediate(resolve));
};

let protocol = 1;

describe.each([1, 2])('a relayed request served without an HTTP round trip, tunnel protocol %i', (version) => {
  beforeEach(() => {
    protocol = version;
  });

  it('streams the body in and the answer out, with headers set before writeHead and the client’s address', async () => {
    const { cloud, hub } = relayTo((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.setHeader('x-seen', `${request.socket.remoteAddress} ${request.headers['x-forwarded-for']}`);
        response.writeHead(201, { 'content-type': 'text/plain' });
        response.write('got ');
        response.end(String(Buffer.concat(chunks).length));
      });
    });
    const stream = cloud.open({ method: 'POST', url: '/echo', headers: ['Host', 'hub'], remoteAddress: '203.0.113.9' });
    const answer = answerOf(stream);
    stream.write(Buffer.alloc(300 * 1024, 1));
    stream.end(Buffer.alloc(100, 2));
    const { head, body } = await answer;
    expect(head.status).toBe(201);
    expect(header(head, 'content-type')).toBe('text/plain');
    expect(header(head, 'x-seen')).toBe('203.0.113.9 203.0.113.9');
    expect(body.toString()).toBe(`got ${300 * 1024 + 100}`);
    await released(cloud, hub);
  });

  it('answers a request without a body, its end sent with the open; a head and end of one turn go together', async () => {
    const { cloud, hub } = relayTo((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, url: request.url }));
    });
    const request = { method: 'GET', url: '/zones', headers: ['Host', 'hub'], remoteAddress: '127.0.0.1' };
    const stream = new TunnelStream(cloud.openChannel(request, null, true));
    const { head, body } = await answerOf(stream);
    expect(head.status).toBe(200);
    expect(header(head, 'content-type')).toBe('application/json');
    expect(JSON.parse(body.toString())).toEqual({ method: 'GET', url: '/zones' });
    await released(cloud, hub);
  });

  it('drains a body the hub answers without reading, so the stream is released', async () => {
    const { cloud, hub } = relayTo((_request, response) => {
      response.statusCode = 401;
      response.end('no');
    });
    const stream = cloud.open({ method: 'PUT', url: '/', headers: [], remoteAddress: '127.0.0.1' });
    const answer = answerOf(stream);
    stream.end(Buffer.alloc(2 * 1024 * 1024, 3));
    const { head, body } = await answer;
    expect(head.status).toBe(401);
    expect(body.toString()).toBe('no');
    await released(cloud, hub);
  });

  it('sends no body for HEAD, as a socket would', async () => {
    const { cloud } = relayTo((_request, response) => {
      response.writeHead(200, { 'content-length': '5' }).end('hello');
    });
    const stream = cloud.open({ method: 'HEAD', url: '/', headers: [], remoteAddress: '127.0.0.1' });
    stream.end();
    const { head, body } = await answerOf(stream);
    expect(header(head, 'content-length')).toBe('5');
    expect(body.length).toBe(0);
  });

  it('tells the hub’s handler when the client gives up before the answer ends', async () => {
    let closed: () => void = () => {};
    const responseClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const { cloud, hub } = relayTo((_request, response) => {
      response.on('close', closed);
      response.writeHead(200);
      response.write('partial');
    });
    const stream = cloud.open({ method: 'GET', url: '/long', headers: [], remoteAddress: '127.0.0.1' });
    stream.end();
    await new Promise((resolve) => stream.once('head', resolve));
    stream.destroy();
    await responseClosed;
    await released(cloud, hub);
  });
});
