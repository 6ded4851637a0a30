import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { TUNNEL_PATH } from '@hearth/contract/relay';
import type { CloudContext, CloudService } from '../../platform/context';
import { MemoryTunnelDirectory } from './directory';
import { Relay } from './relay';
import { TunnelHost } from './tunnels';

const DEFAULTS = { heartbeatMs: 15_000, requestsPerMinute: 6000, maxStreams: 256 };

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
 * The connect relay (`/connect`): hubs keep a tunnel here, and each hub's relay origin (its `remoteUrl`) is carried
 * through it. Requests are told apart by host before the cloud's own routing, so a relayed body is never parsed
 * or buffered here, and the cloud's own hooks (its limits, its auth) do not apply to the hub's API.
 */
export const connectService: CloudService = {
  name: 'connect',
  implementations: () => [],
  routes: (app, context) => {
    const settings = { ...DEFAULTS, ...context.config.connect };
    const directory = new MemoryTunnelDirectory();
    const port = () => {
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : context.config.port;
    };
    const tunnels = new TunnelHost(context, directory, {
      heartbeatMs: settings.heartbeatMs,
      onConnect: async (hubId) => {
        const remoteUrl = relayOrigin(context, hubId, port());
        await context.database.db
          .updateTable('hubs')
          .set({ remote_url: remoteUrl, updated_at: new Date() })
          .where('id', '=', hubId)
          .where((eb) => eb.or([eb('remote_url', 'is', null), eb('remote_url', '!=', remoteUrl)]))
          .execute();
      },
    });
    const relay = new Relay(tunnels, context.limits, {
      hostSuffix: hostSuffix(context),
      requestsPerMinute: settings.requestsPerMinute,
      maxStreams: settings.maxStreams,
    });
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
      await directory.close();
    });
  },
};
