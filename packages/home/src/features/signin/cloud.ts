/**
 * Sign-in through the cloud: the authorization code with PKCE as the public client `hearth-home` (the cloud sends
 * it back to the root of the hub that served the app, once the hub proved it serves that origin, and binds the code to
 * that hub), then a delegation token naming this hub, which this hub exchanges
 * for its own session. The cloud token is only a step: once the hub's session is made it is forgotten, so the app
 * holds one credential, the hub's. The PKCE verifier and the state live only across the trip, in session storage.
 */
import { CloudAPI, pageStore } from '@hearth/client/browser';
import { HOME_SIGN_IN_WITH_CLOUD } from '@hearth/contract/provider';
import { rememberHubs } from '../../lib/account-hubs';
import { signInWithDelegation } from '../../lib/connection';

const CLIENT_ID = 'hearth-home';
const STATE_KEY = 'hearth-home:cloud-state';
const store = pageStore('hearth-home:cloud-token', 'hearth-home:cloud-pkce');

const cloudAt = (url: string) => new CloudAPI({ clientId: CLIENT_ID, redirectUrl: `${location.origin}/`, baseUrl: url, store });

/** Whether the account pages opened the app asking it to sign in through the cloud at once. */
export const signInWithCloudAsked = (): boolean => location.search.slice(1).split('&').includes(HOME_SIGN_IN_WITH_CLOUD);

/** Sends the browser to the cloud's sign-in page. */
export async function startCloudSignIn(url: string): Promise<void> {
  const state = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
  sessionStorage.setItem(STATE_KEY, state);
  await cloudAt(url).login({ state });
}

/** What the address says on return from the sign-in page: a code to exchange, the person went back, or neither. */
export function cloudReturn(): 'code' | 'cancelled' | null {
  const query = new URLSearchParams(location.search);
  if (!query.has('state')) return null;
  if (query.has('code')) return 'code';
  return query.has('error') ? 'cancelled' : null;
}

function clearAddress(): void {
  const url = new URL(location.href);
  for (const name of ['code', 'state', 'error', 'error_description']) url.searchParams.delete(name);
  history.replaceState(history.state, '', url.toString());
}

/**
 * Completes the sign-in the address returned with: checks the state is the one this tab sent, exchanges the code,
 * asks the cloud for a delegation token and signs in to this hub with it. Answers the hub's session token, or
 * `null` when there was nothing (of this tab's) to complete.
 */
export async function completeCloudSignIn(url: string): Promise<string | null> {
  const expected = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  const returned = new URLSearchParams(location.search);
  if (cloudReturn() !== 'code' || expected === null || returned.get('state') !== expected) {
    clearAddress();
    return null;
  }
  const cloud = cloudAt(url);
  try {
    await cloud.authenticateWithAuthorizationCode();
    const delegation = await cloud.createDelegationToken({ audience: 'homey' });
    // The person's hubs, for the switcher: names and ids only (no credential), read while the cloud token lasts.
    const user = await cloud.getAuthenticatedUser();
    rememberHubs(
      url,
      user.getHubs().map((hub) => ({ id: hub.id, name: hub.name ?? hub.id })),
    );
    return await signInWithDelegation(location.origin, delegation);
  } finally {
    clearAddress();
    await cloud.logout();
  }
}
