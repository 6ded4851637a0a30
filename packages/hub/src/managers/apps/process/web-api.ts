import { HearthError, hasScope, notFound } from '@hearth/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Authenticator, bearerToken } from '../../../platform/auth';
import type { HubServices } from '../../../runtime/services';

interface Route {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly public: boolean;
}

/** The route of the app's `api` block that `method path` asks for, and its path parameters. */
export function matchRoute(
  api: Record<string, { method?: unknown; path?: unknown; public?: unknown }> | undefined,
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | null {
  const asked = path.split('/').filter(Boolean);
  for (const [name, declared] of Object.entries(api ?? {})) {
    if (typeof declared.method !== 'string' || declared.method.toUpperCase() !== method || typeof declared.path !== 'string')
      continue;
    const pattern = declared.path.split('/').filter(Boolean);
    if (pattern.length !== asked.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, i) => {
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = asked[i] as string;
        return true;
      }
      return segment === asked[i];
    });
    if (matches) return { route: { name, method, path: declared.path, public: declared.public === true }, params };
  }
  return null;
}

/**
 * Serves each app's web API (the manifest's `api` block, handlers in its `api.js`) at `/api/app/<appId><path>`.
 * A route marked `public` answers anyone; the others need a session whose scopes cover the app
 * (`homey.app.readonly` to read with GET, `homey.app.control` otherwise). The handler runs in the app's process
 * and gets `{ homey, params, query, body }`; what it answers is the response (a refusal is a 502 with its
 * message, no answer in time a 504).
 */
export function registerAppWebApi(app: FastifyInstance, auth: Authenticator, services: HubServices): void {
  const handle = async (request: FastifyRequest<{ Params: { appId: string; '*': string } }>) => {
    const { apps, processes } = services;
    const { appId } = request.params;
    const installed = apps.find(appId);
    const path = `/${request.params['*'] ?? ''}`;
    const api = installed ? (installed.manifest as { api?: Parameters<typeof matchRoute>[0] }).api : undefined;
    const match = matchRoute(api, request.method, path);
    // Only a public route answers without a session; anything else (an unknown app or route included) checks the
    // token first, so a stranger's 404 cannot tell which apps are installed.
    if (!installed || !match?.route.public) {
      const token = bearerToken(request);
      if (token === null) throw new HearthError('missing_token', 'Missing Token');
      const principal = auth.principalForToken(token);
      const scope = request.method === 'GET' ? 'homey.app.readonly' : 'homey.app.control';
      if (!hasScope(principal.scopes, scope)) throw new HearthError('missing_scopes', `Missing Scopes: ${scope}`);
    }
    if (!installed || !match) throw notFound('App API route', `${request.method} /api/app/${appId}${path}`);
    if (!apps.processHost(appId)) throw new HearthError('not_found', `App ${appId} has no web API on this hub`);
    const query = Object.fromEntries(Object.entries((request.query ?? {}) as Record<string, unknown>));
    return processes.host.call(appId, 'api.request', {
      route: match.route.name,
      params: match.params,
      query,
      body: request.body ?? null,
    });
  };
  for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
    app.route({ method, url: '/api/app/:appId/*', handler: handle });
  }
}
