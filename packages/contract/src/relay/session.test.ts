import { describe, expect, it } from 'vitest';
import { decodeFrame, FrameType } from './frames';
import { type FrameSink, TunnelSession, type TunnelStream } from './session';

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
  const hub = new TunnelSession(toCloud.sink, { onOpen: (stream) => opened.push(stream) });
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
