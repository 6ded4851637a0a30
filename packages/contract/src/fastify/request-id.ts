import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type TrustProxy, trustedProxy } from './proxy-trust';

const WELL_FORMED = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Request ids for the logs: unique across every node of a cluster (a UUID, where Fastify's own counter repeats on
 * each node), or the `X-Request-Id` the load balancer put on the request, so one id follows a request through the
 * balancer's log and the node's. That header is taken only from the proxies trusted for `X-Forwarded-For`: anyone
 * else could pick the ids that name their requests in the logs.
 */
export function requestIdGenerator(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const trusted = trustedProxy(trustProxy);
  return (request) => {
    const given = request.headers['x-request-id'];
    const peer = request.socket.remoteAddress;
    if (typeof given === 'string' && WELL_FORMED.test(given) && peer !== undefined && trusted(peer)) return given;
    return randomUUID();
  };
}
