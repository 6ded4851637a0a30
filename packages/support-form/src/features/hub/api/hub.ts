import { type CoreHubAPI, HubAPI } from '@hearth/client/browser';
import { DIAGNOSTIC_REPORT_TIMEOUT_MS } from '../../../config/constants';
import type { Device, HubApp } from '../../../types/entities';

/** The hub calls the form makes (@hearth/client's HubAPI managers, named as the ecosystem names them). */
export interface HubClient {
  /** `updates.getUpdates` */
  getUpdates(): Promise<unknown>;
  /** `system.getInfo` */
  getInfo(): Promise<Record<string, unknown>>;
  /** `system.sendLog`, waiting up to 30000 ms: answers the diagnostic report's id. */
  sendLog(): Promise<string>;
  /** `devices.getDevices` */
  getDevices(): Promise<Device[]>;
  /** `apps.getApps`: with the names and icons the hub shows, and which apps are built in. */
  getApps(): Promise<HubApp[]>;
  /** `apps.getAppStd`: the hub e-mails the app's developer the message with the app's diagnostic report. */
  getAppStd(appId: string, message: string): Promise<void>;
}

type Raw = Record<string, unknown>;
const values = (answer: unknown): Raw[] =>
  (Array.isArray(answer) ? answer : Object.values((answer as Record<string, Raw> | null) ?? {})) as Raw[];
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * An image address the hub gave, absolute: the hub names its icons by path (`/app/<id>/assets/icon.svg`), which
 * a page served by the cloud must load from the hub itself.
 */
export function hubAsset(baseUrl: string, path: unknown): string | undefined {
  const given = text(path);
  if (!given) return undefined;
  try {
    return new URL(given, `${baseUrl.replace(/\/$/, '')}/`).toString();
  } catch {
    return undefined;
  }
}

/**
 * A {@link HubClient} over a connected HubAPI, made on the first call by `connect` (the cloud's `hub.authenticate()`:
 * discovery, delegation token, hub login) and reused; a failed connect is tried again on the next call. The two
 * calls that may take long (the diagnostic report, the developer e-mail) go through a second HubAPI on the same
 * session whose calls wait up to 30000 ms; every other call keeps the default 10000 ms.
 */
export function createHubClient(connect: () => Promise<CoreHubAPI>): HubClient & { destroy(): void } {
  let session: Promise<{ hub: CoreHubAPI; slow: CoreHubAPI }> | null = null;
  const connected = () =>
    (session ??= connect().then(
      (hub) => ({
        hub,
        slow: new HubAPI({
          id: hub.id,
          baseUrl: hub.baseUrl,
          token: hub.token,
          timeout: DIAGNOSTIC_REPORT_TIMEOUT_MS,
          secrets: hub.secrets,
          // A 401 here logs the shared session in again.
          relogin: () => hub.relogin(),
        }),
      }),
      (error: unknown) => {
        session = null;
        throw error;
      },
    ));
  return {
    getUpdates: async () => (await connected()).hub.updates.getUpdates(),
    getInfo: async () => (await (await connected()).hub.system.getInfo()) as unknown as Record<string, unknown>,
    sendLog: async () => {
      const report: unknown = await (await connected()).slow.system.sendLog();
      return typeof report === 'string' ? report : JSON.stringify(report);
    },
    getDevices: async () => {
      const { hub } = await connected();
      return values(await hub.devices.getDevices()).map((device): Device => {
        const icon = hubAsset(hub.baseUrl, (device.iconObj as { url?: unknown } | null)?.url ?? device.icon);
        return {
          id: String(device.id),
          name: String(device.name ?? ''),
          driverId: String(device.driverId ?? ''),
          ownerUri: text(device.ownerUri),
          iconObj: icon ? { url: icon } : null,
        };
      });
    },
    getApps: async () => {
      const { hub } = await connected();
      return values(await hub.apps.getApps()).map(
        (app): HubApp => ({
          id: String(app.id),
          version: String(app.version ?? ''),
          channel: text(app.channel),
          name: text(app.name),
          icon: hubAsset(hub.baseUrl, (app.iconObj as { url?: unknown } | null)?.url ?? app.icon),
          brandColor: text(app.brandColor),
          builtin: app.builtin === true,
        }),
      );
    },
    getAppStd: async (appId, message) => {
      await (await connected()).slow.apps.getAppStd({ id: appId, message });
    },
    destroy: () => {
      void session?.then(
        ({ hub, slow }) => {
          hub.destroy();
          slow.destroy();
        },
        () => {},
      );
      session = null;
    },
  };
}
