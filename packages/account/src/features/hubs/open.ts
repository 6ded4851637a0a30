import { HOME_PAGES, HOME_SIGN_IN_WITH_CLOUD } from '@hearth/contract/provider';
import type { Hub } from '../../app/account';

/** How long a hub's local address has to answer before the relay is used instead. */
export const LOCAL_ANSWER_MS = 2_000;

type HubAddresses = Pick<Hub, 'localUrl' | 'localUrlSecure' | 'remoteUrl' | 'remoteUrlForwarded'>;

const originOf = (address: string | null | undefined): string | null => {
  if (!address) return null;
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
};

/** Whether something answers at `origin` (any HTTP answer counts; only a network failure or silence does not). */
async function answers(origin: string, timeoutMs: number): Promise<boolean> {
  try {
    // `no-cors`: the answer is opaque, which is enough to know the hub is there; the hub's CORS rules do not matter.
    await fetch(`${origin}/home-cloud.json`, { mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the hub's household web app is best opened from here: a local address when it answers (the secure one
 * first; a page served over https cannot use a plain http one), else the address its owner forwarded when that
 * answers, else the cloud's relay. `null` when the hub has no address this browser can use.
 */
export async function webAppOrigin(
  hub: HubAddresses,
  { secure = window.location.protocol === 'https:', timeoutMs = LOCAL_ANSWER_MS } = {},
): Promise<string | null> {
  const tried = [originOf(hub.localUrlSecure), secure ? null : originOf(hub.localUrl), originOf(hub.remoteUrlForwarded)];
  for (const origin of tried) if (origin !== null && (await answers(origin, timeoutMs))) return origin;
  return originOf(hub.remoteUrl);
}

/** The web app at `origin`, asked to sign in through the cloud at once. */
export const webAppSignInUrl = (origin: string): string => `${origin}${HOME_PAGES.signIn}?${HOME_SIGN_IN_WITH_CLOUD}`;
