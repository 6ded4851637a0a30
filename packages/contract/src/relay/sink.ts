import type { FrameSink } from './session';

/** The parts of a `ws` WebSocket a sink uses (the contract does not depend on `ws`). */
interface FrameSocket {
  send(data: Buffer, options: { binary: boolean }, done: (error?: Error) => void): void;
  readonly bufferedAmount: number;
}

/**
 * A tunnel's frames over a WebSocket whose network socket this side holds. Each frame is one WebSocket message,
 * and every frame sent in one turn of the event loop leaves in one write: the socket is corked at the first and
 * uncorked once the turn's I/O is done. Under load that is one system call for the head, body and end of many
 * answers instead of one for each frame.
 */
export function socketSink(ws: FrameSocket, socket: { cork(): void; uncork(): void }): FrameSink {
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  return {
    send(frame, done) {
      if (!corked) {
        corked = true;
        socket.cork();
        setImmediate(uncork);
      }
      ws.send(frame, { binary: true }, done);
    },
    bufferedAmount: () => ws.bufferedAmount,
  };
}
