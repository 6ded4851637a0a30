import { createServer, type Server, type Socket } from 'node:net';
import { ZWaveSerialFrameType, type ZWaveSerialStream } from '@zwave-js/serial';

/** Serial API framing: a lone ACK, NAK or CAN byte, or SOF, a length byte, and that many bytes more. */
const SOF = 0x01;
const SINGLE_BYTE_HEADERS = new Set([0x06, 0x15, 0x18]);

/**
 * Cuts the host's byte stream into whole Serial API frames. TCP merges and splits writes as it likes, while the
 * mock controller parses each write it gets as exactly one frame (as a real UART driver hands it over).
 */
export class SerialFrameSplitter {
  #pending = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.#pending = Buffer.concat([this.#pending, chunk]);
    const frames: Buffer[] = [];
    for (;;) {
      const first = this.#pending[0];
      if (first === undefined) break;
      if (SINGLE_BYTE_HEADERS.has(first)) {
        frames.push(this.#pending.subarray(0, 1));
        this.#pending = this.#pending.subarray(1);
      } else if (first === SOF) {
        const length = this.#pending[1];
        if (length === undefined || this.#pending.length < length + 2) break;
        frames.push(this.#pending.subarray(0, length + 2));
        this.#pending = this.#pending.subarray(length + 2);
      } else {
        // A byte outside any frame: a real controller drops it too.
        this.#pending = this.#pending.subarray(1);
      }
    }
    return frames;
  }
}

/**
 * Serves a mock controller's serial port over TCP to one host at a time, as zwave-js opens `tcp://host:port`.
 * Answers the listening server once it is bound.
 */
export async function serveSerialOverTcp(serial: ZWaveSerialStream, host: string, port: number): Promise<Server> {
  let client = null as Socket | null;
  // The controller's frames go to whichever host is connected; without one they are dropped, as on a bare UART.
  void (async () => {
    for await (const frame of serial.readable) {
      if (frame.type !== ZWaveSerialFrameType.SerialAPI || !client) continue;
      client.write(typeof frame.data === 'number' ? Uint8Array.from([frame.data]) : frame.data);
    }
  })().catch((error: unknown) => console.error('Z-Wave mock: reading the controller failed', error));

  const server = createServer((socket) => {
    if (client) {
      socket.destroy();
      return;
    }
    client = socket;
    socket.setNoDelay(true);
    const splitter = new SerialFrameSplitter();
    let writing = Promise.resolve();
    socket.on('data', (chunk) => {
      for (const frame of splitter.push(chunk)) {
        writing = writing
          .then(() => serial.writeAsync(Uint8Array.from(frame)))
          .catch((error: unknown) => console.error('Z-Wave mock: passing a host frame to the controller failed', error));
      }
    });
    socket.on('close', () => {
      if (client === socket) client = null;
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, resolve);
  });
  return server;
}
