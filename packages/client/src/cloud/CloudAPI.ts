import type { AnyOperation, cloudOperations, OperationArgs, OperationResult } from '@hearth/contract';
import { type OperationMethods, type PreparedRequest, prepareRequest } from '@hearth/contract/client';
import { base64, base64url } from '../core/encoding';
import { APIError, messages, ParameterError } from '../core/errors';
import { findOperation, operationTable } from '../core/operations';
import type { Platform } from '../core/platform';
import { DEFAULT_RETRIES, retryDelay } from '../core/retry';
import { Secrets } from '../core/secrets';
import { checkStorageAdapter, type StorageAdapter, type StoredState } from '../core/storage';
import { type HttpResponse, Transport } from '../core/transport';
import { CloudUser, type CloudUserData } from './CloudUser';

/** An OAuth2 token as the cloud answers it. */
export interface CloudToken {
  token_type?: string;
  access_token: string;
  refresh_token?: string | null;
  expires_in?: number;
  grant_type?: string;
}

export type CloudOperations = typeof cloudOperations;
export type CloudServiceName = keyof CloudOperations & string;

type DerivedServices = { [K in CloudServiceName]: OperationMethods<CloudOperations[K]> };
type IconsOperations = CloudOperations['icons'];
type RegionOperations = CloudOperations['region'];

/**
 * Methods of every cloud service, by service: `api.services.apps.getApps()`. Two answer or call differently
 * from what the contract alone says: `icons.getIcon` answers the SVG text (size 32 unless asked), and
 * `region.getSystemStatus` takes the status secret, which travels in a header.
 */
export type CloudServices = Omit<DerivedServices, 'icons' | 'region'> & {
  icons: Omit<DerivedServices['icons'], 'getIcon'> & {
    getIcon(args: OperationArgs<IconsOperations['getIcon']>): Promise<string>;
  };
  region: Omit<DerivedServices['region'], 'getSystemStatus'> & {
    getSystemStatus(args: { secret: string }): Promise<OperationResult<RegionOperations['getSystemStatus']>>;
  };
};

export interface CloudAPIOptions {
  /** OAuth2 client id: required for every sign-in. */
  clientId?: string;
  /** OAuth2 client secret of confidential clients; sent only in the Basic Authorization header. */
  clientSecret?: string;
  /** Where the sign-in page returns to with `?code=`; required to build the authorise URL. */
  redirectUrl?: string;
  /** Origin of the cloud, e.g. `http://127.0.0.1:4000`; each service hangs under its base path. */
  baseUrl?: string;
  /** Full base URL of individual services, replacing `baseUrl` + base path (e.g. `{ apps: 'https://apps.example' }`). */
  baseUrls?: Partial<Record<CloudServiceName, string>>;
  /** Keeps the token and user between runs; memory in Node, `localStorage` (`homey-api`) in browsers. */
  store?: StorageAdapter;
  /** A token to start with (otherwise the stored one, if any). */
  token?: CloudToken;
  /** Refresh the token when a call answers 401 `invalid_token`, then retry once (default true). */
  autoRefreshTokens?: boolean;
  /** Per-call timeout in milliseconds (default 10000). */
  timeout?: number;
  /**
   * How often a call is sent again when the cloud answers that its node went away (502/503/504 from a cluster's
   * balancer) or the network failed — only calls safe to repeat: idempotent ones, those with an `Idempotency-Key`,
   * and any the balancer says reached no node (default 2; 0 turns it off).
   */
  retries?: number;
  /** Receives debug lines with every secret redacted. */
  debug?: (line: string) => void;
}

export interface CoreCloudAPIOptions extends CloudAPIOptions {
  platform: Platform;
}

/** How long a refresh's outcome is shared by every call that hit a 401 (seed: token refresh memo). */
export const REFRESH_MEMO_MS = 30_000;
export const DEFAULT_CLOUD_URL = 'http://127.0.0.1:4000';
/** Icon size when none is asked for (seed section 9). */
export const ICON_DEFAULT_SIZE = 32;
/** The header carrying the secret of `region.getSystemStatus` (the contract's `STATUS_SECRET_HEADER`). */
export const STATUS_SECRET_HEADER = 'x-hearth-status-secret';
/** The sign-in page under the cloud service (wire-protocol.md): a page people open, not an operation of the contract. */
const AUTHORISE_PATH = '/oauth2/authorise';

