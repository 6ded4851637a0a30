import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cloudOperations, HearthError } from '@hearth/contract';
import { CloudCallError } from '../../cloudlink/client';
import type { HubContext } from '../../platform/context';
import { appCapabilities } from '../../runtime/app-capabilities';
import { capabilityDefinition } from '../../runtime/capabilities';
import { type AppManifest, type AppPackage, checkManifest, readPackages } from '../../runtime/manifest';
import type { AppChannel, InstalledApp } from './catalogue';

type Json = Record<string, unknown>;

const pick = (source: object, keys: readonly string[]): Json =>
  Object.fromEntries(Object.entries(source).filter(([key]) => keys.includes(key)));

/** How long the hub waits for the cloud's app catalogue. */
const CATALOGUE_TIMEOUT_MS = 8_000;

/**
 * The manifest of an app from the cloud's catalogue, completed with the hub's own package of it where there
 * is one (drivers' pairing views and simulation), limited to the capabilities the hub knows.
 */
export function mergeManifest(remote: Json, local: AppManifest | undefined, version: string): Json {
  // The app's own capabilities (its manifest's `capabilities` block) are as known as the hub's.
  const own = appCapabilities(local);
  const localDrivers = new Map((local?.drivers ?? []).map((d) => [d.id, d]));
  const remoteDrivers = Array.isArray(remote.drivers) ? (remote.drivers as Json[]) : undefined;
  const drivers = (remoteDrivers ?? local?.drivers ?? []).map((driver) => {
    const merged: Json = {
      pair: [
        { id: 'list_devices', template: 'list_devices' },
        { id: 'add_devices', template: 'add_devices' },
      ],
      ...(localDrivers.get(String(driver.id)) ?? {}),
      ...driver,
    };
    const capabilities = Array.isArray(merged.capabilities) ? (merged.capabilities as unknown[]) : [];
    return { ...merged, capabilities: capabilities.filter((c) => typeof c === 'string' && capabilityDefinition(c, own)) };
  });
  const remoteAuthor = (remote.author ?? {}) as { name?: string; email?: string };
  const bugs = typeof remote.bugs === 'string' ? { url: remote.bugs } : (remote.bugs ?? local?.bugs);
  return {
    ...(local ?? {}),
    ...remote,
    version,
    drivers,
    author: {
      name: remoteAuthor.name ?? local?.author.name ?? 'Unknown',
      email: remoteAuthor.email ?? local?.author.email ?? '',
    },
    ...(bugs ? { bugs } : {}),
  };
}

/** Compares two semantic versions (major.minor.patch); pre-release tags sort before the release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/** A version the store offers for an installed app. */
export interface OfferedUpdate {
  readonly version: string;
  readonly permissions: string[];
}

/**
 * Where apps are installed from: the cloud's app catalogue (operations `getAppInstall` and `getApp` of the
 * contract), and the hub's own package folders, which serve when the cloud is out of reach and give store apps
 * their code (the cloud's catalogue serves manifests).
 */
export class AppStore {
  #packages: AppPackage[] | undefined;
  /** What the cloud's catalogue last said about installed apps: their live and test versions. */
  readonly #remote = new Map<string, { liveVersion: string | null; testVersion: string | null; permissions: string[] }>();

  constructor(
    private readonly context: HubContext,
    /** Folders of app packages installed from until the cloud catalogue answers. */
    private readonly packageRoots: readonly string[],
  ) {}

  /** The packages of the local folders (read once). */
  packages(): AppPackage[] {
    this.#packages ??= this.packageRoots.flatMap((root) => readPackages(root, false));
    return this.#packages;
  }

  /** The local package of an app, when the hub has one. */
  localPackage(id: string): AppPackage | undefined {
    return this.packages().find((p) => p.manifest.id === id);
  }

