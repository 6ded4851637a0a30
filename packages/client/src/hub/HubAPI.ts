import type { AnyOperation, hubOperations } from '@hearth/contract';
import { fullPath, type OperationMethods, type PreparedRequest, prepareRequest } from '@hearth/contract/client';
import { APIError, messages } from '../core/errors';
import { findOperation, operationTable } from '../core/operations';

import type { Platform } from '../core/platform';
import { Secrets } from '../core/secrets';
import { type HttpResponse, Transport } from '../core/transport';
import { type DiscoveryResult, discover, type HubAddresses, ping, type Strategy } from './discovery';
import type { ItemFields, ManagerListeners } from './events';
import type { Device, Flow } from './items';
import { Manager } from './Manager';
import { Realtime } from './Realtime';

export type { ItemFields };
export type HubOperations = typeof hubOperations;
export type HubManagerName = keyof HubOperations & string;

/** Results with a string `id` (or maps and lists of them) come back as items, with their class's methods. */
export type AsItems<R, Methods = unknown> = R extends { id: string }
  ? R & ItemFields & Methods
  : R extends (infer V extends { id: string })[]
    ? (V & ItemFields & Methods)[]
    : R extends Record<string, infer V extends { id: string }>
      ? Record<string, V & ItemFields & Methods>
      : R;

type DeviceMethods = Pick<Device, 'setCapabilityValue' | 'makeCapabilityInstance' | 'connect' | 'disconnect'>;
type FlowMethods = Pick<Flow, 'trigger' | 'enable' | 'disable' | 'isBroken'>;
/**
 * What the item classes add, by manager and operation: the operations whose answers the manager makes into a
 * {@link Device} or a {@link Flow} (it picks the class by the path, `/<type>` or `/<type>/:id`).
 */
interface ItemClassMethods {
  devices: Record<'getDevice' | 'getDevices' | 'updateDevice', DeviceMethods>;
  flow: Record<
    | 'getFlow'
    | 'getFlows'
    | 'createFlow'
    | 'updateFlow'
    | 'getAdvancedFlow'
    | 'getAdvancedFlows'
    | 'createAdvancedFlow'
    | 'updateAdvancedFlow',
    FlowMethods
  >;
}
type ClassMethodsOf<Name, Op> = Name extends keyof ItemClassMethods
  ? Op extends keyof ItemClassMethods[Name]
    ? ItemClassMethods[Name][Op]
    : unknown
  : unknown;

type ItemMethods<M, Name> = {
  [Op in keyof M]: M[Op] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<AsItems<R, ClassMethodsOf<Name, Op>>>
    : M[Op];
};

/**
 * A manager with its typed methods, and its realtime events typed from the contract: `on('device.update', (device)
 * => …)` gets the device.
 */
export type HubManager<K extends HubManagerName> = Omit<Manager, 'on' | 'once' | 'off'> &
  ManagerListeners<K> &
  ItemMethods<OperationMethods<HubOperations[K]>, K>;

/** Every manager of the hub, by the contract's manager name (`devices`, `zones`, `flowtoken`, …). */
export type HubManagers = { [K in HubManagerName]: HubManager<K> };

/** A session as `GET /api/manager/sessions/session/me` answers it. */
export interface HubSession {
  id?: string;
  type?: string;
  scopes?: string[];
  intersectedScopes?: string[];
  [key: string]: unknown;
}

export interface HubAPIOptions {
  /** The hub's id (24 hex characters), sent as `X-Homey-ID` on every request. */
  id: string;
  /** Where the hub answers, e.g. `http://192.168.1.20` (the API hangs under `/api/` at its origin). */
  baseUrl: string;
  /** Session token or personal access token. */
  token: string | null;
  /** Per-call timeout in milliseconds (default 10000). */
  timeout?: number;
  debug?: (line: string) => void;
  /** Answers a fresh session token after a 401 (cloud-made clients log in again with a new delegation token). */
  relogin?: () => Promise<string>;
  /** Reconnect the realtime socket after it drops (default true). */
  reconnect?: boolean;
  /** @internal shared with the cloud client that made this one */
  secrets?: Secrets;
}

export interface CoreHubAPIOptions extends HubAPIOptions {
  platform: Platform;
}

