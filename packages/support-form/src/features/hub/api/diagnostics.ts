import type { Services } from '../../../app/services';
import { SPECIAL_MODEL_PATTERN } from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { AppDetails, Hub, HubApp } from '../../../types/entities';

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
  devices: Promise<import('../../../types/entities').Device[]>;
}

export const formatRatio = (value: unknown): string =>
  typeof value === 'number' ? `${Math.round(value * 1000) / 10}%` : value === undefined || value === null ? '' : String(value);

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
  const installed = hub.apps.length > 0 ? Promise.resolve(hub.apps) : client.getApps();
  const apps = installed
    .then((list) =>
      Promise.all(
        list.map((app) =>
          services.getApp(app.id).then(
            (details) => ({ ...app, details }),
            (error) => {
              console.warn(`Could not look up app ${app.id}`, error);
              return { ...app, details: null };
            },
          ),
        ),
      ),
    )
    .catch((error) => {
      console.warn('Could not list the apps of the hub', error);
      return [] as InstalledApp[];
    });
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
    get devices() {
      devices ??= client.getDevices();
      return devices;
    },
  };
}
