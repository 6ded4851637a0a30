import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay on loopback standing for the network between the hubs and the cloud, so a test can take that
 * link down (every open and new connection is dropped) and bring it back, with both servers running untouched.
 */
export class LinkRelay {
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((incoming) => this.relay(incoming));
  private up = true;
  port = 0;

  constructor(readonly target: { host: string; port: number }) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return `http://127.0.0.1:${this.port}`;
  }

  /** Drops every connection now and refuses new ones until {@link restore}. */
  cut(): void {
    this.up = false;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.up = true;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(incoming: Socket) {
    if (!this.up) {
      incoming.destroy();
      return;
    }
    const outgoing = connect(this.target.port, this.target.host);
    for (const socket of [incoming, outgoing]) {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        incoming.destroy();
        outgoing.destroy();
      });
    }
    incoming.pipe(outgoing).pipe(incoming);
  }
}
