import type { Services } from '../../../app/services';
import { SPECIAL_MODEL_PATTERN } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { AppDetails, Hub, HubApp } from '../../../types/entities';
import type { HubClient } from './hub';

/** The author id the form gives the provider's built-in apps. */
const PROVIDER_AUTHOR_ID = 'hearth';

export interface InstalledApp extends HubApp {
  details: AppDetails | null;
}

export interface UnderVoltage {
  /** As shown and sent: a percentage when the hub answered a number, otherwise its answer as is. */
  percentage: string;
  ratio: number | null;
}

/** Context about a hub, gathered in parallel as soon as it is chosen, without asking the customer. */
export interface HubDiagnostics {
  /** `system.getInfo`: the hub's own facts, filling in what the cloud's record of it lacks. */
  info: Promise<Record<string, unknown> | null>;
  outOfDate: Promise<boolean>;
  underVoltage: Promise<UnderVoltage>;
  report: Promise<string>;
  apps: Promise<InstalledApp[]>;
  /** Whether the hub answered (its apps); when not, the apps are those the cloud's record of the hub lists. */
  reachable: Promise<boolean>;
  devices: Promise<import('../../../types/entities').Device[]>;
}

export const formatRatio = (value: unknown): string =>
  typeof value === 'number' ? `${Math.round(value * 1000) / 10}%` : value === undefined || value === null ? '' : String(value);

/**
 * The apps installed on the hub, as the hub lists them (with their names, icons and which are built in); the
 * cloud's record of the hub when the hub does not answer.
 */
function installedApps(client: HubClient, hub: Hub): Promise<{ apps: HubApp[]; reachable: boolean }> {
  return client.getApps().then(
    (apps) => {
      const recorded = new Map(hub.apps.map((app) => [app.id, app]));
      return { apps: apps.map((app) => ({ ...recorded.get(app.id), ...app })), reachable: true };
    },
    (error) => {
      console.warn('Could not list the apps of the hub', error);
      return { apps: hub.apps, reachable: false };
    },
  );
}

/** A built-in app as the support form reads an app: the provider is its trusted, verified author. */
export function builtinDetails(app: HubApp): AppDetails {
  return {
    id: app.id,
    builtin: true,
    author: { userId: PROVIDER_AUTHOR_ID, verified: true },
    liveBuild: { name: app.name ?? app.id, icon: app.icon, brandColor: app.brandColor },
    liveVersion: null,
  };
}

export function startDiagnostics(services: Services, hub: Hub): HubDiagnostics {
  const client = services.hub(hub);
  const outOfDate = client.getUpdates().then(
    (updates) => {
      if (!Array.isArray(updates)) {
        console.warn('Hub updates are not a list', updates);
        return false;
      }
      return updates.length > 0;
    },
    (error) => {
      console.warn('Could not read hub updates', error);
      return false;
    },
  );
  const info = client.getInfo();
  const underVoltage: Promise<UnderVoltage> = SPECIAL_MODEL_PATTERN.test(hub.model)
    ? info.then(
        (info) => {
          const value = info.videoCoreUnderVoltageCurrentlyRatio;
          return { percentage: formatRatio(value), ratio: typeof value === 'number' ? value : null };
        },
        () => ({ percentage: texts.underVoltageFailed, ratio: null }),
      )
    : Promise.resolve({ percentage: '', ratio: null });
  const report = client.sendLog().catch(() => texts.reportFailed);
  const installed = installedApps(client, hub);
  const apps = installed.then(({ apps: list }) =>
    Promise.all(
      list.map(async (app): Promise<InstalledApp> => {
        // Built into the hub's software: the provider's own app, which the catalogue does not list.
        if (app.builtin) return { ...app, details: builtinDetails(app) };
        try {
          return { ...app, details: await services.getApp(app.id) };
        } catch (error) {
          console.warn(`Could not look up app ${app.id}`, error);
          return { ...app, details: null };
        }
      }),
    ),
  );
  // Devices are read when the devices step asks; started lazily there but cached here.
  let devices: HubDiagnostics['devices'] | null = null;
  return {
    info: info.catch((error) => {
      console.warn('Could not read the hub information', error);
      return null;
    }),
    outOfDate,
    underVoltage,
    report,
    apps,
    reachable: installed.then(({ reachable }) => reachable),
    get devices() {
      devices ??= client.getDevices();
      return devices;
    },
  };
}
