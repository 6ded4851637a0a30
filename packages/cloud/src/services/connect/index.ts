import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { TUNNEL_PATH } from '@hearth/contract/relay';
import type { CloudService } from '../service';
import { connectImplementations } from './calls';

export { createRelayNetwork, type RelayNetwork, relayOrigin } from './network';

/**
 * The connect relay (`/connect`): hubs keep a tunnel here, and each hub's relay origin (its `remoteUrl`) is carried
 * through it. Requests are told apart by host before the cloud's own routing, so a relayed body is never parsed
 * or buffered here, and the cloud's own hooks (its limits, its auth) do not apply to the hub's API. The connect
 * calls are forwarded through the same tunnels.
 */
export const connectService: CloudService = {
  name: 'connect',
  create: (context, { connect }) => ({
    implementations: () => connectImplementations(context, connect.relay, connect.directory),
    routes: (app) => {
      const { tunnels, relay } = connect;
      connect.listeningOn(() => {
        const address = app.server.address();
        return typeof address === 'object' && address ? address.port : context.config.port;
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
      app.addHook('preClose', () => connect.close());
    },
  }),
};
