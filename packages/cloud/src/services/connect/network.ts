import { clientAddressOf } from '@hearth/contract/fastify';
import { sharedSecret } from '../../platform/cluster/secrets';
import type { CloudContext } from '../../platform/context';
import { MemoryTunnelDirectory, RedisTunnelDirectory, type TunnelDirectory } from './directory';
import { NodeForwarder } from './forward';
import { Relay } from './relay';
import { TunnelHost } from './tunnels';

const DEFAULTS = {
  heartbeatMs: 15_000,
  requestsPerMinute: 6000,
  maxStreams: 256,
  // Strangers' share: a discovery ping now and then per client, well below what the household's own apps use.
  anonymousPerAddressPerMinute: 120,
  anonymousPerMinute: 1200,
  anonymousMaxStreams: 32,
  // A household's phones, tablets and browser tabs each hold one realtime socket; an address holds a few.
  maxUpgrades: 64,
  upgradesPerAddress: 8,
  bodyTimeoutMs: 30_000,
};

/**
 * A hub's relay origin: `CLOUD_CONNECT_URL` with `{id}` replaced, else `<id>.connect.localhost` on the cloud's own
 * scheme and port (browsers resolve every `*.localhost` name to this machine).
 */
export function relayOrigin(context: CloudContext, hubId: string, port: number): string {
  const template = context.config.connect?.url;
  if (template) return template.replace('{id}', hubId).replace(/\/$/, '');
  return `${new URL(context.config.publicUrl).protocol}//${hubId}.connect.localhost:${port}`;
}

export function hostSuffix(context: CloudContext): string {
  const template = context.config.connect?.url;
  return template ? new URL(template.replace('{id}', 'x')).hostname.slice(2) : 'connect.localhost';
}

/**
 * Where other nodes reach this one: `CLOUD_NODE_URL`, else the address it listens on (a wildcard listen is
 * reached on loopback, which suits nodes on one machine; nodes on several machines set it).
 */
function nodeAddress(context: CloudContext, port: number): string {
  const configured = context.config.connect?.nodeUrl;
  if (configured) return configured.replace(/\/$/, '');
  const host = context.config.host;
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}

/**
 * The relay of one cloud and what it runs on: the tunnels hubs keep to this node, the directory saying which node
 * holds whose tunnel, and the forwarder to the other nodes. Built once per cloud by the composition root: the
 * connect service serves it, other services (webhook deliveries) call hubs through it.
 */
export interface RelayNetwork {
  readonly relay: Relay;
  readonly tunnels: TunnelHost;
  readonly directory: TunnelDirectory;
  /** Tells the network the port the cloud listens on, once it does (relay origins default to it). */
  listeningOn(port: () => number): void;
  close(): Promise<void>;
}

export function createRelayNetwork(context: CloudContext): RelayNetwork {
  const settings = { ...DEFAULTS, ...context.config.connect };
  // Nodes on one database schema are one cloud and share one directory, as they share their limits.
  const { redisUrl, databaseSchema } = context.config;
  const directory = redisUrl
    ? new RedisTunnelDirectory(redisUrl, `hearth:tunnels:${databaseSchema}:`, context.log)
    : new MemoryTunnelDirectory(context.clock);
  let key: Promise<Buffer> | null = null;
  const clientAddress = clientAddressOf(context.config.trustProxy);
  const forwarder = new NodeForwarder(
    () => {
      key ??= sharedSecret(context.database, 'relay-forward');
      key.catch(() => {
        // Asked again on the next forward: a database that did not answer once is not remembered as a failure.
        key = null;
      });
      return key;
    },
    clientAddress,
    context.clock,
  );
  let port = () => context.config.port;
  const tunnels = new TunnelHost(context, directory, {
    heartbeatMs: settings.heartbeatMs,
    address: () => nodeAddress(context, port()),
    // The hub's record names its relay origin, so clients find it there (the `cloud` discovery strategy).
    onConnect: async (hubId) => {
      const remoteUrl = relayOrigin(context, hubId, port());
      await context.database.db
        .updateTable('hubs')
        .set({ remote_url: remoteUrl, updated_at: new Date(context.clock.now()) })
        .where('id', '=', hubId)
        .where((eb) => eb.or([eb('remote_url', 'is', null), eb('remote_url', '!=', remoteUrl)]))
        .execute();
    },
  });
  const relay = new Relay(
    tunnels,
    context.limits,
    {
      hostSuffix: hostSuffix(context),
      requestsPerMinute: settings.requestsPerMinute,
      maxStreams: settings.maxStreams,
      anonymousPerAddressPerMinute: settings.anonymousPerAddressPerMinute,
      anonymousPerMinute: settings.anonymousPerMinute,
      anonymousMaxStreams: settings.anonymousMaxStreams,
      maxUpgrades: settings.maxUpgrades,
      upgradesPerAddress: settings.upgradesPerAddress,
      bodyTimeoutMs: settings.bodyTimeoutMs,
      clientAddress,
    },
    directory,
    forwarder,
  );
  relay.log = context.log;
  return {
    relay,
    tunnels,
    directory,
    listeningOn(listening) {
      port = listening;
    },
    async close() {
      await tunnels.stop();
      forwarder.close();
      await directory.close();
    },
  };
}
