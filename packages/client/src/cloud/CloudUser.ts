import { APIError, messages, NotFoundError } from '../core/errors';
import type { Strategy } from '../hub/discovery';
import { HubAPI } from '../hub/HubAPI';
import type { CloudAPI } from './CloudAPI';

/** A hub record of the signed-in user (`homeys[]` of `GET /cloud/user/me`). */
export interface CloudHubData {
  _id: string;
  id?: string;
  name?: string;
  apiVersion?: number;
  platform?: 'local' | 'cloud';
  softwareVersion?: string;
  role?: string;
  localUrl?: string;
  localUrlSecure?: string;
  remoteUrl?: string;
  remoteUrlForwarded?: string;
  mdnsFqdn?: string;
  portHttp?: number;
  [key: string]: unknown;
}

export interface CloudUserData {
  _id: string;
  id?: string;
  email?: string;
  firstname?: string;
  lastname?: string;
  roleIds?: string[];
  homeys?: CloudHubData[];
  devices?: unknown[];
  [key: string]: unknown;
}

/** One of the user's hubs: its record, and the way in. */
export class CloudHub {
  readonly id: string;
  readonly data: CloudHubData;
  readonly #cloud: CloudAPI;

  constructor(cloud: CloudAPI, data: CloudHubData) {
    this.#cloud = cloud;
    this.data = data;
    this.id = data._id ?? data.id;
  }

  get name(): string | undefined {
    return this.data.name;
  }

  /**
   * Finds the hub (discovery across its addresses), logs in with a fresh delegation token and reads the
   * session: answers a connected {@link HubAPI}. Any later 401 logs in again the same way.
   */
  async authenticate(
    options: { strategies?: Strategy[]; timeout?: number; debug?: (line: string) => void } = {},
  ): Promise<HubAPI> {
    const cloud = this.#cloud;
    if (!cloud) throw new APIError(messages.missingCloud, 500, 'missing_cloud');
    let hub: HubAPI | null = null;
    const login = async (delegation?: string): Promise<string> => {
      const token = delegation ?? (await cloud.createDelegationToken({ audience: 'homey' }));
      if (!hub) throw new APIError(messages.notConnected, 500, 'not_connected');
      await hub.login(token);
      return hub.token as string;
    };
    // A secure local address is trusted only with the cloud's CA certificate, where the platform can use one.
    const ca = this.data.localUrlSecure && cloud.platform.trusting ? await cloud.certificateAuthority() : null;
    // Finding the hub and getting a delegation token do not depend on each other.
    const [found, delegation] = await Promise.all([
      HubAPI.discover(
        { ...this.data, id: this.id },
        { ...options, token: null, secrets: cloud.secrets, relogin: login, ca },
        cloud.platform,
      ),
      cloud.createDelegationToken({ audience: 'homey' }),
    ]);
    hub = found;
    await login(delegation);
    return hub;
  }
}

/** The signed-in cloud user and their hubs. */
export class CloudUser {
  readonly id: string;
  readonly data: CloudUserData;
  readonly #cloud: CloudAPI;

  constructor(cloud: CloudAPI, data: CloudUserData) {
    this.#cloud = cloud;
    this.data = data;
    this.id = (data._id ?? data.id) as string;
  }

  get email(): string | undefined {
    return this.data.email;
  }

  get firstname(): string | undefined {
    return this.data.firstname;
  }

  get lastname(): string | undefined {
    return this.data.lastname;
  }

  /** The name to show: the cloud's `fullname`, else the first and last names. */
  get fullname(): string | undefined {
    const joined = [this.data.firstname, this.data.lastname].filter(Boolean).join(' ');
    return (typeof this.data.fullname === 'string' ? this.data.fullname : undefined) ?? (joined || undefined);
  }

  /** Avatar images by size (`small`, `medium`, `large`), when the user has one. */
  get avatar(): Record<string, string> | undefined {
    return this.data.avatar as Record<string, string> | undefined;
  }

  /** Subscriptions by id, each with `startedAt`. */
  get subscriptions(): Record<string, { startedAt?: string; [key: string]: unknown }> {
    return (this.data.subscriptions ?? {}) as Record<string, { startedAt?: string }>;
  }

  /** Whether the user has a role (by role id). */
  hasRole(roleId: string): boolean {
    return (this.data.roleIds ?? []).includes(roleId);
  }

  getHubs(): CloudHub[] {
    return (this.data.homeys ?? []).map((record) => new CloudHub(this.#cloud, record));
  }

  /** Throws 'Homey Not Found: {id}' when the user has no such hub. */
  getHubById(id: string): CloudHub {
    const hub = this.getHubs().find((candidate) => candidate.id === id);
    if (!hub) throw new NotFoundError(messages.hubNotFound(id), 'hub_not_found');
    return hub;
  }

  /** Throws 'No Homey Available' when the user has none. */
  getFirstHub(): CloudHub {
    const [hub] = this.getHubs();
    if (!hub) throw new NotFoundError(messages.noHub, 'no_hub');
    return hub;
  }
}