/** The image type of `bytes` by its signature: jpg, png or gif, else `null`. */
function imageType(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | null {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  return null;
}

const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const isToken = (value: unknown): value is CloudToken =>
  typeof value === 'object' && value !== null && typeof (value as CloudToken).access_token === 'string';

/**
 * The cloud: sign-in by every grant, the token store, the methods of every cloud service derived from the
 * contract (the `cloud` service's on the instance itself, as the ecosystem names them), and the way to a
 * signed-in user's hubs.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor defines the merged interface's members from the contract
export class CloudAPI {
  /** Methods of every service, derived from the contract, by service name. */
  readonly services: CloudServices;
  readonly clientId: string | undefined;
  readonly redirectUrl: string | undefined;
  readonly autoRefreshTokens: boolean;
  /** @internal */
  readonly platform: Platform;
  /** @internal */
  readonly secrets = new Secrets();
  /** @internal */
  readonly transport: Transport;
  readonly #options: CoreCloudAPIOptions;
  readonly #store: StorageAdapter;
  #token: CloudToken | null | undefined;
  #user: CloudUser | null = null;
  #refresh: { promise: Promise<CloudToken>; at: number } | null = null;

  constructor(options: CoreCloudAPIOptions) {
    this.#options = options;
    this.platform = options.platform;
    this.clientId = options.clientId;
    this.redirectUrl = options.redirectUrl;
    this.autoRefreshTokens = options.autoRefreshTokens ?? true;
    this.#store = options.store === undefined ? options.platform.createStore() : checkStorageAdapter(options.store);
    if (options.token !== undefined) this.#setTokenValue(options.token);
    this.secrets.add(options.clientSecret);
    this.transport = new Transport({
      fetch: options.platform.fetch,
      timeout: options.timeout,
      secrets: this.secrets,
      debug: options.debug,
    });
    const services: Record<string, Record<string, (args?: object) => Promise<unknown>>> = {};
    for (const [service, group] of Object.entries(operationTable.cloud)) {
      const methods: Record<string, (args?: object) => Promise<unknown>> = {};
      for (const operation of Object.values(group as Record<string, AnyOperation>)) {
        methods[operation.name] = (args?: object) => this.call(operation, args);
      }
      services[service] = methods;
    }
    const icons = findOperation('cloud', 'icons', 'getIcon');
    (services.icons as Record<string, unknown>).getIcon = (args?: object) =>
      this.call(icons, { size: ICON_DEFAULT_SIZE, ...args });
    const status = findOperation('cloud', 'region', 'getSystemStatus');
    (services.region as Record<string, unknown>).getSystemStatus = async (args?: { secret?: unknown }) => {
      const secret = args?.secret;
      if (secret === undefined) throw new ParameterError('Missing Parameter: secret');
      if (typeof secret !== 'string')
        throw new ParameterError(`Invalid Parameter Type: secret. Got: ${typeName(secret)}. Expected: string`);
      this.secrets.add(secret);
      return this.send(prepareRequest(status, {}), undefined, { [STATUS_SECRET_HEADER]: secret });
    };
    this.services = services as unknown as CloudServices;
    // The `cloud` service's methods live on the instance, unless the class gives a richer one of the same name.
    for (const [name, method] of Object.entries(services.cloud ?? {})) {
      if (!(name in this)) Object.defineProperty(this, name, { value: method, enumerable: false });
    }
  }

  /** Base URL of a service: its override, or the cloud origin plus the service's base path. */
  baseUrlOf(service: string): string {
    const override = (this.#options.baseUrls as Record<string, string | undefined> | undefined)?.[service];
    if (override) return override.replace(/\/$/, '');
    const group = (operationTable.cloud as Record<string, Record<string, AnyOperation>>)[service];
    const first = group && Object.values(group)[0];
    const base = first?.owner.kind === 'cloud' ? first.owner.base : `/${service}`;
    return `${(this.#options.baseUrl ?? DEFAULT_CLOUD_URL).replace(/\/$/, '')}${base}`;
  }

  #urlOf(operation: AnyOperation, path: string, query?: Record<string, string>): string {
    const service = operation.owner.kind === 'cloud' ? operation.owner.service : 'cloud';
    const search =
      query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString().replace(/\+/g, '%20')}` : '';
    return `${this.baseUrlOf(service)}${path}${search}`;
  }

  // ---- token and store ------------------------------------------------------------------------------------

  #setTokenValue(token: CloudToken | null): void {
    if (token !== null && !isToken(token)) throw new TypeError(messages.badToken);
    this.#token = token;
    if (token) this.secrets.add(token.access_token, token.refresh_token ?? undefined);
  }

  async #state(): Promise<StoredState> {
    return (await this.#store.get()) ?? {};
  }

  async #patchState(patch: StoredState): Promise<void> {
    const next = { ...(await this.#state()), ...patch };
    for (const [key, value] of Object.entries(next)) if (value === undefined) delete next[key];
    await this.#store.set(next);
  }

  /** The current token: the one set, else the stored one, else `null`. */
  async getToken(): Promise<CloudToken | null> {
    if (this.#token === undefined) {
      const stored = (await this.#state()).token;
      this.#setTokenValue(isToken(stored) ? stored : null);
    }
    return this.#token ?? null;
  }

  /** Sets (and stores) the token; `null` forgets it. Throws 'The token must be a token object' for anything else. */
  async setToken(token: CloudToken | null): Promise<void> {
    this.#refresh = null;
    await this.#storeToken(token);
  }

  async #storeToken(token: CloudToken | null): Promise<void> {
    this.#setTokenValue(token);
    await this.#patchState({ token: token ?? undefined });
  }

  async isLoggedIn(): Promise<boolean> {
    return (await this.getToken()) !== null;
  }

  /** Signs out: forgets the user, everything stored and the token. */
  async logout(): Promise<void> {
    this.#user = null;
    this.#token = null;
    this.#refresh = null;
    await this.#store.set({});
  }

  // ---- sign-in ----------------------------------------------------------------------------------------------

  /**
   * The address of the cloud's sign-in page. Browsers (public clients) add a PKCE S256 challenge whose verifier
   * is kept in the store for {@link authenticateWithAuthorizationCode}.
   */
  async getLoginUrl(options: { state?: string; scopes?: string[] } = {}): Promise<string> {
    if (!this.clientId) throw new APIError('Missing Parameter: clientId', 400, 'missing_parameter');
    if (!this.redirectUrl) throw new APIError('Missing Parameter: redirectUrl', 400, 'missing_parameter');
    const query: Record<string, string> = {
      client_id: this.clientId,
      redirect_uri: this.redirectUrl,
      response_type: 'code',
    };
    if (options.state) query.state = options.state;
    if (options.scopes?.length) query.scope = options.scopes.join(',');
    if (this.platform.pkce && this.platform.sha256) {
      const verifier = base64url(this.platform.randomBytes(32));
      const challenge = base64url(new Uint8Array(await this.platform.sha256(new TextEncoder().encode(verifier))));
      await this.#patchState({ codeVerifier: verifier });
      query.code_challenge = challenge;
      query.code_challenge_method = 'S256';
    }
    const search = new URLSearchParams(query).toString().replace(/\+/g, '%20');
    return `${this.baseUrlOf('cloud')}${AUTHORISE_PATH}?${search}`;
  }

  /** Exchanges the `code` the sign-in page returned for a token. */
  async authenticateWithAuthorizationCode(options: { code: string }): Promise<CloudToken> {
    const state = await this.#state();
    const verifier = typeof state.codeVerifier === 'string' ? state.codeVerifier : undefined;
    const token = await this.#grant('authorization_code', { code: options.code, code_verifier: verifier }, ['code']);
    await this.#patchState({ codeVerifier: undefined });
    return token;
  }

  async authenticateWithPassword(options: { username: string; password: string }): Promise<CloudToken> {
    this.secrets.add(options.password);
    return this.#grant('password', { username: options.username, password: options.password }, ['username', 'password']);
  }

  async authenticateWithClientCredentials(): Promise<CloudToken> {
    return this.#grant('client_credentials', {}, [], true);
  }

  /** Exchanges the refresh token for a new token. Throws 'Missing Refresh Token' without one. */
  async authenticateWithRefreshToken(): Promise<CloudToken> {
    const token = await this.getToken();
    if (!token?.refresh_token) throw new APIError(messages.missingRefreshToken, 401, 'missing_refresh_token');
    return this.#grant('refresh_token', { refresh_token: token.refresh_token }, ['refresh_token']);
  }

  /** An extended grant: any `grant_type` with its own form fields. */
  async authenticateWithGrant(grantType: string, fields: Record<string, string> = {}): Promise<CloudToken> {
    return this.#grant(grantType, fields, []);
  }

  async #grant(
    grantType: string,
    fields: Record<string, string | undefined>,
    required: string[],
    needsSecret = false,
  ): Promise<CloudToken> {
    if (!grantType) throw new APIError('Missing Parameter: grant_type', 400, 'missing_parameter');
    if (!this.clientId) throw new APIError('Missing Parameter: client_id', 400, 'missing_parameter');
    if (needsSecret && !this.#options.clientSecret)
      throw new APIError('Missing Parameter: client_secret', 400, 'missing_parameter');
    for (const name of required) if (!fields[name]) throw new APIError(`Missing Parameter: ${name}`, 400, 'missing_parameter');
    const operation = findOperation('cloud', 'cloud', 'getAccessToken');
    const credentials = `${this.clientId}:${this.#options.clientSecret ?? ''}`;
    const answer = await this.transport.request({
      method: operation.method,
      url: this.#urlOf(operation, operation.path),
      headers: { Authorization: `Basic ${base64(credentials)}` },
      form: { grant_type: grantType, ...fields },
    });
    if (!isToken(answer)) throw new APIError(messages.invalidResponse, 500, 'invalid_response');
    const token: CloudToken = { ...answer, grant_type: grantType };
    // A refresh keeps its memo; a new sign-in starts afresh.
    if (grantType !== 'refresh_token') this.#refresh = null;
    await this.#storeToken(token);
    return token;
  }

  /**
   * One refresh shared by every call that met a 401 with `invalid_token`, and by any that meet one within the
   * next 30 s: concurrent calls must not each spend the single-use refresh token.
   */
  refreshToken(): Promise<CloudToken> {
    if (this.#refresh && Date.now() - this.#refresh.at < REFRESH_MEMO_MS) return this.#refresh.promise;
    const promise = this.authenticateWithRefreshToken();
    const entry = { promise, at: Date.now() };
    this.#refresh = entry;
    promise.catch(() => {
      if (this.#refresh === entry) this.#refresh = null;
    });
    return promise;
  }

  // ---- calls ------------------------------------------------------------------------------------------------

  /** Calls one declared operation with flat arguments (path, query and body fields by name). */
  async call(operation: AnyOperation, args?: object): Promise<unknown> {
    return this.send(prepareRequest(operation, args));
  }

  /** Sends a prepared request with the Bearer token; refreshes once and retries on 401 `invalid_token`. */
  async send(request: PreparedRequest, raw?: RequestInit['body'], headers?: Record<string, string>): Promise<unknown> {
    const first = await this.getToken();
    let response = await this.#sendOnce(request, first, raw, headers);
    if (
      response.status === 401 &&
      this.autoRefreshTokens &&
      first?.refresh_token &&
      (response.body as { error?: unknown } | undefined)?.error === 'invalid_token'
    ) {
      // Another call may already have refreshed: then just retry with the new token.
      const current = await this.getToken();
      const token = current && current.access_token !== first.access_token ? current : await this.refreshToken();
      response = await this.#sendOnce(request, token, raw, headers);
    }
    return this.transport.result(response);
  }

  async #sendOnce(
    request: PreparedRequest,
    token: CloudToken | null,
    raw?: RequestInit['body'],
    extraHeaders?: Record<string, string>,
  ): Promise<HttpResponse> {
    const { operation } = request;
    const headers: Record<string, string> = { ...extraHeaders };
    if (token) headers.Authorization = `Bearer ${token.access_token}`;
    else if (operation.auth) throw new APIError(messages.missingToken, 401, 'missing_token');
    const send = () =>
      this.transport.send({
        method: request.method,
        url: this.#urlOf(operation, request.path, request.query),
        headers,
        ...(raw === undefined ? { json: request.body } : { raw }),
      });
    // A streamed body cannot be sent twice; everything else may, when the policy allows.
    const retries =
      raw === undefined || typeof raw === 'string' || raw instanceof Uint8Array ? (this.#options.retries ?? DEFAULT_RETRIES) : 0;
    for (let attempt = 0; ; attempt++) {
      let outcome: HttpResponse | { error: unknown };
      try {
        outcome = await send();
      } catch (error) {
        outcome = { error };
      }
      const wait = attempt < retries ? retryDelay(request.method, headers, outcome, attempt) : null;
      if (wait === null) {
        if ('error' in outcome) throw outcome.error;
        return outcome;
      }
      this.transport.debug(`↻ retrying ${request.method} ${operation.name} in ${Math.round(wait)}ms`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /**
   * Uploads the user's avatar (multipart, field `avatar`): a jpg, png or gif image as binary data, checked
   * before anything is sent. Answers the addresses of the stored image.
   */
  async uploadAvatar(options: { avatar: Uint8Array | ArrayBuffer; id?: string }): Promise<{ medium: string; large: string }> {
    const { avatar } = options;
    if (!(avatar instanceof Uint8Array) && !(avatar instanceof ArrayBuffer)) {
      throw new ParameterError(`Invalid Parameter Type: avatar. Got: ${typeName(avatar)}. Expected: Buffer`);
    }
    const bytes = avatar instanceof Uint8Array ? avatar : new Uint8Array(avatar);
    const type = imageType(bytes);
    if (!type) throw new ParameterError('Invalid Parameter: avatar. Only jpg, png or gif images are accepted');
    const id = options.id ?? this.#user?.id ?? (await this.getAuthenticatedUser()).id;
    const form = new FormData();
    form.append(
      'avatar',
      new Blob([bytes as Uint8Array<ArrayBuffer>], { type: `image/${type}` }),
      `avatar.${type === 'jpeg' ? 'jpg' : type}`,
    );
    const operation = findOperation('cloud', 'cloud', 'uploadAvatar');
    return (await this.send(prepareRequest(operation, { id }), form)) as { medium: string; large: string };
  }

  /** The address of a stored icon at `size` pixels (default 32), for an `<img src>`; no request is made. */
  getIconUrl(args: { iconId: string; size?: number }): string {
    const operation = findOperation('cloud', 'icons', 'getIcon');
    const request = prepareRequest(operation, { size: ICON_DEFAULT_SIZE, ...args });
    return this.#urlOf(operation, request.path, request.query);
  }

  // ---- the user and their hubs ------------------------------------------------------------------------------

  /** The signed-in user (cached until logout), with their hubs. */
  async getAuthenticatedUser(options: { additionalScopes?: string } = {}): Promise<CloudUser> {
    const operation = findOperation('cloud', 'cloud', 'getAuthenticatedUser');
    const data = (await this.call(operation, options)) as CloudUserData;
    if (typeof data !== 'object' || data === null || (data._id ?? data.id) === undefined) {
      throw new APIError(messages.invalidResponse, 500, 'invalid_response');
    }
    this.#user = new CloudUser(this, data);
    return this.#user;
  }

  /** The user fetched last, or `null`. */
  get user(): CloudUser | null {
    return this.#user;
  }

  #ca: Promise<string> | null = null;

  /** The cloud's CA certificate (PEM) that signs hubs' local secure addresses; read once. */
  certificateAuthority(): Promise<string> {
    if (!this.#ca) {
      const operation = findOperation('cloud', 'certificate', 'getCertificateAuthority');
      this.#ca = this.call(operation, {}).then((answer) => (answer as { certificate: string }).certificate);
      this.#ca.catch(() => {
        this.#ca = null;
      });
    }
    return this.#ca;
  }

  /** A delegation token (JWT) for `audience` (`homey` for hubs): a bare string. */
  async createDelegationToken(options: { audience: string; meta?: object }): Promise<string> {
    const operation = findOperation('cloud', 'cloud', 'createDelegationToken');
    const token = await this.call(operation, options);
    if (typeof token !== 'string') throw new APIError(messages.invalidResponse, 500, 'invalid_response');
    this.secrets.add(token);
    return token;
  }
}

// The `cloud` service's operations are also methods of the instance (derived in the constructor).
type ClassMembers =
  | 'getAuthenticatedUser'
  | 'createDelegationToken'
  | 'certificateAuthority'
  | 'getToken'
  | 'setToken'
  | 'logout'
  | 'call'
  | 'send'
  | 'services'
  | 'uploadAvatar'
  | 'user';
type RootMethods = Omit<OperationMethods<CloudOperations['cloud']>, ClassMembers>;
export interface CloudAPI extends RootMethods {}
