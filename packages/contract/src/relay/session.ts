import { Duplex } from 'node:stream';
import { decodeAnswer, decodeFrame, encodeAnswer, encodeFrame, FrameType, type OpenRequest, type ResponseHead } from './frames';

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

/** What a channel's owner learns from the peer. Frames arrive in order; none arrives after `reset`. */
export interface ChannelHandler {
  /** The hub's answer head (cloud side). */
  head?(head: ResponseHead): void;
  /**
   * The hub's whole answer at once (cloud side): its head, its body, and the end. Without this method the
   * handler gets them as `head`, `data` and `end`.
   */
  answer?(head: ResponseHead, body: Buffer): void;
  /** Bytes from the peer. Call {@link TunnelChannel.pausePeer} to stop more, {@link TunnelChannel.resumePeer} to go on. */
  data(chunk: Buffer): void;
  /** The peer sends no more bytes. */
  end(): void;
  /** The peer abandoned the stream, or the tunnel under it closed. Not called for the owner's own reset. */
  reset(error: TunnelResetError): void;
  /** Writes that waited (a write answered `false`) have all gone out. */
  drain?(): void;
}

type WriteDone = (error?: Error | null) => void;

/**
 * One stream of a tunnel, frame by frame: what is written goes to the peer as data frames, what the peer sends goes
 * to the {@link ChannelHandler}. The relay's HTTP requests and answers use it directly (no Node stream between the
 * tunnel and Node's request and response objects); {@link TunnelStream} makes one a Duplex for pipes.
 *
 * Backpressure holds end to end: the owner pauses the peer when its reader falls behind, and a peer's pause holds
 * this side's writes until it resumes. A stream that ended both ways is released by itself.
 */
export class TunnelChannel {
  handler: ChannelHandler | null = null;
  /** The peer asked us to stop sending data. */
  private heldByPeer = false;
  /** We asked the peer to stop. */
  private holdingPeer = false;
  private localEnded = false;
  private remoteEnded = false;
  /** Released (ended both ways) or reset: no frame goes out any more. */
  private closed = false;
  /** Writes not yet sent in full, in order; the first may be partly sent. */
  private queue: Array<{ chunk: Buffer; offset: number; done: WriteDone | undefined }> = [];
  /** An end asked for while writes were waiting: it goes after them. */
  private endQueued = false;
  /** Queued with the session for a turn once the socket drains. */
  private waitingTurn = false;
  /** A write answered `false`: the handler hears `drain` once the queue is empty. */
  private owesDrain = false;

  constructor(
    readonly id: number,
    private readonly session: TunnelSession,
  ) {}

  /** hub side: sends the answer's head (status and headers) before any data. */
  sendHead(head: ResponseHead): void {
    if (!this.closed) this.session.send(encodeFrame(FrameType.head, this.id, JSON.stringify(head)));
  }

  /**
   * hub side: the whole answer, its head, body (a string as UTF-8) and end. One frame when the peer reads
   * {@link FrameType.answer} and the body fits one slice that may go now; else a head, the body's data and an end.
   */
  sendAnswer(head: ResponseHead, body?: Buffer | string): void {
    if (this.closed || this.localEnded || this.endQueued) return;
    if (this.session.peerProtocol >= 2 && (body?.length ?? 0) <= SLICE_BYTES && this.mayGoNow()) {
      this.session.send(encodeAnswer(this.id, head, body));
      this.localEnded = true;
      if (this.remoteEnded) this.release();
      return;
    }
    this.sendHead(head);
    if (body !== undefined) this.write(body);
    this.end();
  }

  /**
   * Sends bytes (a string as UTF-8). Answers whether everything went out at once; otherwise the rest waits its
   * turn (a full tunnel, or the peer paused) and the handler hears `drain` when it has gone. `done` runs once the
   * bytes are handed to the tunnel (at once when they could be).
   *
   * A write of at most one slice goes as one frame (a string of at most a slice's length in characters, whatever
   * its length in bytes: it is encoded straight into its frame without being measured first).
   */
  write(chunk: Buffer | string, done?: WriteDone): boolean {
    if (this.closed || this.localEnded || this.endQueued) {
      done?.(new TunnelResetError('the stream is closed'));
      return false;
    }
    if (chunk.length === 0) {
      done?.();
      return true;
    }
    if (chunk.length <= SLICE_BYTES && this.mayGoNow()) {
      this.session.send(encodeFrame(FrameType.data, this.id, chunk));
      done?.();
      return true;
    }
    this.queue.push({ chunk: typeof chunk === 'string' ? Buffer.from(chunk) : chunk, offset: 0, done });
    this.flush();
    if (this.queue.length === 0) return true;
    this.owesDrain = true;
    return false;
  }

  /** Nothing waits before a new write, the peer lets us send and the tunnel has room. */
  private mayGoNow(): boolean {
    return this.queue.length === 0 && !this.heldByPeer && !this.session.congested();
  }

