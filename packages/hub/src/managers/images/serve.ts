import { HearthError, hasScope } from '@hearth/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticator, bearerToken } from '../../platform/auth';
import type { HubContext } from '../../platform/context';
import type { HubServices } from '../../runtime/services';
import { simulatedSnapshot } from './snapshot';

/**
 * Serves an image's bytes at the `url` its Image gives (`/api/image/<id>`), to sessions that may read devices
 * (`homey.device.readonly`, as the images listing). An app's image is read from the app's process and streamed
 * to the caller as its bytes arrive; a simulated camera's still is drawn by the hub. The answer is an image, not JSON, so it is a route of its own rather than an
 * operation of the contract.
 */
export function registerImageBytes(app: FastifyInstance, context: HubContext, auth: Authenticator, services: HubServices): void {
  app.get<{ Params: { id: string } }>('/api/image/:id', async (request, reply) => {
    const token = bearerToken(request);
    if (token === null) throw new HearthError('missing_token', 'Missing Token');
    const principal = auth.principalForToken(token);
    if (!hasScope(principal.scopes, 'homey.device.readonly'))
      throw new HearthError('missing_scopes', 'Missing Scopes: homey.device.readonly');
    const { id } = request.params;
    const { devices, processes } = services;
    // A simulated camera's still (listed as `<device id>-snapshot`) is drawn by the hub; an app's image is its app's.
    const camera = processes.images.find(id) ? undefined : devices.find(id.replace(/-snapshot$/, ''));
    if (camera && camera.class === 'camera' && id.endsWith('-snapshot')) {
      const motion = devices.values(camera.id).get('alarm_motion')?.value === true;
      const svg = simulatedSnapshot({ name: camera.name, motion }, new Date(context.clock.now()));
      return reply.header('content-type', 'image/svg+xml').header('cache-control', 'no-cache').send(svg);
    }
    const { contentType, stream } = await processes.images.open(processes.host, id);
    // A client going away ends the read (the app's remaining bytes are dropped).
    request.raw.on('close', () => stream.destroy());
    return reply.header('content-type', contentType).header('cache-control', 'no-cache').send(stream);
  });
}
