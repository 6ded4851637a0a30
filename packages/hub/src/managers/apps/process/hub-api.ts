import { HearthError } from '@hearth/contract';
import type { HubContext } from '../../../platform/context';
import type { InstalledApp } from '../service';

/** The permission that lets an app call the hub's web API as the hub's owner (`this.homey.api`). */
export const API_PERMISSION = 'homey:manager:api';
/** How long a call an app makes to the hub's web API may take (the hub's own call timeout). */
const CALL_TIMEOUT_MS = 10_000;

const sessionName = (appId: string) => `App ${appId}`;

/**
 * The hub's web API seen from inside apps (`this.homey.api.get/post/put/delete`, `getApi(uri)`,
 * `getOwnerApiToken`). An app holding `homey:manager:api` acts as the hub's owner, as in the ecosystem: it gets a
 * session of its own (type `APP`, named after it, listed with the owner's sessions) and its calls go to the
 * hub's real HTTP API with that session, so they meet the same validation, scopes and errors as any client's.
 * The session is made when the app first needs it and revoked when the app is uninstalled.
 */
export class AppHubApi {
  /** Token of each app's session made since the hub started (tokens are never stored, only their hashes). */
  readonly #tokens = new Map<string, string>();

  constructor(
    private readonly context: HubContext,
    /** Where the hub listens (known once it does). */
    private readonly localUrl: () => Promise<string>,
  ) {}

  /** The token of the app's session; refuses an app without the permission. */
  token(app: InstalledApp): string {
    if (!(app.manifest.permissions ?? []).includes(API_PERMISSION))
      throw new HearthError('forbidden', `App ${app.id} needs the ${API_PERMISSION} permission to use the hub's web API`);
    const known = this.#tokens.get(app.id);
    if (known && this.context.sessions.findByToken(known)) return known;
    const owner = this.context.users.owner();
    if (!owner) throw new HearthError('unavailable', 'The hub has no owner yet');
    // One session per app: the one a previous run of the hub made is replaced, as its token is gone.
    this.revoke(app.id);
    const { token } = this.context.sessions.create({
      type: 'APP',
      userId: owner.id,
      name: sessionName(app.id),
      clientName: app.id,
      scopes: null,
    });
    this.#tokens.set(app.id, token);
    return token;
  }

  /** Revokes the app's sessions (on uninstall). */
  revoke(appId: string): void {
    this.#tokens.delete(appId);
    const owner = this.context.users.owner();
    if (!owner) return;
    for (const session of this.context.sessions.list(owner.id))
      if (session.type === 'APP' && session.name === sessionName(appId)) this.context.sessions.delete(session.id);
  }

  /**
   * Calls `uri` (under `/api`: `/manager/<manager>/…` or `/app/<appId>/…`) on the hub's HTTP API as the app; answers
   * the JSON answer, or throws the hub's error (its code, status and message) for the app to see.
   */
  async request(app: InstalledApp, method: string, uri: string, body: unknown): Promise<unknown> {
    if (!/^\/(manager|app)\/[^/?#]+/.test(uri) || uri.split(/[?#]/)[0]?.split('/').includes('..'))
      throw new HearthError('invalid_parameter', `Invalid Parameter: uri. Expected /manager/<name>/… or /app/<id>/…, got ${uri}`);
    const headers: Record<string, string> = { authorization: `Bearer ${this.token(app)}`, 'x-homey-id': this.context.config.id };
    const sendsBody = method === 'POST' || method === 'PUT';
    if (sendsBody) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      // A hub listening on every interface is reached over loopback.
      const base = (await this.localUrl()).replace('//0.0.0.0:', '//127.0.0.1:');
      response = await fetch(`${base}/api${uri}`, {
        method,
        headers,
        ...(sendsBody ? { body: JSON.stringify(body ?? {}) } : {}),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      throw new HearthError('unavailable', `The hub's web API did not answer: ${(error as Error).message}`);
    }
    const text = await response.text();
    let answer: unknown = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = text;
    }
    if (response.ok) return answer;
    const failure = (answer ?? {}) as { error?: unknown; error_description?: unknown };
    const code = typeof failure.error === 'string' ? failure.error : 'app_error';
    const message =
      typeof failure.error_description === 'string' ? failure.error_description : `The hub answered ${response.status}`;
    throw Object.assign(new Error(message), { code, statusCode: response.status });
  }
}
