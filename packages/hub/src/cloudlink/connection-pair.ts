import { Duplex } from 'node:stream';

type Connection = Duplex & { peer: Connection; pendingWrite: (() => void) | null };

/**
 * Two ends of an in-memory connection, like a socket pair: bytes written to one are read from the other, with
 * backpressure. The hub hands one end to its own HTTP server as a connection (`server.emit('connection', end)`,
 * which Node accepts for any Duplex) and speaks HTTP on the other, so a relayed request runs through the same
 * server, hooks, limits and socket.io upgrade as a local one without a loopback socket; `remoteAddress` is the
 * relayed client's, so the hub's per-address limits count that client rather than the relay.
 */
export function connectionPair(remoteAddress: string): [client: Duplex, server: Duplex] {
  const make = (): Connection => {
    const end = new Duplex({
      write(chunk, _encoding, callback) {
        if (end.peer.push(chunk)) callback();
        else end.peer.pendingWrite = callback;
      },
      final(callback) {
        end.peer.push(null);
        callback();
      },
      read() {
        const waiting = end.pendingWrite;
        end.pendingWrite = null;
        waiting?.();
      },
      destroy(error, callback) {
        if (!end.peer.destroyed) end.peer.destroy();
        callback(error);
      },
    }) as Connection;
    end.pendingWrite = null;
    // What HTTP servers and WebSocket libraries call on a socket; nothing to do in memory.
    const socketLike = end as unknown as Record<string, unknown>;
    for (const method of ['setTimeout', 'setNoDelay', 'setKeepAlive', 'ref', 'unref']) socketLike[method] = () => end;
    return end;
  };
  const client = make();
  const server = make();
  client.peer = server;
  server.peer = client;
  Object.assign(server, { remoteAddress, remotePort: 0, remoteFamily: remoteAddress.includes(':') ? 'IPv6' : 'IPv4' });
  return [client, server];
}
