/**
 * Sign-in with the cloud's OAuth2 authorization code flow and PKCE, as the public browser client
 * `hearth-support-form`. The tokens are kept in local storage so a reload stays signed in.
 */
import { request } from '../../../lib/http';

export const CLIENT_ID = 'hearth-support-form';
const TOKEN_KEY = 'hearth-support-form:token';
const VERIFIER_KEY = 'hearth-support-form:pkce';

export interface StoredToken {
  access_token: string;
  refresh_token?: string;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The form's own address without query or hash: the OAuth2 redirect address. */
export const redirectUri = () => `${location.origin}${location.pathname}`;

export function readToken(): StoredToken | null {
  try {
    const value = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? 'null') as StoredToken | null;
    return value?.access_token ? value : null;
  } catch {
    return null;
  }
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

export const isTokenStorageEvent = (event: StorageEvent) => event.key === TOKEN_KEY || event.key === null;

/** Sends the browser to the cloud's authorise page. */
export async function startSignIn(cloudUrl: string): Promise<void> {
  const verifier = randomString();
  const state = randomString();
  sessionStorage.setItem(VERIFIER_KEY, JSON.stringify({ verifier, state }));
  const url = new URL('/cloud/oauth2/authorise', cloudUrl);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    response_type: 'code',
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

/**
 * On return from the authorise page: exchanges the `code` for tokens and removes it from the address bar.
 * Answers whether a token is now stored.
 */
export async function completeSignIn(cloudUrl: string): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  if (!code) return readToken() !== null;
  const returnedState = params.get('state');
  params.delete('code');
  params.delete('state');
  const query = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  const saved = JSON.parse(sessionStorage.getItem(VERIFIER_KEY) ?? 'null') as { verifier: string; state: string } | null;
  sessionStorage.removeItem(VERIFIER_KEY);
  if (!saved || saved.state !== returnedState) return readToken() !== null;
  const token = await request<StoredToken>(new URL('/cloud/oauth2/token', cloudUrl).toString(), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: CLIENT_ID,
      code_verifier: saved.verifier,
    }),
  });
  localStorage.setItem(TOKEN_KEY, JSON.stringify({ access_token: token.access_token, refresh_token: token.refresh_token }));
  return true;
}

let refreshing: Promise<boolean> | null = null;

/** Trades the refresh token for new tokens (once at a time); answers whether it worked. */
export function refreshSession(cloudUrl: string): Promise<boolean> {
  refreshing ??= (async () => {
    const stored = readToken();
    if (!stored?.refresh_token) return false;
    try {
      const token = await request<StoredToken>(new URL('/cloud/oauth2/token', cloudUrl).toString(), {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: stored.refresh_token, client_id: CLIENT_ID }),
      });
      localStorage.setItem(
        TOKEN_KEY,
        JSON.stringify({ access_token: token.access_token, refresh_token: token.refresh_token ?? stored.refresh_token }),
      );
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
