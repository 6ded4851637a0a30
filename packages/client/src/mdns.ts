import makeMdns from 'multicast-dns';
import { TimeoutError } from './core/errors';
import type { MdnsResolve } from './core/platform';

/**
 * Resolves a `.local` host name (`homey-<id>.local`) to its IPv4 address over multicast DNS: the discovery
 * strategy only Node has. Rejects after `timeout` ms.
 */
export const resolveMdns: MdnsResolve = (host, timeout) =>
  new Promise<string>((resolve, reject) => {
    const mdns = makeMdns();
    const wanted = host.toLowerCase();
    const finish = (error: Error | null, address?: string) => {
      clearTimeout(timer);
      mdns.destroy();
      if (error) reject(error);
      else resolve(address as string);
    };
    const timer = setTimeout(() => finish(new TimeoutError(`No mDNS answer for ${host} after ${timeout}ms`)), timeout);
    mdns.on('response', (response) => {
      const record = [...response.answers, ...(response.additionals ?? [])].find(
        (answer) => answer.type === 'A' && answer.name.toLowerCase() === wanted,
      );
      if (record) finish(null, String((record as { data: unknown }).data));
    });
    mdns.on('error', (error: Error) => finish(error));
    mdns.query({ questions: [{ name: host, type: 'A' }] });
  });