  /** The newer version the store offers for an installed app, if any. */
  updateAvailable(app: InstalledApp): OfferedUpdate | null {
    if (app.builtin || app.origin !== 'appstore') return null;
    const remote = this.#remote.get(app.id);
    if (remote) {
      const offered = app.channel === 'stable' ? remote.liveVersion : (remote.testVersion ?? remote.liveVersion);
      if (!offered || compareVersions(offered, app.manifest.version) <= 0) return null;
      return { version: offered, permissions: remote.permissions };
    }
    const latest = this.localPackage(app.id)?.manifest;
    if (!latest || compareVersions(latest.version, app.manifest.version) <= 0) return null;
    return { version: latest.version, permissions: latest.permissions ?? [] };
  }

  /**
   * The package to install for an app: the cloud catalogue's manifest of the version asked for, with the
   * simulation hints and code of the hub's own package of that app where there is one. Without a cloud, or with
   * one out of reach, the local package serves instead; an app neither knows is a 404.
   */
  async packageFor(id: string, channel: AppChannel, version?: string): Promise<{ pkg: AppPackage; channel: AppChannel }> {
    const local = this.localPackage(id);
    const fromFolder = () => {
      if (!local) throw new HearthError('not_found', `App not found in the app store: ${id}`);
      return { pkg: local, channel };
    };
    if (!this.context.cloud.url) return fromFolder();
    let install: { version: string; channel?: AppChannel; manifest: Json };
    try {
      install = (await this.context.cloud.call(
        cloudOperations.apps.getAppInstall,
        { appId: id, channel, secret: this.context.config.id, ...(version ? { version } : {}) },
        { timeoutMs: CATALOGUE_TIMEOUT_MS },
      )) as typeof install;
    } catch (error) {
      if (!(error instanceof CloudCallError)) return fromFolder();
      if (error.status === 404) throw new HearthError('not_found', `App not found in the app store: ${id}`);
      throw new HearthError('unavailable', `The app store could not serve ${id} (status ${error.status})`);
    }
    const merged = mergeManifest(install.manifest, local?.manifest, install.version);
    // An app whose code comes from the hub's own package keeps what that code was written for: its SDK, drivers,
    // own capabilities, flow cards, web API, settings and permissions (the catalogue's manifest says less of them).
    const manifest =
      local && existsSync(join(local.dir, 'app.js'))
        ? { ...merged, ...pick(local.manifest, ['sdk', 'drivers', 'capabilities', 'flow', 'api', 'settings', 'permissions']) }
        : merged;
    const problems = checkManifest(manifest);
    if (problems.length > 0)
      throw new HearthError('unavailable', `The app store's manifest of ${id} is not usable: ${problems.join('; ')}`);
    return {
      // The app's code comes from the hub's own package of it, where it has one (the catalogue serves manifests).
      pkg: { dir: local?.dir ?? '', manifest: manifest as AppManifest, builtin: false },
      channel: install.channel ?? channel,
    };
  }

  /**
   * Asks the cloud's catalogue for the live and test versions of installed store apps (for `updateAvailable`);
   * answers the ids it learnt something of. Stops at the first app the cloud cannot be reached for.
   */
  async refresh(ids: readonly string[]): Promise<string[]> {
    if (!this.context.cloud.url) return [];
    const learnt: string[] = [];
    for (const id of ids) {
      try {
        const app = (await this.context.cloud.call(
          cloudOperations.apps.getApp,
          { appId: id },
          { timeoutMs: CATALOGUE_TIMEOUT_MS },
        )) as {
          liveVersion?: string | null;
          testVersion?: string | null;
          liveBuild?: { manifest?: { permissions?: string[] } } | null;
        };
        this.#remote.set(id, {
          liveVersion: app.liveVersion ?? null,
          testVersion: app.testVersion ?? null,
          permissions: app.liveBuild?.manifest?.permissions ?? [],
        });
        learnt.push(id);
      } catch (error) {
        if (error instanceof CloudCallError) continue;
        break; // the cloud is out of reach: keep what is known
      }
    }
    return learnt;
  }
}
