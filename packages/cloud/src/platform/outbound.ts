import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Addresses a fetch from the cloud must never reach: loopback, private, link-local, multicast, reserved. */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127], // unspecified and loopback
  ['::ffff:0:0', 96], // IPv4-mapped
  ['64:ff9b::', 96], // NAT64
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP literal) is one the cloud must not reach; anything else but an IP literal counts too. */
export const isInternalAddress = (address: string) => {
  const family = isIP(address);
  return family === 0 || internal.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/**
 * A DNS lookup for outbound connections (an agent's or a request's `lookup`) that refuses hosts resolving to an
 * internal address, checked at connect time so DNS rebinding cannot slip through; `allowPrivate` lifts it (tests
 * and local development only).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: (...args: unknown[]) => void) =>
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      if (!allowPrivate && addresses.some((a) => isInternalAddress(a.address)))
        return callback(Object.assign(new Error('internal address'), { code: 'EINTERNAL' }));
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(new Error('no address'));
    });
}