/**
 * One hub: its managers (methods derived from the contract), its session and its realtime connection.
 * Calls go over HTTP, or over the socket's `api` event once the socket is connected. Any 401 makes a
 * cloud-made client log in again once and retry.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor defines the merged interface's members from the contract
export class HubAPI {
  readonly id: string;
  readonly baseUrl: string;
  readonly managers: HubManagers;
  readonly realtime: Realtime;
  /** @internal */
  readonly transport: Transport;
  /** @internal */
  readonly secrets: Secrets;
  /** The session, once {@link getSession} or a cloud sign-in fetched it. */
  session: HubSession | null = null;
  /** How this client found the hub (set by discovery). */
  discovery: DiscoveryResult | null = null;
  #token: string | null;
  readonly #relogin: (() => Promise<string>) | undefined;
  #relogging: Promise<string> | null = null;

  constructor(options: CoreHubAPIOptions) {
    this.id = options.id;
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.#token = options.token;
    this.#relogin = options.relogin;
    this.secrets = options.secrets ?? new Secrets();
    this.secrets.add(options.token);
    this.transport = new Transport({
      fetch: options.platform.fetch,
      timeout: options.timeout,
      secrets: this.secrets,
      debug: options.debug,
    });
    this.realtime = new Realtime({
      url: this.baseUrl,
      hubId: this.id,
      socket: options.platform.socket,
      token: () => this.#token,
      relogin: options.relogin ? () => this.relogin() : undefined,
      debug: options.debug ? (line) => this.transport.debug(line) : undefined,
      reconnect: options.reconnect,
    });
    const managers: Record<string, Manager> = {};
    for (const [name, group] of Object.entries(operationTable.hub)) {
      managers[name] = new Manager(this, name, group as Record<string, AnyOperation>);
      if (!(name in this)) Object.defineProperty(this, name, { value: managers[name], enumerable: false });
    }
    this.managers = managers as unknown as HubManagers;
  }

  /**
   * A client for a hub at a known address with a token (PAT or session token). Pings the address first: it
   * must answer with an `X-Homey-ID` header ('No Homey Found At Address' otherwise), which gives the hub's id.
   */
  static async connectLocal(
    options: { address: string; token: string; timeout?: number; debug?: (line: string) => void },
    platform: Platform,
  ): Promise<HubAPI> {
    if (!options.address) throw new APIError('Missing Parameter: address', 400, 'missing_parameter');
    const address = localAddress(options.address);
    if (!options.token) throw new APIError(messages.missingToken, 401, 'missing_token');
    const secrets = new Secrets();
    secrets.add(options.token);
    const transport = new Transport({ fetch: platform.fetch, secrets, debug: options.debug });
    const answer = await ping(transport, address, null, options.timeout ?? transport.timeout);
    return new HubAPI({ ...options, id: answer.id, baseUrl: address, token: options.token, secrets, platform });
  }

  /** Finds the best address of a hub record and answers a client for it (not yet logged in). */
  static async discover(
    record: HubAddresses & { apiVersion?: unknown },
    options: Omit<HubAPIOptions, 'id' | 'baseUrl'> & {
      strategies?: Strategy[];
      /** The cloud's CA certificate (PEM): the secure local address must present a certificate it signed. */
      ca?: string | null;
    },
    platform: Platform,
  ): Promise<HubAPI> {
    if (record.apiVersion !== undefined && Number(record.apiVersion) !== 3) {
      throw new APIError(messages.unsupportedApiVersion, 400, 'unsupported_api_version');
    }
    const secrets = options.secrets ?? new Secrets();
    const transport = new Transport({ fetch: platform.fetch, secrets, debug: options.debug });
    const trusting = options.ca && platform.trusting ? { ...platform, ...platform.trusting(options.ca) } : null;
    const secureTransport = trusting ? new Transport({ fetch: trusting.fetch, secrets, debug: options.debug }) : undefined;
    const found = await discover(transport, record, {
      strategies: options.strategies,
      mdns: platform.mdns,
      secureTransport,
    });
    transport.debug(`[discovery] ${record.id}: ${found.strategy} ${found.url}`);
    const over = found.strategy === 'localSecure' && trusting ? trusting : platform;
    const hub = new HubAPI({ ...options, id: record.id, baseUrl: found.url, secrets, platform: over });
    hub.discovery = found;
    return hub;
  }

  /** The manager called `name`, if the contract declares it. */
  manager(name: string): (Manager & Record<string, (args?: object) => Promise<unknown>>) | undefined {
    return (this.managers as unknown as Record<string, Manager & Record<string, (args?: object) => Promise<unknown>>>)[name];
  }

  get token(): string | null {
    return this.#token;
  }

  /** @internal */
  setToken(token: string): void {
    this.#token = token;
    this.secrets.add(token);
  }

  /** Logs in with a delegation token (`POST /api/manager/users/login`) and reads the session. */
  async login(delegationToken: string): Promise<HubSession> {
    this.secrets.add(delegationToken);
    const operation = findOperation('hub', 'users', 'login');
    const token = await this.#http('users', prepareRequest(operation, { token: delegationToken }), false);
    if (typeof token !== 'string') throw new APIError(messages.invalidResponse, 500, 'invalid_response');
    this.setToken(token);
    return this.getSession();
  }

  /** `GET /api/manager/sessions/session/me`: the session and its `intersectedScopes`. */
  async getSession(): Promise<HubSession> {
    const operation = findOperation('hub', 'sessions', 'getSessionMe');
    this.session = (await this.send('sessions', prepareRequest(operation, {}), {})) as HubSession;
    return this.session;
  }

  /** Logs in again once for every caller that met a 401 at the same time. */
  relogin(): Promise<string> {
    if (!this.#relogin) return Promise.reject(new APIError(messages.missingToken, 401, 'missing_token'));
    this.#relogging ??= this.#relogin()
      .then((token) => {
        this.setToken(token);
        return token;
      })
      .finally(() => {
        this.#relogging = null;
      });
    return this.#relogging;
  }

  /**
   * Sends one manager call: over the socket when it is connected, else over HTTP. A 401 makes a cloud-made
   * client log in again and retry once.
   */
  async send(manager: string, request: PreparedRequest, args: Record<string, unknown>): Promise<unknown> {
    const attempt = () =>
      this.realtime.connected && request.operation.auth !== false
        ? this.realtime.api(`homey:manager:${manager}`, request.operation.name, args, request.operation.timeoutMs)
        : this.#http(manager, request, true);
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof APIError) || error.statusCode !== 401 || !this.#relogin) throw error;
      await this.relogin();
      return attempt();
    }
  }

  async #http(_manager: string, request: PreparedRequest, authenticate: boolean): Promise<unknown> {
    const headers: Record<string, string> = { 'X-Homey-ID': this.id };
    if (authenticate && request.operation.auth !== false) {
      if (!this.#token) throw new APIError(messages.missingToken, 401, 'missing_token');
      headers.Authorization = `Bearer ${this.#token}`;
    }
    const search = new URLSearchParams(request.query).toString();
    const full = fullPath(request.operation);
    const base = full.slice(0, full.length - request.operation.path.length);
    const response: HttpResponse = await this.transport.send({
      method: request.method,
      url: `${this.baseUrl}${base}${request.path}${search ? `?${search}` : ''}`,
      headers,
      json: request.body,
      // An operation that takes longer than calls usually do (a devkit run) says how long to wait.
      ...(request.operation.timeoutMs ? { timeout: request.operation.timeoutMs } : {}),
    });
    return this.transport.result(response);
  }

  /**
   * Calls an app's web API (`/api/app/<appId><path>`, the routes of its manifest's `api` block) and answers
   * what the app's handler answered. The session's token goes along; public routes need none.
   */
  async callAppApi(appId: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    if (!appId) throw new APIError('Missing Parameter: appId', 400, 'missing_parameter');
    const headers: Record<string, string> = { 'X-Homey-ID': this.id };
    if (this.#token) headers.Authorization = `Bearer ${this.#token}`;
    const suffix = path.startsWith('/') ? path : `/${path}`;
    const response = await this.transport.send({
      method,
      url: `${this.baseUrl}/api/app/${encodeURIComponent(appId)}${suffix}`,
      headers,
      json: method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}),
    });
    return this.transport.result(response);
  }

  /** Connects the realtime socket (managers do this themselves when connected). */
  connect(): Promise<void> {
    return this.realtime.connect();
  }

  /** Closes the realtime connection and empties every manager's cache. */
  destroy(): void {
    for (const manager of Object.values(this.managers as unknown as Record<string, Manager>)) manager.disconnect();
    this.realtime.destroy();
  }
}

// Managers are also properties of the instance: `hub.devices`, `hub.zones`.
type ManagerProperties = Omit<HubManagers, 'id' | 'baseUrl' | 'managers' | 'realtime' | 'session' | 'discovery' | 'token'>;
export interface HubAPI extends ManagerProperties {}

/** Calls a hub operation by name (for managers and operations that land after this client was built). */
export function hubCall(hub: HubAPI, manager: string, operation: string, args?: object): Promise<unknown> {
  const found = hub.manager(manager);
  if (!found) throw new Error(`The contract declares no hub manager ${manager}`);
  return found.call(findOperation('hub', manager, operation), args);
}

/**
 * A hub's local address as given by a person: `192.168.1.10`, `hub.local:4100` or a full `http(s)://` URL. One
 * without a scheme is reached over plain HTTP, as hubs serve their local API; anything else that is not a URL
 * is refused with what is expected.
 */
export function localAddress(address: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    url = new URL('invalid:');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new APIError(
      `Invalid Parameter: address. Expected a hub's address such as 192.168.1.10, hub.local:4100 or http://192.168.1.10, got ${JSON.stringify(address)}`,
      400,
      'invalid_parameter',
    );
  }
  return withScheme.replace(/\/+$/, '');
}
