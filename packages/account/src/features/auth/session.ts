/**
 * Sign-in with the cloud's OAuth2 authorization code flow and PKCE, as the public browser client `hearth-account`,
 * through @hearth/client's CloudAPI — the support form's way. The token is kept in local storage (a reload and
 * other tabs stay signed in); the PKCE verifier, the state and the page to come back to live only across the trip
 * to the sign-in page, in session storage.
 */
import { CloudAPI, pageStore } from '@hearth/client/browser';

export const CLIENT_ID = 'hearth-account';
export const TOKEN_KEY = 'hearth-account:token';
const SIGN_IN_KEY = 'hearth-account:pkce';
const STATE_KEY = 'hearth-account:state';
const RETURN_KEY = 'hearth-account:return';

/** The token in local storage (a reload and other tabs stay signed in), the PKCE verifier in session storage. */
const accountStore = pageStore(TOKEN_KEY, SIGN_IN_KEY);

/** The pages' one cloud client: every call the pages make goes through it. */
export const createCloud = (origin: string) =>
  new CloudAPI({ clientId: CLIENT_ID, redirectUrl: `${origin}/`, baseUrl: origin, store: accountStore });

const randomState = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Sends the browser to the cloud's sign-in page; `returnTo` is the page to open after signing in. */
export async function startSignIn(cloud: CloudAPI, returnTo: string): Promise<void> {
  const state = randomState();
  sessionStorage.setItem(STATE_KEY, state);
  sessionStorage.setItem(RETURN_KEY, returnTo);
  await cloud.login({ state });
}

/**
 * On return from the sign-in page: exchanges the `code` for a token when the state is the one this tab sent (the
 * client removes `code` and `state` from the address). Answers the page to go on to, or `null`.
 */
export async function completeSignIn(cloud: CloudAPI): Promise<string | null> {
  const url = new URL(location.href);
  if (url.searchParams.has('error') && url.searchParams.has('state')) {
    // The person went back from the sign-in page.
    url.searchParams.delete('error');
    url.searchParams.delete('state');
    history.replaceState(history.state, '', url.toString());
    return sessionStorage.getItem(RETURN_KEY);
  }
  if (!cloud.hasAuthorizationCode()) return null;
  const expected = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  if (expected === null || url.searchParams.get('state') !== expected) {
    url.searchParams.delete('code');
    url.searchParams.delete('state');
    history.replaceState(history.state, '', url.toString());
    return null;
  }
  await cloud.authenticateWithAuthorizationCode();
  const returnTo = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  return returnTo;
}

/** Whether a storage event changed the sign-in (another tab signed in or out). */
export const isTokenStorageEvent = (event: StorageEvent) => event.key === TOKEN_KEY || event.key === null;
