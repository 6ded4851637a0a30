/**
 * Which cloud node holds each hub's tunnel. A tunnel is a live socket and lives in one process; the directory is
 * the shared fact of where it is, so a node that receives a request for a hub whose tunnel landed elsewhere can
 * find the node to hand it to. Entries expire unless refreshed (the holder refreshes them on every heartbeat),
 * so a node that dies without saying so stops being named within `ttlMs`.
 */
export interface TunnelDirectory {
  /** Records (or refreshes) that `node` holds the tunnel of `hubId`. */
  claim(hubId: string, node: string, ttlMs: number): Promise<void>;
  /** Forgets the entry, unless another node has claimed the hub since. */
  release(hubId: string, node: string): Promise<void>;
  /** The node holding the hub's tunnel, or `null` when no node does. */
  locate(hubId: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * The directory of a cloud that runs as one process. Several nodes share a directory in Redis instead (same
 * interface: `SET key node PX ttl`, a compare-and-delete on release, `GET` to locate).
 */
export class MemoryTunnelDirectory implements TunnelDirectory {
  private readonly entries = new Map<string, { node: string; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async claim(hubId: string, node: string, ttlMs: number): Promise<void> {
    this.entries.set(hubId, { node, until: this.now() + ttlMs });
  }

  async release(hubId: string, node: string): Promise<void> {
    if (this.entries.get(hubId)?.node === node) this.entries.delete(hubId);
  }

  async locate(hubId: string): Promise<string | null> {
    const entry = this.entries.get(hubId);
    if (!entry) return null;
    if (entry.until <= this.now()) {
      this.entries.delete(hubId);
      return null;
    }
    return entry.node;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
