import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Bonjour, type Service } from 'bonjour-service';
import type { HubConfig } from '../config';

/** DNS-SD service type a hub advertises: `_homey._tcp.local`. */
export const MDNS_SERVICE_TYPE = 'homey';

/** The host name clients resolve for a hub unless its cloud record gives another (`wire-protocol.md`, Discovery). */
export const mdnsHostName = (hubId: string): string => `homey-${hubId}.local`;

interface Logger {
  warn(object: object, message: string): void;
}

export interface Advertisement {
  /** `homey-<id>.local`: answers A queries with {@link address}. */
  readonly host: string;
  /** The IPv4 address advertised for the hub. */
  readonly address: string;
  /** Says goodbye on the network (records with TTL 0) and closes the multicast socket. */
  stop(): Promise<void>;
}

const wildcardHosts = new Set(['0.0.0.0', '::', '']);

/** The first IPv4 address other machines can reach this one at, or loopback when there is none. */
function lanAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const entry of addresses ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return '127.0.0.1';
}

/**
 * Advertises the hub on the local network over multicast DNS (bonjour-service): the service
 * `<id>._homey._tcp.local` on the hub's HTTP port, with TXT `id`, `name`, `model`, `version`, `apiVersion`,
 * `address` and `port`, and the host `homey-<id>.local` that clients resolve. A hub listening on every interface
 * is advertised at each of the machine's addresses; a hub bound to one address only at that one, since no other
 * would reach it.
 */
export function advertiseHub(config: HubConfig, port: number, log: Logger): Advertisement {
  const host = mdnsHostName(config.id);
  const boundToOne = isIPv4(config.host) && !wildcardHosts.has(config.host);
  const address = boundToOne ? config.host : lanAddress();
  const bonjour = new Bonjour({}, (error: Error) => log.warn({ err: error }, 'mDNS advertisement failed'));
  // multicast-dns emits socket errors (no multicast route, port refused) on its instance; without a listener
  // they would take the hub down, and a hub without mDNS is still reachable at its other addresses.
  (bonjour as unknown as { server: { mdns: NodeJS.EventEmitter } }).server.mdns.on('error', (error: Error) =>
    log.warn({ err: error }, 'mDNS socket error'),
  );
  const service: Service = bonjour.publish({
    name: config.id,
    type: MDNS_SERVICE_TYPE,
    port,
    host,
    disableIPv6: boundToOne,
    txt: {
      id: config.id,
      name: config.name,
      model: config.model,
      version: config.softwareVersion,
      apiVersion: '3',
      address,
      port: String(port),
    },
  });
  if (boundToOne) {
    // bonjour-service answers with every non-loopback interface; the records are read when the service is
    // announced (after probing), so narrowing them here takes effect for every answer and the goodbye.
    const all = service.records.bind(service);
    service.records = () => [
      ...all().filter((record) => record.type !== 'A' && record.type !== 'AAAA'),
      { name: host, type: 'A', ttl: 120, data: address },
    ];
  }
  let stopped: Promise<void> | null = null;
  return {
    host,
    address,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        let closed = false;
        const done = () => {
          if (closed) return;
          closed = true;
          clearTimeout(timer);
          bonjour.destroy(() => resolve());
        };
        // The goodbye is one multicast send; never let a stuck socket hold the hub's shutdown.
        const timer = setTimeout(done, 1000);
        service.stop?.(done);
      });
      return stopped;
    },
  };
}
