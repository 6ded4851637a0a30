/**
 * Sign-in with the cloud's OAuth2 authorization code flow and PKCE, as the public browser client
 * `hearth-support-form`, through @hearth/client's CloudAPI. The token is kept in local storage so a reload
 * stays signed in; what only lives across the trip to the sign-in page (the PKCE verifier, the state) is kept
 * in session storage.
 */
import { type CloudAPI, pageStore, type StorageAdapter } from '@hearth/client/browser';

export const CLIENT_ID = 'hearth-support-form';
export const TOKEN_KEY = 'hearth-support-form:token';
const SIGN_IN_KEY = 'hearth-support-form:pkce';
const STATE_KEY = 'hearth-support-form:state';

/**
 * The client's store for the form: the token under `hearth-support-form:token` in local storage (shared by the
 * form's tabs, whose `storage` events tell them of a sign-in or sign-out), the rest of the client's state (the
 * PKCE verifier) in session storage.
 */
export const formStore: StorageAdapter = pageStore(TOKEN_KEY, SIGN_IN_KEY);

/** The form's own address without query or hash: the OAuth2 redirect address. */
export const redirectUri = () => `${location.origin}${location.pathname}`;

/** Whether a storage event changed the sign-in (the token, or everything cleared). */
export const isTokenStorageEvent = (event: StorageEvent) => event.key === TOKEN_KEY || event.key === null;

const randomState = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Sends the browser to the cloud's authorise page (PKCE challenge and a state to check on return). */
export async function startSignIn(cloud: CloudAPI): Promise<void> {
  const state = randomState();
  sessionStorage.setItem(STATE_KEY, state);
  await cloud.login({ state });
}

/**
 * On return from the authorise page: exchanges the `code` for a token (the client removes `code` and `state`
 * from the address bar history). A `code` whose state is not the one this tab sent is dropped unused.
 * Answers whether a token is now stored.
 */
export async function completeSignIn(cloud: CloudAPI): Promise<boolean> {
  if (!cloud.hasAuthorizationCode()) return cloud.isLoggedIn();
  const expected = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  const url = new URL(location.href);
  if (expected === null || url.searchParams.get('state') !== expected) {
    url.searchParams.delete('code');
    url.searchParams.delete('state');
    history.replaceState(history.state, '', url.toString());
    return cloud.isLoggedIn();
  }
  await cloud.authenticateWithAuthorizationCode();
  return true;
}
