import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Which proxies may name the client in `X-Forwarded-For`, as Fastify's `trustProxy` takes it. */
export type TrustProxy = boolean | string | string[] | undefined;

/** Whether a peer is one of the trusted proxies. */
export function trustedProxy(trustProxy: TrustProxy): (address: string) => boolean {
  if (trustProxy === true) return () => true;
  if (!trustProxy) return () => false;
  const test = proxyAddr.compile(typeof trustProxy === 'string' ? trustProxy.split(',').map((part) => part.trim()) : trustProxy);
  return (address) => test(address, 0);
}

/**
 * The client's address of a raw request, as Fastify's `request.ip` gives it for routes: the peer, or the address a
 * chain of trusted proxies names in `X-Forwarded-For`. For the parts that handle requests before Fastify does (the
 * relay), so that behind a load balancer each client is still its own address to limits and throttles.
 */
export function clientAddressOf(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const trusted = trustedProxy(trustProxy);
  return (request) => proxyAddr(request, (address) => trusted(address)) ?? '';
}