  /** No more bytes from this side (after those waiting). */
  end(): void {
    if (this.closed || this.localEnded || this.endQueued) return;
    if (this.queue.length > 0) {
      this.endQueued = true;
      return;
    }
    this.localEnded = true;
    this.session.send(encodeFrame(FrameType.end, this.id));
    if (this.remoteEnded) this.release();
  }

  /** @internal the end went with the open frame. */
  endedWithOpen(): void {
    this.localEnded = true;
  }

  /** Asks the peer to stop sending data (our reader is full). */
  pausePeer(): void {
    if (this.holdingPeer || this.closed || this.remoteEnded) return;
    this.holdingPeer = true;
    this.session.send(encodeFrame(FrameType.pause, this.id));
  }

  /** Lets a paused peer go on. */
  resumePeer(): void {
    if (!this.holdingPeer) return;
    this.holdingPeer = false;
    if (!this.closed && !this.remoteEnded) this.session.send(encodeFrame(FrameType.resume, this.id));
  }

  /** Abandons the stream: the peer is told, unless it already ended both ways. */
  reset(reason = 'closed'): void {
    if (this.closed) return;
    this.session.send(encodeFrame(FrameType.reset, this.id, reason));
    this.lose(this.release(), new TunnelResetError(reason));
  }

  /** @internal a frame of this stream arrived; answers `false` for one that is malformed. */
  receive(type: number, payload: Buffer): boolean {
    const handler = this.handler;
    if (!handler) {
      // Nobody took the stream: it cannot be served.
      this.reset('not served');
      return true;
    }
    switch (type) {
      case FrameType.head: {
        let head: ResponseHead;
        try {
          head = JSON.parse(payload.toString()) as ResponseHead;
        } catch {
          return false;
        }
        handler.head?.(head);
        return true;
      }
      case FrameType.answer: {
        const answer = decodeAnswer(payload);
        if (!answer) return false;
        if (handler.answer) {
          if (this.remoteEnded) return true;
          this.remoteEnded = true;
          handler.answer(answer.head, answer.body);
          if (this.localEnded && !this.closed) this.release();
          return true;
        }
        handler.head?.(answer.head);
        if (answer.body.length > 0 && !this.closed) this.receive(FrameType.data, answer.body);
        if (!this.closed) this.receive(FrameType.end, answer.body);
        return true;
      }
      case FrameType.data:
        if (!this.remoteEnded) handler.data(payload);
        return true;
      case FrameType.end:
        if (this.remoteEnded) return true;
        this.remoteEnded = true;
        handler.end();
        if (this.localEnded && !this.closed) this.release();
        return true;
      case FrameType.reset:
        this.fail(new TunnelResetError(payload.toString() || 'reset'));
        return true;
      case FrameType.pause:
        this.heldByPeer = true;
        return true;
      case FrameType.resume:
        this.heldByPeer = false;
        this.flush();
        return true;
    }
    return true;
  }

  /** @internal the peer reset the stream, or the tunnel closed. */
  fail(error: TunnelResetError): void {
    if (this.closed) return;
    const lost = this.release();
    this.handler?.reset(error);
    this.lose(lost, error);
  }

  /** Forgets the stream; answers the writes that still waited. */
  private release(): WriteDone[] {
    this.closed = true;
    this.session.forget(this.id);
    const lost: WriteDone[] = [];
    for (const write of this.queue) if (write.done) lost.push(write.done);
    this.queue = [];
    return lost;
  }

  /** Writes that waited are lost: their writers hear it (so a body piped in is not left stalled). */
  private lose(writers: WriteDone[], error: Error): void {
    for (const done of writers) done(error);
  }

  /** Sends what waits while the tunnel has room and the peer lets us. */
  private flush(): void {
    while (this.queue.length > 0 && !this.closed) {
      if (this.heldByPeer) return; // the peer's resume flushes again
      if (this.session.congested()) {
        if (!this.waitingTurn) {
          this.waitingTurn = true;
          this.session.whenDrained(() => this.turn());
        }
        return;
      }
      this.sendSlice();
    }
  }

  /**
   * A turn once the socket drained: one slice, so that waiting streams take turns and a big body does not starve
   * the others. Answers whether it wants another turn.
   */
  private turn(): boolean {
    this.waitingTurn = false;
    if (this.closed || this.heldByPeer || this.queue.length === 0) return false;
    this.sendSlice();
    if (this.queue.length === 0 || this.closed) return false;
    this.waitingTurn = true;
    return true;
  }

  private sendSlice(): void {
    const write = this.queue[0] as { chunk: Buffer; offset: number; done: WriteDone | undefined };
    const slice = write.chunk.subarray(write.offset, write.offset + SLICE_BYTES);
    write.offset += slice.length;
    this.session.send(encodeFrame(FrameType.data, this.id, slice));
    if (write.offset < write.chunk.length) return;
    this.queue.shift();
    write.done?.();
    if (this.queue.length > 0 || this.closed) return;
    if (this.endQueued) {
      this.endQueued = false;
      this.end();
    }
    if (this.owesDrain) {
      this.owesDrain = false;
      this.handler?.drain?.();
    }
  }
}

