import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { clientAddressOf } from '@hearth/contract/fastify';
import { TUNNEL_PATH } from '@hearth/contract/relay';
import { sharedSecret } from '../../platform/cluster/secrets';
import type { CloudContext, CloudService } from '../../platform/context';
import { connectImplementations } from './calls';
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

function hostSuffix(context: CloudContext): string {
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

interface State {
  directory: TunnelDirectory;
  forwarder: NodeForwarder;
  tunnels: TunnelHost;
  relay: Relay;
  /** The port the cloud listens on, once it does (relay origins default to it). */
  port: () => number;
}

const states = new WeakMap<CloudContext, State>();

/** One relay per cloud: its operations and its front door share the tunnels. */
function stateOf(context: CloudContext): State {
  const state = states.get(context);
  if (state) return state;
  const settings = { ...DEFAULTS, ...context.config.connect };
  // Nodes on one database schema are one cloud and share one directory, as they share their limits.
  const { redisUrl, databaseSchema } = context.config;
  const directory = redisUrl
    ? new RedisTunnelDirectory(redisUrl, `hearth:tunnels:${databaseSchema}:`)
    : new MemoryTunnelDirectory();
  let key: Promise<Buffer> | null = null;
  const clientAddress = clientAddressOf(context.config.trustProxy);
  const forwarder = new NodeForwarder(() => {
    key ??= sharedSecret(context.database, 'relay-forward');
    key.catch(() => {
      key = null;
    });
    return key;
  }, clientAddress);
  const created: State = {
    directory,
    forwarder,
    port: () => context.config.port,
    tunnels: new TunnelHost(context, directory, {
      heartbeatMs: settings.heartbeatMs,
      address: () => nodeAddress(context, created.port()),
      // The hub's record names its relay origin, so clients find it there (the `cloud` discovery strategy).
      onConnect: async (hubId) => {
        const remoteUrl = relayOrigin(context, hubId, created.port());
        await context.database.db
          .updateTable('hubs')
          .set({ remote_url: remoteUrl, updated_at: new Date() })
          .where('id', '=', hubId)
          .where((eb) => eb.or([eb('remote_url', 'is', null), eb('remote_url', '!=', remoteUrl)]))
          .execute();
      },
    }),
    relay: null as unknown as Relay,
  };
  created.relay = new Relay(
    created.tunnels,
    context.limits,
    {
      hostSuffix: hostSuffix(context),
      requestsPerMinute: settings.requestsPerMinute,
      maxStreams: settings.maxStreams,
      anonymousPerAddressPerMinute: settings.anonymousPerAddressPerMinute,
      anonymousPerMinute: settings.anonymousPerMinute,
      anonymousMaxStreams: settings.anonymousMaxStreams,
      bodyTimeoutMs: settings.bodyTimeoutMs,
      clientAddress,
    },
    directory,
    forwarder,
  );
  states.set(context, created);
  return created;
}

/** The cloud's relay, for services that reach hubs through their tunnels (webhook deliveries). */
export function relayOf(context: CloudContext): Relay {
  return stateOf(context).relay;
}

/**
 * The connect relay (`/connect`): hubs keep a tunnel here, and each hub's relay origin (its `remoteUrl`) is carried
 * through it. Requests are told apart by host before the cloud's own routing, so a relayed body is never parsed
 * or buffered here, and the cloud's own hooks (its limits, its auth) do not apply to the hub's API. The connect
 * calls are forwarded through the same tunnels.
 */
export const connectService: CloudService = {
  name: 'connect',
  implementations: (context) =>
    connectImplementations(
      context,
      () => stateOf(context).relay,
      () => stateOf(context).directory,
    ),
  routes: (app, context) => {
    const state = stateOf(context);
    const { tunnels, relay, directory, forwarder } = state;
    relay.log = app.log;
    state.port = () => {
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : context.config.port;
    };
    // Fastify listens for `request` on the server it made; the relay goes first and hands on what is not a hub's.
    const server = app.server;
    const cloudHandlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeAllListeners('request');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (relay.handleRequest(request, response)) return;
      for (const handler of cloudHandlers) handler.call(server, request, response);
    });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (relay.handleUpgrade(request, socket, head)) return;
      if (request.url?.split('?')[0] === TUNNEL_PATH) return void tunnels.accept(request, socket, head);
      // Nothing else on the cloud upgrades; a socket nobody answers would hang.
      if (server.listenerCount('upgrade') === 1) socket.destroy();
    });
    tunnels.start();
    app.addHook('preClose', async () => {
      await tunnels.stop();
      forwarder.close();
      await directory.close();
    });
  },
};
