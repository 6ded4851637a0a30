import { describe, expect, it } from 'vitest';
import { decodeFrame, FrameType } from './frames';
import { type FrameSink, TunnelResetError, TunnelSession, TunnelStream } from './session';

/**
 * A sink standing in for a WebSocket: it holds what was sent as unsent bytes (its `bufferedAmount`) until the
 * test flushes it to the peer session, when each frame's send callback runs, as a socket's write callbacks do.
 */
function heldSink() {
  const held: { frame: Buffer; done: (error?: Error) => void }[] = [];
  let buffered = 0;
  let peer: TunnelSession | null = null;
  const sink: FrameSink = {
    send(frame, done) {
      held.push({ frame, done });
      buffered += frame.length;
    },
    bufferedAmount: () => buffered,
  };
  return {
    sink,
    connect: (session: TunnelSession) => {
      peer = session;
    },
    heldBytes: () => buffered,
    dataFrames: () => held.filter((h) => decodeFrame(h.frame)?.type === FrameType.data).length,
    /** Hands every held frame to the peer, then runs their callbacks. */
    flush() {
      const out = held.splice(0);
      for (const { frame } of out) peer?.receive(frame);
      for (const { frame, done } of out) {
        buffered -= frame.length;
        done();
      }
    },
  };
}

function pair() {
  const toHub = heldSink();
  const toCloud = heldSink();
  const opened: TunnelStream[] = [];
  const cloud = new TunnelSession(toHub.sink);
  const hub = new TunnelSession(toCloud.sink, { onOpen: (channel) => opened.push(new TunnelStream(channel)) });
  toHub.connect(hub);
  toCloud.connect(cloud);
  return { cloud, hub, toHub, toCloud, opened };
}

const open = { method: 'POST', url: '/', headers: [], remoteAddress: '127.0.0.1' };

