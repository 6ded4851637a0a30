import { isIPv6 } from 'node:net';

/**
 * The network a request comes from, as limits count it: an IPv4 address (also written IPv4-mapped, `::ffff:…`),
 * or the /64 prefix of an IPv6 address — one subscriber usually holds a whole /64, and counting each of its
 * addresses apart would let one machine walk around every per-address rule.
 */
export function addressKey(ip: string | undefined): string {
  // A peer that hung up before its request was read (a balancer's timed-out health check) has no address left.
  if (!ip) return 'unknown';
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('%')[0]?.split('::') ?? [''];
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
