import { createPublicKey, type KeyObject } from 'node:crypto';
import { cloudOperations, HearthError } from '@hearth/contract';
import { fullPath } from '@hearth/contract/client';
import { errors as joseErrors, jwtVerify } from 'jose';

/** What a delegation token from the cloud says about its holder. */
export interface DelegationClaims {
  /** The cloud account's `_id`; matched against a hub user's `athomId`. */
  sub: string;
  /** The hub the token was made for, when the cloud names one. */
  homeyId?: string;
  /** The holder's role on this hub, when the cloud names one. */
  role?: string;
  name?: string;
}

/** A JWT in compact serialization: three base64url parts. Anything else is refused without asking the cloud. */
const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A failed key fetch is retried after this long, a key that no longer verifies is refetched at most this often. */
const REFETCH_AFTER_MS = 30_000;

/**
 * Verifies delegation tokens (JWT, RS512, audience `homey`) with the cloud's public key from
 * `GET {cloudUrl}/cloud/delegation/key`, which answers PEM as text or as a JSON string. The key is cached;
 * when a token fails its signature check and the cached key is older than {@link REFETCH_AFTER_MS}, the key is
 * fetched again once (the cloud may have rotated it).
 */
export class DelegationVerifier {
  private key: { value: KeyObject; fetchedAt: number } | null = null;
  private pending: Promise<KeyObject> | null = null;

  constructor(
    private readonly cloudUrl: string | null,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async verify(token: string): Promise<DelegationClaims> {
    if (!COMPACT_JWT.test(token)) throw new HearthError('invalid_token', 'Invalid delegation token');
    let key = await this.currentKey();
    try {
      return await this.check(token, key);
    } catch (error) {
      // Wall time, not the hub's clock: the cloud rotates its key in real time.
      const stale = this.key !== null && Date.now() - this.key.fetchedAt > REFETCH_AFTER_MS;
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed) || !stale) throw this.toHearthError(error);
      this.key = null;
      key = await this.currentKey();
      try {
        return await this.check(token, key);
      } catch (retryError) {
        throw this.toHearthError(retryError);
      }
    }
  }

  private async check(token: string, key: KeyObject): Promise<DelegationClaims> {
    const { payload } = await jwtVerify(token, key, { algorithms: ['RS512'], audience: 'homey' });
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new HearthError('invalid_token', 'Delegation token has no subject');
    }
    const text = (name: string): string | undefined =>
      typeof payload[name] === 'string' ? (payload[name] as string) : undefined;
    return { sub: payload.sub, homeyId: text('homeyId'), role: text('role'), name: text('name') };
  }

  private toHearthError(error: unknown): HearthError {
    if (error instanceof HearthError) return error;
    if (error instanceof joseErrors.JWTExpired) return new HearthError('invalid_token', 'Delegation token has expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      return new HearthError('invalid_token', `Delegation token is not valid here: ${error.claim}`);
    }
    return new HearthError('invalid_token', 'Invalid delegation token');
  }

  private async currentKey(): Promise<KeyObject> {
    if (this.key) return this.key.value;
    this.pending ??= this.fetchKey().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async fetchKey(): Promise<KeyObject> {
    if (!this.cloudUrl)
      throw new HearthError('unavailable', 'This hub is not connected to a cloud; sign in with a personal access token');
    let text: string;
    try {
      const response = await this.fetchImpl(
        `${this.cloudUrl.replace(/\/$/, '')}${fullPath(cloudOperations.cloud.getDelegationTokenKey)}`,
        {
          signal: AbortSignal.timeout(5000),
        },
      );
      if (!response.ok) throw new Error(`status ${response.status}`);
      text = (await response.text()).trim();
    } catch {
      throw new HearthError('unavailable', 'The cloud could not be reached to verify the delegation token');
    }
    try {
      const pem = text.startsWith('"') ? (JSON.parse(text) as string) : text;
      const value = createPublicKey(pem);
      this.key = { value, fetchedAt: Date.now() };
      return value;
    } catch {
      throw new HearthError('unavailable', 'The cloud answered an unreadable delegation key');
    }
  }
}
