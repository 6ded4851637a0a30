import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { HearthError } from '../errors';

/** Who may read `/metrics`. */
export interface MetricsAccess {
  /**
   * A token scrapers elsewhere send as `Authorization: Bearer <token>` (`HEARTH_METRICS_TOKEN`); `null`: only
   * direct requests from loopback are served.
   */
  token: string | null;
}

const isLoopback = (address: string | undefined): boolean => {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
};

/**
 * A request made on this machine: the peer of its socket is a loopback address and no proxy forwarded it (a
 * reverse proxy on the same machine connects from loopback on behalf of anyone).
 */
const isDirectLocal = (request: FastifyRequest): boolean =>
  isLoopback(request.raw.socket?.remoteAddress) &&
  request.headers['x-forwarded-for'] === undefined &&
  request.headers.forwarded === undefined;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Refuses a request for the metrics unless it is local or carries the metrics token. */
function checkAccess(request: FastifyRequest, access: MetricsAccess): void {
  if (isDirectLocal(request)) return;
  if (access.token === null)
    throw new HearthError(
      'forbidden',
      'Metrics are served to this machine only; set HEARTH_METRICS_TOKEN to read them from elsewhere',
    );
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new HearthError('missing_token', 'Missing Token: send the metrics token as a Bearer token');
  // Compared as digests: equal lengths, and no timing difference that tells how much of the token matched.
  if (!timingSafeEqual(digest(match[1] as string), digest(access.token)))
    throw new HearthError('invalid_token', 'Invalid metrics token');
}

/**
 * Prometheus metrics at `/metrics`: the process's own figures and a request-duration histogram labelled by
 * route pattern (never by raw URL, which would let callers create unbounded label values). Served to direct
 * requests from loopback, and to others only with the metrics token: the figures tell an outsider the load,
 * the routes in use and the software's versions.
 */
export function installMetrics(app: FastifyInstance, prefix: string, access: MetricsAccess = { token: null }): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: `${prefix}_` });
  const duration = new Histogram({
    name: `${prefix}_http_request_duration_seconds`,
    help: 'Duration of HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    checkAccess(request, access);
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}