describe('a tunnel stream’s writes', () => {
  it('go out back to back without waiting for each frame to reach the network', async () => {
    const { cloud, toHub } = pair();
    const stream = cloud.open(open);
    // Nothing is ever flushed: a write that waited for its frame's send callback would never finish.
    const written = new Promise<void>((resolve, reject) =>
      stream.write(Buffer.alloc(512 * 1024, 1), (error) => (error ? reject(error) : resolve())),
    );
    await written;
    expect(toHub.dataFrames()).toBe(8); // 64 KB slices
  });

  it('wait while the socket holds more than its high-water mark, and go on once it has drained', async () => {
    const { cloud, toHub, opened } = pair();
    const stream = cloud.open(open);
    let finished = false;
    stream.write(Buffer.alloc(3 * 1024 * 1024, 2), () => {
      finished = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    // Sending stopped just past 1 MB unsent, and the write is not done.
    expect(toHub.heldBytes()).toBeGreaterThan(1024 * 1024);
    expect(toHub.heldBytes()).toBeLessThan(1024 * 1024 + 70 * 1024);
    expect(finished).toBe(false);
    const received: Buffer[] = [];
    toHub.flush(); // delivers the open frame too
    const far = opened[0] as TunnelStream;
    far.on('data', (chunk: Buffer) => received.push(chunk));
    while (!finished) {
      toHub.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    toHub.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const body = Buffer.concat(received);
    expect(body.length).toBe(3 * 1024 * 1024);
    expect(body.every((byte) => byte === 2)).toBe(true);
  });

  it('of several streams take turns when the socket drains', async () => {
    const { cloud, toHub } = pair();
    const a = cloud.open(open);
    const b = cloud.open(open);
    const order: string[] = [];
    a.write(Buffer.alloc(2 * 1024 * 1024), () => order.push('a'));
    b.write(Buffer.alloc(64 * 1024), () => order.push('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    // One drain lets b's small write go before a's remaining megabyte.
    toHub.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order[0]).toBe('b');
  });
});

describe('a tunnel stream reset by its peer', () => {
  it('tells a writer still waiting for room, so a body piped into it does not stall', async () => {
    const { cloud, toHub, toCloud, opened } = pair();
    const stream = cloud.open(open);
    stream.on('error', () => {});
    const outcome = new Promise<Error | null | undefined>((resolve) => stream.write(Buffer.alloc(3 * 1024 * 1024), resolve));
    await new Promise((resolve) => setImmediate(resolve));
    toHub.flush(); // the hub learns of the stream, and gives up on it
    (opened[0] as TunnelStream).destroy();
    toCloud.flush();
    expect(await outcome).toBeInstanceOf(TunnelResetError);
    expect(cloud.size).toBe(0);
  });
});

describe('a whole exchange in few frames (tunnel protocol 2)', () => {
  /** Both sessions of a tunnel, delivering at once, counting the frame types each side sends. */
  function tunnel(peerProtocol: number) {
    const sent = { cloud: [] as number[], hub: [] as number[] };
    let cloud: TunnelSession | null = null;
    let hub: TunnelSession | null = null;
    const sink = (side: 'cloud' | 'hub'): FrameSink => ({
      send(frame, done) {
        sent[side].push(frame[0] as number);
        (side === 'cloud' ? hub : cloud)?.receive(frame);
        done();
      },
      bufferedAmount: () => 0,
    });
    const served: string[] = [];
    hub = new TunnelSession(sink('hub'), {
      peerProtocol,
      onOpen: (channel, request) => {
        channel.handler = {
          data: () => {},
          end: () => {
            served.push(`${request.method} ${request.url}`);
            channel.sendAnswer({ status: 200, statusText: 'OK', headers: ['content-type', 'text/plain'] }, 'zones…');
          },
          reset: () => {},
        };
      },
    });
    cloud = new TunnelSession(sink('cloud'), { peerProtocol });
    return { cloud, hub, sent, served };
  }

  function get(cloud: TunnelSession) {
    const answer = { status: 0, headers: [] as string[], body: '', ended: false };
    cloud.openChannel(
      { method: 'GET', url: '/zones', headers: ['Host', 'hub'], remoteAddress: '127.0.0.1' },
      {
        head: (head) => {
          answer.status = head.status;
          answer.headers = head.headers;
        },
        data: (chunk) => {
          answer.body += chunk.toString();
        },
        end: () => {
          answer.ended = true;
        },
        reset: () => {},
      },
      true,
    );
    return answer;
  }

  it('sends a request without a body as one frame, and the whole answer as one', () => {
    const { cloud, hub, sent, served } = tunnel(2);
    const answer = get(cloud);
    expect(served).toEqual(['GET /zones']);
    expect(answer).toEqual({ status: 200, headers: ['content-type', 'text/plain'], body: 'zones…', ended: true });
    expect(sent.cloud).toEqual([FrameType.request]);
    expect(sent.hub).toEqual([FrameType.answer]);
    expect([cloud.size, hub.size]).toEqual([0, 0]);
  });

  it('hands a whole answer at once to a handler that takes it so, and releases the stream', () => {
    const { cloud, hub } = tunnel(2);
    const answers: string[] = [];
    cloud.openChannel(
      { method: 'GET', url: '/zones', headers: [], remoteAddress: '127.0.0.1' },
      {
        answer: (head, body) => answers.push(`${head.status} ${body.toString()}`),
        data: () => answers.push('data'),
        end: () => answers.push('end'),
        reset: () => answers.push('reset'),
      },
      true,
    );
    expect(answers).toEqual(['200 zones…']);
    expect([cloud.size, hub.size]).toEqual([0, 0]);
  });

  it('keeps to the frames of protocol 1 with a peer that did not name 2', () => {
    const { cloud, hub, sent } = tunnel(1);
    const answer = get(cloud);
    expect(answer).toEqual({ status: 200, headers: ['content-type', 'text/plain'], body: 'zones…', ended: true });
    expect(sent.cloud).toEqual([FrameType.open, FrameType.end]);
    expect(sent.hub).toEqual([FrameType.head, FrameType.data, FrameType.end]);
    expect([cloud.size, hub.size]).toEqual([0, 0]);
  });

  it('refuses an answer frame that does not hold a head', () => {
    const { cloud } = tunnel(2);
    get(cloud); // stream 1, answered and released
    const channel = cloud.openChannel({ method: 'GET', url: '/', headers: [], remoteAddress: '127.0.0.1' }, null);
    channel.handler = { data: () => {}, end: () => {}, reset: () => {} };
    const bogus = Buffer.concat([
      Buffer.from([FrameType.answer, 0, 0, 0, channel.id]),
      Buffer.from([0, 0, 0, 9]),
      Buffer.from('{"st'),
    ]);
    expect(cloud.receive(bogus)).toBe(false);
  });
});
