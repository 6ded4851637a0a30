import { Readable } from 'node:stream';
import { type AnyOperation, cloudOperations, type OperationArgs, type OperationResult } from '@hearth/contract';
import { fullPath, prepareRequest } from '@hearth/contract/client';
import type { HubConfig } from '../config';

/** The cloud's internal client, whose credential a hub of the provider's own acts with. */
export const INTERNAL_CLIENT_ID = 'hearth-internal';

/** The cloud answered a call with an error status; `body` is its decoded answer. */
export class CloudCallError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the cloud answered ${operation} with ${status}`);
    this.name = 'CloudCallError';
  }
}

export interface CloudCallOptions {
  /** Milliseconds before the call is given up (10 s unless told). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /**
   * A credential of the call's own to send as Bearer instead of the hub's client token (a setup session's hub
   * token, for operations that need no session of the cloud).
   */
  readonly bearer?: string;
}

/** Decodes an answer as the client library does: JSON when the cloud says so, text otherwise, nothing for 204. */
async function decode(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The hub's link to the cloud: every call is an operation of the contract (`cloudOperations`), its request
 * derived from the declaration as the client library derives it. Calls that need authentication carry a
 * client-credentials token of the internal client, reused until it expires or the cloud answers 401, when one
 * new token is fetched for everyone waiting. Without a secret the hub calls without a token.
 */
export class CloudLink {
  private token: Promise<string> | null = null;
  private tokenExpiresAt = 0;

  constructor(private readonly config: Pick<HubConfig, 'cloudUrl' | 'cloudClientSecret' | 'id'>) {}

  get url(): string | null {
    return this.config.cloudUrl?.replace(/\/$/, '') ?? null;
  }

  /**
   * Calls a declared cloud operation with flat arguments (path, query and body fields by name) and answers its
   * decoded result. Throws {@link CloudCallError} when the cloud answers an error status, and the transport's own
   * error when it cannot be reached in time.
   */
  async call<O extends AnyOperation>(
    operation: O,
    args: OperationArgs<O>,
    options: CloudCallOptions = {},
  ): Promise<OperationResult<O>> {
    return this.answer(operation, await this.request(operation, args, options));
  }

  /**
   * Sends `body` as the raw request body of a declared operation (an upload), streamed as it is read, and answers
   * the decoded result as {@link call} does.
   */
  async upload<O extends AnyOperation>(
    operation: O,
    args: OperationArgs<O>,
    body: Readable,
    options: CloudCallOptions & { contentType?: string } = {},
  ): Promise<OperationResult<O>> {
    const raw = { stream: body, contentType: options.contentType ?? 'application/octet-stream' };
    return this.answer(operation, await this.request(operation, args, options, raw));
  }

  /** The decoded result of a response, or the {@link CloudCallError} of an error status. */
  private async answer<O extends AnyOperation>(operation: O, response: Response): Promise<OperationResult<O>> {
    const body = await decode(response);
    if (!response.ok) throw new CloudCallError(operation.name, response.status, body);
    return body as OperationResult<O>;
  }

  /** Calls a declared operation whose answer is not JSON (a download) and answers the response, its body unread. */
  async download<O extends AnyOperation>(
    operation: O,
    args: OperationArgs<O>,
    options: CloudCallOptions = {},
  ): Promise<Response> {
    const response = await this.request(operation, args, options);
    if (!response.ok) throw new CloudCallError(operation.name, response.status, await decode(response));
    return response;
  }

  private async request<O extends AnyOperation>(
    operation: O,
    args: OperationArgs<O>,
    options: CloudCallOptions,
    raw?: { stream: Readable; contentType: string },
  ): Promise<Response> {
    const base = this.url;
    if (!base) throw new Error('the hub has no cloud');
    if (operation.owner.kind !== 'cloud') throw new Error(`${operation.name} is not a cloud operation`);
    const request = prepareRequest(operation, args as object);
    const query = new URLSearchParams(request.query).toString();
    const url = `${base}${operation.owner.base}${request.path}${query ? `?${query}` : ''}`;
    const authenticated = (operation.auth || operation.private) && Boolean(this.config.cloudClientSecret);
    const send = async (fresh: boolean) => {
      const headers = new Headers({ 'X-Homey-ID': this.config.id });
      if (raw) headers.set('content-type', raw.contentType);
      else if (request.body !== undefined) headers.set('content-type', 'application/json');
      if (options.bearer) headers.set('authorization', `Bearer ${options.bearer}`);
      else if (authenticated) headers.set('authorization', `Bearer ${await this.accessToken(fresh)}`);
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
      return fetch(url, {
        method: request.method,
        headers,
        body: raw
          ? (Readable.toWeb(raw.stream) as ReadableStream)
          : request.body === undefined
            ? undefined
            : JSON.stringify(request.body),
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
        ...(raw ? { duplex: 'half' } : {}),
      } as RequestInit);
    };
    let response = await send(false);
    // A stream is read once: an upload is not sent again with a fresh token.
    if (response.status === 401 && authenticated && !raw) response = await send(true);
    return response;
  }

  /**
   * The internal client's access token, for a connection the hub opens itself (the relay tunnel); `fresh` asks for
   * a new one after the cloud refused the last.
   */
  bearer(fresh = false): Promise<string> {
    if (!this.config.cloudClientSecret) return Promise.reject(new Error('the hub has no cloud credential'));
    return this.accessToken(fresh);
  }

  private accessToken(fresh: boolean): Promise<string> {
    // Wall time, not the hub's clock: the token lives as long as the cloud says, in real time.
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

  /** The token endpoint is form-encoded with the client's credentials in HTTP Basic, as the client library sends it. */
  private async requestToken(): Promise<string> {
    const operation = cloudOperations.cloud.getAccessToken;
    const credentials = `${encodeURIComponent(INTERNAL_CLIENT_ID)}:${encodeURIComponent(this.config.cloudClientSecret ?? '')}`;
    const response = await fetch(`${this.url}${fullPath(operation)}`, {
      method: operation.method,
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
