import type { Clock } from '@hearth/contract/clock';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** A cloud node holding tunnels: its id (one per process) and the internal address other nodes forward to. */
export interface TunnelHolder {
  readonly node: string;
  readonly address: string;
}

/**
 * Which cloud node holds each hub's tunnel. A tunnel is a live socket and lives in one process; the directory is
 * the shared fact of where it is, so a node that receives a request for a hub whose tunnel landed elsewhere can
 * find the node to hand it to. Entries expire unless refreshed (the holder refreshes them on every heartbeat),
 * so a node that dies without saying so stops being named within `ttlMs`.
 */
export interface TunnelDirectory {
  /** Records (or refreshes) that `holder` holds the tunnel of `hubId`. */
  claim(hubId: string, holder: TunnelHolder, ttlMs: number): Promise<void>;
  /** Forgets the entry, unless another node has claimed the hub since. */
  release(hubId: string, node: string): Promise<void>;
  /** The node holding the hub's tunnel, or `null` when no node does. */
  locate(hubId: string): Promise<TunnelHolder | null>;
  close(): Promise<void>;
}

/** The directory of a cloud that runs as one process. */
export class MemoryTunnelDirectory implements TunnelDirectory {
  private readonly entries = new Map<string, { holder: TunnelHolder; until: number }>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  async claim(hubId: string, holder: TunnelHolder, ttlMs: number): Promise<void> {
    this.entries.set(hubId, { holder, until: this.clock.now() + ttlMs });
  }

  async release(hubId: string, node: string): Promise<void> {
    if (this.entries.get(hubId)?.holder.node === node) this.entries.delete(hubId);
  }

  async locate(hubId: string): Promise<TunnelHolder | null> {
    const entry = this.entries.get(hubId);
    if (!entry) return null;
    if (entry.until <= this.clock.now()) {
      this.entries.delete(hubId);
      return null;
    }
    return entry.holder;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

// Deletes the entry only while it still names this node: a hub that already reconnected elsewhere keeps its entry.
const RELEASE = `
local value = redis.call('GET', KEYS[1])
if value and cjson.decode(value).node == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The directory of a cloud of several nodes, in the Redis they share: one key a hub (`SET … PX ttl`), whose value
 * names the holder. When Redis is away, claims fail quietly (the next heartbeat claims again) and lookups find
 * nothing, so a node still serves the tunnels it holds itself.
 */
export class RedisTunnelDirectory implements TunnelDirectory {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {
    // Fail fast while Redis is away rather than hold a request behind it.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    this.redis.on('error', () => {}); // each command reports its own failure
  }

  async claim(hubId: string, holder: TunnelHolder, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + hubId, JSON.stringify(holder), 'PX', ttlMs);
  }

  async release(hubId: string, node: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.prefix + hubId, node);
  }

  async locate(hubId: string): Promise<TunnelHolder | null> {
    const value = await this.redis.get(this.prefix + hubId).catch((error: unknown) => {
      // Answered as a hub no node holds (offline) rather than held behind Redis; the log says it was Redis, not the hub.
      this.log.warn({ err: error, hubId }, 'relay: looking up the node holding the hub’s tunnel in Redis failed');
      return null;
    });
    if (!value) return null;
    try {
      const holder = JSON.parse(value) as TunnelHolder;
      return typeof holder.node === 'string' && typeof holder.address === 'string' ? holder : null;
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