/**
 * One stream of a tunnel as a Node Duplex (an upgraded connection, the cloud's own calls): what is written goes to
 * the peer as data frames, what the peer sends is read, with the channel's backpressure.
 */
export class TunnelStream extends Duplex {
  constructor(readonly channel: TunnelChannel) {
    // A frame is at most one slice: one is buffered without pausing the peer at once.
    super({ allowHalfOpen: true, readableHighWaterMark: 2 * SLICE_BYTES });
    channel.handler = {
      head: (head) => this.emit('head', head),
      data: (chunk) => {
        if (!this.push(chunk)) channel.pausePeer();
      },
      end: () => this.push(null),
      reset: (error) => this.destroy(error),
    };
  }

  get id(): number {
    return this.channel.id;
  }

  /** hub side: sends the answer's head (status and headers) before any data. */
  sendHead(head: ResponseHead): void {
    this.channel.sendHead(head);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.channel.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.channel.end();
    callback();
  }

  override _read(): void {
    this.channel.resumePeer();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A stream that ended both ways is released already; anything else tells the peer to give up on it.
    this.channel.reset(error?.message ?? 'closed');
    callback(error);
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
  /** hub side: the cloud opened a stream for a request; the callee sets the channel's handler before returning. */
  onOpen?: (channel: TunnelChannel, request: OpenRequest) => void;
  /** The protocol the peer named (see {@link TUNNEL_PROTOCOL}); 1 unless told. */
  peerProtocol?: number;
}

/**
 * The streams of one tunnel. The cloud opens streams (`open`); the hub learns of them through `onOpen`. Frames of a
 * stream that is already gone are dropped: they were on their way when it closed.
 */
export class TunnelSession {
  private readonly channels = new Map<number, TunnelChannel>();
  private nextId = 1;
  private closed = false;
  /** Writes waiting for the socket to drain, in turn: each sends one slice and answers whether it has more. */
  private drainWaiters: Array<() => boolean> = [];
  /**
   * The protocol the peer speaks: from 2, requests without a body and whole answers go as one frame each. The hub
   * learns it when the cloud answers its upgrade, before any stream opens.
   */
  peerProtocol: number;

  constructor(
    private readonly sink: FrameSink,
    private readonly options: TunnelSessionOptions = {},
  ) {
    this.peerProtocol = options.peerProtocol ?? 1;
  }

  /** Streams open now. */
  get size(): number {
    return this.channels.size;
  }

  /**
   * cloud side: opens a stream carrying `request` to the hub, its frames going to `handler`. `end` sends the end
   * of the request with the open frame (a request without a body).
   */
  openChannel(request: OpenRequest, handler: ChannelHandler | null = null, end = false): TunnelChannel {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffff_fffe ? 1 : this.nextId + 1;
    const channel = new TunnelChannel(id, this);
    channel.handler = handler;
    this.channels.set(id, channel);
    if (this.closed) {
      // Told on the next turn, as a socket's failure would be, once the caller has set up its handling.
      process.nextTick(() => channel.fail(new TunnelResetError('the tunnel is closed')));
      return channel;
    }
    if (end && this.peerProtocol >= 2) {
      channel.endedWithOpen();
      this.send(encodeFrame(FrameType.request, id, JSON.stringify(request)));
    } else {
      this.send(encodeFrame(FrameType.open, id, JSON.stringify(request)));
      if (end) channel.end();
    }
    return channel;
  }

  /** cloud side: opens a stream carrying `request` to the hub, as a Duplex. */
  open(request: OpenRequest): TunnelStream {
    return new TunnelStream(this.openChannel(request));
  }

  /** Handles one message from the peer; answers `false` for bytes that are not a frame (the peer misbehaves). */
  receive(bytes: Buffer): boolean {
    const frame = decodeFrame(bytes);
    if (!frame) return false;
    if (frame.type === FrameType.open || frame.type === FrameType.request) {
      if (this.channels.has(frame.stream) || !this.options.onOpen) return false;
      let request: OpenRequest;
      try {
        request = JSON.parse(frame.payload.toString()) as OpenRequest;
      } catch {
        return false;
      }
      const channel = new TunnelChannel(frame.stream, this);
      this.channels.set(frame.stream, channel);
      this.options.onOpen(channel, request);
      return frame.type === FrameType.open || channel.receive(FrameType.end, frame.payload);
    }
    return this.channels.get(frame.stream)?.receive(frame.type, frame.payload) ?? true;
  }

  /** The tunnel is gone: every stream fails. */
  close(reason: string): void {
    this.closed = true;
    this.drainWaiters = [];
    for (const channel of [...this.channels.values()]) channel.fail(new TunnelResetError(reason));
    this.channels.clear();
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
    this.channels.delete(id);
  }
}
