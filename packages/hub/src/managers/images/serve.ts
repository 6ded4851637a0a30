import { HearthError, hasScope } from '@hearth/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticator, bearerToken } from '../../platform/auth';
import type { HubServices } from '../../runtime/services';

/**
 * Serves an image's bytes at the `url` its Image gives (`/api/image/<id>`), to sessions that may read devices
 * (`homey.device.readonly`, as the images listing). An app's image is read from the app's process and streamed
 * to the caller as its bytes arrive. The answer is an image, not JSON, so it is a route of its own rather than an
 * operation of the contract.
 */
export function registerImageBytes(app: FastifyInstance, auth: Authenticator, services: HubServices): void {
  app.get<{ Params: { id: string } }>('/api/image/:id', async (request, reply) => {
    const token = bearerToken(request);
    if (token === null) throw new HearthError('missing_token', 'Missing Token');
    const principal = auth.principalForToken(token);
    if (!hasScope(principal.scopes, 'homey.device.readonly'))
      throw new HearthError('missing_scopes', 'Missing Scopes: homey.device.readonly');
    const { contentType, stream } = await services.processes.images.open(services.processes.host, request.params.id);
    // A client going away ends the read (the app's remaining bytes are dropped).
    request.raw.on('close', () => stream.destroy());
    return reply.header('content-type', contentType).header('cache-control', 'no-cache').send(stream);
  });
}
