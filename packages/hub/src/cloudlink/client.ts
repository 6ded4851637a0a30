import type { HubConfig } from '../config';

/** The cloud's internal client, whose credential a hub of the provider's own acts with. */
export const INTERNAL_CLIENT_ID = 'hearth-internal';

/**
 * The hub's authenticated link to the cloud for its private calls (registration, mail). It obtains a
 * client-credentials token of the internal client, reuses it until it expires or the cloud answers 401, and
 * then fetches one new token for everyone waiting. Without a secret it calls without a token.
 */
export class CloudLink {
  private token: Promise<string> | null = null;
  private tokenExpiresAt = 0;

  constructor(private readonly config: Pick<HubConfig, 'cloudUrl' | 'cloudClientSecret' | 'id'>) {}

  get url(): string | null {
    return this.config.cloudUrl?.replace(/\/$/, '') ?? null;
  }

  /** Calls `path` on the cloud with the hub's credentials; retries once with a fresh token after a 401. */
  async fetch(path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
    const base = this.url;
    if (!base) throw new Error('the hub has no cloud');
    const send = async (fresh: boolean) => {
      const headers = new Headers(init.headers);
      headers.set('X-Homey-ID', this.config.id);
      if (this.config.cloudClientSecret) headers.set('authorization', `Bearer ${await this.accessToken(fresh)}`);
      return fetch(`${base}${path}`, { ...init, headers, signal: init.signal ?? AbortSignal.timeout(init.timeoutMs ?? 10_000) });
    };
    const response = await send(false);
    if (response.status !== 401 || !this.config.cloudClientSecret) return response;
    return send(true);
  }

  private accessToken(fresh: boolean): Promise<string> {
    if (fresh || !this.token || Date.now() >= this.tokenExpiresAt) {
      const pending = this.requestToken();
      this.token = pending;
      // A failed request must not be cached.
      pending.catch(() => {
        if (this.token === pending) this.token = null;
      });
    }
    return this.token as Promise<string>;
  }

  private async requestToken(): Promise<string> {
    const credentials = `${encodeURIComponent(INTERNAL_CLIENT_ID)}:${encodeURIComponent(this.config.cloudClientSecret ?? '')}`;
    const response = await fetch(`${this.url}/cloud/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: string;
      expires_in?: number;
      error_description?: string;
    };
    if (!response.ok || !answer.access_token) {
      throw new Error(`the cloud refused the hub's credentials (${response.status}): ${answer.error_description ?? ''}`);
    }
    // Renew a little before the cloud would refuse it.
    this.tokenExpiresAt = Date.now() + Math.max(0, (answer.expires_in ?? 3600) - 30) * 1000;
    return answer.access_token;
  }
}
