import { fullPath } from '@hearth/contract/client';
import { APIError, messages, OfflineError } from '../core/errors';
import { findOperation } from '../core/operations';
import type { MdnsResolve } from '../core/platform';
import type { Transport } from '../core/transport';

/** Seed section 9: how long each discovery strategy's ping may take. */
export const PING_TIMEOUTS = {
  localSecure: 1200,
  local: 1000,
  mdns: 3000,
  cloud: 5000,
  remoteForwarded: 2000,
} as const;

export type Strategy = keyof typeof PING_TIMEOUTS;

/** The discovery addresses of a hub record (`GET /cloud/user/me` → `homeys[]`). */
export interface HubAddresses {
  id: string;
  localUrl?: string | null;
  localUrlSecure?: string | null;
  remoteUrl?: string | null;
  remoteUrlForwarded?: string | null;
  mdnsFqdn?: string | null;
  portHttp?: number | null;
  /** `local` for hubs in a home (Pro models), `cloud` for hubs that live in the cloud. */
  platform?: string | null;
}

export interface Candidate {
  strategy: Strategy;
  url: string;
  timeout: number;
}

/** Facts a ping answers with. */
export interface PingAnswer {
  id: string;
  version: string | null;
  tier: string | null;
}

/**
 * Pings one address: `GET <url>/api/manager/system/ping[?id=]` with `X-Homey-ID` and no Authorization. It must
 * answer 2xx, a body that is not `false`, and an `X-Homey-ID` header (equal to `expectedId` when given).
 */
export async function ping(transport: Transport, url: string, expectedId: string | null, timeout: number): Promise<PingAnswer> {
  const operation = findOperation('hub', 'system', 'ping');
  const query = expectedId ? `?id=${encodeURIComponent(expectedId)}` : '';
  const response = await transport.send({
    method: operation.method,
    url: `${url.replace(/\/$/, '')}${fullPath(operation)}${query}`,
    headers: expectedId ? { 'X-Homey-ID': expectedId } : {},
    timeout,
  });
  const id = response.headers.get('x-homey-id');
  if (response.status < 200 || response.status >= 300 || response.body === false || !id) {
    throw new APIError(messages.noHubAtAddress, response.status >= 400 ? response.status : 404, 'no_hub_at_address');
  }
  if (expectedId && id !== expectedId) throw new APIError(messages.invalidHubId, 400, 'invalid_hub_id');
  return { id, version: response.headers.get('x-homey-version'), tier: response.headers.get('x-homey-tier') };
}

/**
 * The addresses to try for a hub, with each strategy's timeout; mDNS only where a resolver exists (Node) and
 * for hubs of the local platform whose record gives an mDNS name or an HTTP port.
 */
export async function candidates(
  hub: HubAddresses,
  options: { strategies?: Strategy[]; mdns?: MdnsResolve } = {},
): Promise<Candidate[]> {
  const allowed = new Set<Strategy>(options.strategies ?? (Object.keys(PING_TIMEOUTS) as Strategy[]));
  const list: Candidate[] = [];
  const add = (strategy: Strategy, url: string | null | undefined) => {
    if (url && allowed.has(strategy)) list.push({ strategy, url: url.replace(/\/$/, ''), timeout: PING_TIMEOUTS[strategy] });
  };
  add('localSecure', hub.localUrlSecure);
  add('local', hub.localUrl);
  // Only a hub in a home can answer on the local network; cloud hubs have no mDNS name to look up.
  if (options.mdns && allowed.has('mdns') && hub.platform === 'local' && (hub.mdnsFqdn || hub.portHttp)) {
    const host = hub.mdnsFqdn || `homey-${hub.id}.local`;
    const port = hub.portHttp ? `:${hub.portHttp}` : '';
    list.push({ strategy: 'mdns', url: `mdns://${host}${port}`, timeout: PING_TIMEOUTS.mdns });
  }
  add('remoteForwarded', hub.remoteUrlForwarded);
  add('cloud', hub.remoteUrl);
  return list;
}

/** Which strategy wins when several answer: secure local, local, mDNS, then the remote ones. */
const preference: Strategy[] = ['localSecure', 'local', 'mdns', 'remoteForwarded', 'cloud'];

export interface DiscoveryResult {
  strategy: Strategy;
  url: string;
  ping: PingAnswer;
}

/**
 * Finds the best address of a hub: every address is pinged in parallel; a secure local address that answers
 * wins, else a local one (which must answer within its 1 s), else mDNS, else the remote addresses. Answers as
 * soon as the outcome is certain, so a dead cloud address never delays a live local one.
 */
export async function discover(
  transport: Transport,
  hub: HubAddresses,
  options: { strategies?: Strategy[]; mdns?: MdnsResolve; secureTransport?: Transport } = {},
): Promise<DiscoveryResult> {
  if (!hub.id || !/^[A-Za-z0-9_-]+$/.test(hub.id)) throw new APIError(messages.invalidHubId, 400, 'invalid_hub_id');
  const list = await candidates(hub, options);
  if (list.length === 0) throw new APIError(messages.noStrategies, 500, 'no_strategies');
  const started = list.map((candidate) => ({
    candidate,
    result: (async (): Promise<DiscoveryResult> => {
      let url = candidate.url;
      if (candidate.strategy === 'mdns' && options.mdns) {
        const [host, port] = url.slice('mdns://'.length).split(':');
        const address = await options.mdns(host as string, candidate.timeout);
        url = `http://${address}${port ? `:${port}` : ''}`;
      }
      // The secure local address is verified against the cloud's CA when the caller has it.
      const over = candidate.strategy === 'localSecure' ? (options.secureTransport ?? transport) : transport;
      const answer = await ping(over, url, hub.id, candidate.timeout);
      return { strategy: candidate.strategy, url, ping: answer };
    })(),
  }));
  // Each result is awaited below in order of preference; a candidate never reached must not reject unhandled.
  for (const entry of started) entry.result.catch(() => {});
  const ordered = [...started].sort(
    (a, b) => preference.indexOf(a.candidate.strategy) - preference.indexOf(b.candidate.strategy),
  );
  for (const entry of ordered) {
    try {
      return await entry.result;
    } catch {
      // try the next preferred address
    }
  }
  throw new OfflineError();
}
