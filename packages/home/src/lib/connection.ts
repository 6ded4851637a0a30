/**
 * How the app reaches its hub: the hub that served it (this origin), through @hearth/client. Sign-in is through the
 * cloud (a delegation token exchanged for a session), with the hub's local credentials (`loginLocal`, a session
 * token) or with a personal access token; the token is kept in local
 * storage so a reload and the app's other tabs stay signed in.
 */
import { type CoreHubAPI, HubAPI, ping, Secrets, Transport } from '@hearth/client/browser';

export const TOKEN_KEY = 'hearth-home:token';
const CLIENT_ID = 'hearth-home';
const CLIENT_NAME = 'Hearth web app';

export const storedToken = (): string | null => localStorage.getItem(TOKEN_KEY);

export function storeToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** The hub's id, from its ping (no session needed). */
async function hubIdAt(origin: string): Promise<string> {
  const transport = new Transport({ fetch: (input, init) => fetch(input, init), secrets: new Secrets() });
  return (await ping(transport, origin, null, 5000)).id;
}

let anonymousHub: Promise<CoreHubAPI> | undefined;

/**
 * What the hub says of its owner, asked without a session (a hub nobody owns has nobody to sign in), through the
 * client like every other call: importing the contract's operations here would put all its schemas in the bundle.
 */
export async function hubClaim(origin = window.location.origin) {
  // One client for the page's polling: the ping that names the hub is asked once, not before every poll.
  anonymousHub ??= hubIdAt(origin).then((id) => new HubAPI({ id, baseUrl: origin, token: null, reconnect: false }));
  return (
    await anonymousHub.catch((error) => {
      anonymousHub = undefined;
      throw error;
    })
  ).cloud.getClaim();
}

/** Signs in with the hub's local credentials; answers the session token. */
export async function signInLocal(origin: string, username: string, password: string): Promise<string> {
  const hub = new HubAPI({ id: await hubIdAt(origin), baseUrl: origin, token: null, reconnect: false });
  const token = await hub.users.loginLocal({ username, password, clientId: CLIENT_ID, clientName: CLIENT_NAME });
  return token as string;
}

/** Signs in with a delegation token the cloud made for the signed-in account; answers the hub's session token. */
export async function signInWithDelegation(origin: string, delegation: string): Promise<string> {
  const hub = new HubAPI({ id: await hubIdAt(origin), baseUrl: origin, token: null, reconnect: false });
  await hub.login(delegation);
  const token = hub.token as string;
  hub.destroy();
  return token;
}

/** A client for the hub with `token`, its session read (which proves the token); realtime connects on demand. */
export async function openHub(origin: string, token: string): Promise<CoreHubAPI> {
  const hub = await HubAPI.local({ address: origin, token });
  await hub.getSession();
  return hub;
}

/** Whether the session may use `scope` (or a scope that includes it, such as `homey` or `homey.device`). */
export function hasScope(hub: CoreHubAPI, scope: string): boolean {
  const scopes = hub.session?.intersectedScopes ?? hub.session?.scopes ?? [];
  return scopes.some((held) => held === scope || scope.startsWith(`${held}.`) || held === 'homey');
}
