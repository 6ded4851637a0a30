import { Duplex } from 'node:stream';
import { decodeFrame, encodeFrame, FrameType, type OpenRequest, type ResponseHead } from './frames';

/** Where a session's frames go: one binary WebSocket message each. */
export interface FrameSink {
  /** Sends one frame; `done` runs once it is handed to the network. */
  send(frame: Buffer, done: (error?: Error) => void): void;
  /** Bytes sent but not yet handed to the network (a WebSocket's `bufferedAmount`). */
  bufferedAmount(): number;
}

/** Larger writes are cut so one big body cannot hold the tunnel while other streams wait. */
const SLICE_BYTES = 64 * 1024;
/**
 * Writes go on without waiting while the tunnel's socket holds less than this; above it, they wait until it has
 * drained below {@link LOW_WATER_BYTES}. Frames are pipelined, not acknowledged one by one: waiting for each
 * frame's send callback serialised every stream behind the socket's flushes.
 */
const HIGH_WATER_BYTES = 1024 * 1024;
const LOW_WATER_BYTES = 256 * 1024;

/**
 * One stream of a tunnel as a Node Duplex: what is written goes to the peer as data frames, what the peer sends
 * is read. Backpressure holds end to end: when this side's reader falls behind, the peer is told to pause, and a
 * peer's pause holds this side's writes until it resumes.
 */
export class TunnelStream extends Duplex {
  /** The peer asked us to stop sending data. */
  private heldByPeer = false;
  private heldWrite: (() => void) | null = null;
  /** We asked the peer to stop (our read buffer is full). */
  private holdingPeer = false;
  private localEnded = false;
  private remoteEnded = false;
  private resetByPeer = false;

  constructor(
    readonly id: number,
    private readonly session: TunnelSession,
  ) {
    super({ allowHalfOpen: true });
  }

  /** hub side: sends the answer's head (status and headers) before any data. */
  sendHead(head: ResponseHead): void {
    this.session.send(encodeFrame(FrameType.head, this.id, JSON.stringify(head)));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    let offset = 0;
    /** Sends the next slice; answers whether more are left. */
    const sendSlice = (): boolean => {
      const slice = chunk.subarray(offset, offset + SLICE_BYTES);
      offset += slice.length;
      this.session.send(encodeFrame(FrameType.data, this.id, slice));
      if (offset < chunk.length) return true;
      callback();
      return false;
    };
    // Slices go out back to back while the tunnel has room. When it is full the write waits its turn: once the
    // socket drains, the waiting streams send a slice each in rotation, so a big body does not starve the others.
    const run = (): void => {
      this.heldWrite = null;
      while (!this.destroyed) {
        if (this.heldByPeer) {
          this.heldWrite = run;
          return;
        }
        if (this.session.congested()) {
          this.session.whenDrained(() => {
            if (this.destroyed) return false;
            if (this.heldByPeer) {
              this.heldWrite = run;
              return false;
            }
            return sendSlice();
          });
          return;
        }
        if (!sendSlice()) return;
      }
    };
    if (chunk.length === 0) callback();
    else run();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.localEnded = true;
    this.session.send(encodeFrame(FrameType.end, this.id));
    callback();
  }

  override _read(): void {
    if (!this.holdingPeer) return;
    this.holdingPeer = false;
    this.session.send(encodeFrame(FrameType.resume, this.id));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A stream that ended both ways closed cleanly; anything else tells the peer to give up on it.
    if (!this.resetByPeer && !(this.localEnded && this.remoteEnded))
      this.session.send(encodeFrame(FrameType.reset, this.id, error?.message ?? 'closed'));
    this.session.forget(this.id);
    this.heldWrite = null;
    callback(error);
  }

