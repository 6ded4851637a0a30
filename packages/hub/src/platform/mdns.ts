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

/** How many names the hub tries when its own is taken on the network, before it advertises under the last anyway. */
const MAX_NAME_ATTEMPTS = 10;

/** bonjour-service's probe (its registry's), which says whether a name is already answered on the network. */
interface Probing {
  probe(mdns: unknown, service: { fqdn: string; activated: boolean }, done: (taken: boolean) => void): void;
}

/**
 * A hub bound to one address is advertised only at it: bonjour-service answers with every non-loopback interface,
 * and reads the records each time it announces (and for the goodbye), so narrowing them here covers every answer.
 */
function answerAtOnly(service: Service, host: string, address: string): void {
  const all = service.records.bind(service);
  service.records = () => [
    ...all().filter((record) => record.type !== 'A' && record.type !== 'AAAA'),
    { name: host, type: 'A', ttl: 120, data: address },
  ];
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
  const txt = {
    id: config.id,
    name: config.name,
    model: config.model,
    version: config.softwareVersion,
    apiVersion: '3',
    address,
    port: String(port),
  };
  let service: Service | null = null;
  let stopping = false;
  // bonjour-service probes a name before it announces it, but on a conflict it only stops the service and prints a
  // bare error to the console: the hub would go unadvertised without a word. So the hub probes itself (with the
  // library's own probe) and, as RFC 6762 § 9 asks, takes the next name, "<id> (2)", "<id> (3)" …, saying so in its
  // log. Clients find a hub by the id in its TXT record, which stays the same.
  const registry = (bonjour as unknown as { registry: Probing }).registry;
  const mdns = (bonjour as unknown as { server: { mdns: unknown } }).server.mdns;
  const publish = (attempt: number) => {
    const name = attempt === 1 ? config.id : `${config.id} (${attempt})`;
    registry.probe(mdns, { fqdn: `${name}._${MDNS_SERVICE_TYPE}._tcp.local`, activated: true }, (taken) => {
      if (stopping) return;
      if (taken && attempt < MAX_NAME_ATTEMPTS) {
        const next = `${config.id} (${attempt + 1})`;
        log.warn(
          { name, next },
          `mDNS: "${name}" is already advertised on the network (this hub running twice?); advertising as "${next}"`,
        );
        publish(attempt + 1);
        return;
      }
      if (taken) log.warn({ name }, `mDNS: "${name}" is taken too; advertising under it anyway`);
      // The library probes once more (a race with a newcomer is still caught, if only by its console line) and
      // reads the records when it announces, after this turn: narrowing them right after publishing covers them.
      service = bonjour.publish({ name, type: MDNS_SERVICE_TYPE, port, host, disableIPv6: boundToOne, txt });
      if (boundToOne) answerAtOnly(service, host, address);
    });
  };
  publish(1);
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
        stopping = true;
        if (service?.stop) service.stop(done);
        else done();
      });
      return stopped;
    },
  };
}