  /** @internal a frame of this stream arrived. */
  receive(type: number, payload: Buffer): void {
    switch (type) {
      case FrameType.head:
        this.emit('head', JSON.parse(payload.toString()) as ResponseHead);
        return;
      case FrameType.data:
        if (!this.push(payload) && !this.holdingPeer) {
          this.holdingPeer = true;
          this.session.send(encodeFrame(FrameType.pause, this.id));
        }
        return;
      case FrameType.end:
        this.remoteEnded = true;
        this.push(null);
        return;
      case FrameType.reset:
        this.resetByPeer = true;
        this.destroy(new TunnelResetError(payload.toString() || 'reset'));
        return;
      case FrameType.pause:
        this.heldByPeer = true;
        return;
      case FrameType.resume: {
        this.heldByPeer = false;
        const write = this.heldWrite;
        this.heldWrite = null;
        write?.();
        return;
      }
    }
  }
}

/** The peer abandoned a stream, or the tunnel under it closed. */
export class TunnelResetError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TunnelResetError';
  }
}

export interface TunnelSessionOptions {
  /** hub side: the cloud opened a stream for a request. */
  onOpen?: (stream: TunnelStream, request: OpenRequest) => void;
}

/**
 * The streams of one tunnel. The cloud opens streams (`open`); the hub learns of them through `onOpen`. Frames of a
 * stream that is already gone are dropped: they were on their way when it closed.
 */
export class TunnelSession {
  private readonly streams = new Map<number, TunnelStream>();
  private nextId = 1;
  private closed = false;
  /** Writes waiting for the socket to drain, in turn: each sends one slice and answers whether it has more. */
  private drainWaiters: Array<() => boolean> = [];

  constructor(
    private readonly sink: FrameSink,
    private readonly options: TunnelSessionOptions = {},
  ) {}

  /** Streams open now. */
  get size(): number {
    return this.streams.size;
  }

  /** cloud side: opens a stream carrying `request` to the hub. */
  open(request: OpenRequest): TunnelStream {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffff_fffe ? 1 : this.nextId + 1;
    const stream = new TunnelStream(id, this);
    this.streams.set(id, stream);
    if (this.closed) stream.destroy(new TunnelResetError('the tunnel is closed'));
    else this.send(encodeFrame(FrameType.open, id, JSON.stringify(request)));
    return stream;
  }

  /** Handles one message from the peer; answers `false` for bytes that are not a frame. */
  receive(bytes: Buffer): boolean {
    const frame = decodeFrame(bytes);
    if (!frame) return false;
    if (frame.type === FrameType.open) {
      if (this.streams.has(frame.stream) || !this.options.onOpen) return false;
      let request: OpenRequest;
      try {
        request = JSON.parse(frame.payload.toString()) as OpenRequest;
      } catch {
        return false;
      }
      const stream = new TunnelStream(frame.stream, this);
      this.streams.set(frame.stream, stream);
      this.options.onOpen(stream, request);
      return true;
    }
    this.streams.get(frame.stream)?.receive(frame.type, frame.payload);
    return true;
  }

  /** The tunnel is gone: every stream fails. */
  close(reason: string): void {
    this.closed = true;
    this.drainWaiters = [];
    for (const stream of [...this.streams.values()]) {
      stream.destroy(new TunnelResetError(reason));
    }
    this.streams.clear();
  }

  /** @internal */
  send(frame: Buffer): void {
    if (this.closed) return;
    this.sink.send(frame, this.sent);
  }

  /** @internal whether the socket holds so much unsent that writers should wait. */
  congested(): boolean {
    return this.sink.bufferedAmount() > HIGH_WATER_BYTES;
  }

  /** @internal queues a writer for when the socket has drained (dropped when the tunnel closes: its streams fail). */
  whenDrained(turn: () => boolean): void {
    if (!this.closed) this.drainWaiters.push(turn);
  }

  /** A frame reached the network: below the low-water mark, waiting writers send in rotation until it is full. */
  private readonly sent = (): void => {
    if (this.drainWaiters.length === 0 || this.sink.bufferedAmount() > LOW_WATER_BYTES) return;
    while (this.drainWaiters.length > 0 && !this.congested()) {
      const turn = this.drainWaiters.shift() as () => boolean;
      if (turn()) this.drainWaiters.push(turn);
    }
  };

  /** @internal */
  forget(id: number): void {
    this.streams.delete(id);
  }
}
