import { request } from '../../../lib/http';
import type { Device, Hub, HubApp } from '../../../types/entities';

/** The hub local API calls the form makes, after signing in to the hub with a delegation token. */
export interface HubClient {
  getUpdates(): Promise<unknown>;
  getInfo(): Promise<Record<string, unknown>>;
  sendLog(timeoutMs: number): Promise<string>;
  getDevices(): Promise<Device[]>;
  getApps(): Promise<HubApp[]>;
  getAppStd(appId: string, message: string): Promise<void>;
}

const values = <T>(body: unknown): T[] => (Array.isArray(body) ? body : Object.values((body as Record<string, T>) ?? {})) as T[];

/**
 * Connects to a hub the way the ecosystem's clients do: a delegation token from the cloud, then the hub's
 * login, at the first of its addresses that answers. The session is made once and reused.
 */
export function createHubClient(hub: Hub, cloudUrl: string, cloudToken: () => string | null): HubClient {
  let session: Promise<{ address: string; token: string }> | null = null;
  const connect = async () => {
    const delegation = await request<string>(`${cloudUrl}/cloud/delegation/token?audience=homey`, {
      method: 'POST',
      token: cloudToken(),
      body: {},
    });
    let lastError: unknown = new Error('Hub has no address');
    for (const address of hub.addresses) {
      try {
        const token = await request<string>(`${address}/api/manager/users/login`, {
          method: 'POST',
          body: { token: delegation },
          headers: { 'X-Homey-ID': hub.id },
          timeoutMs: 5000,
        });
        return { address, token };
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  };
  const call = async <T>(method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<T> => {
    session ??= connect().catch((error) => {
      session = null;
      throw error;
    });
    const { address, token } = await session;
    return request<T>(`${address}/api/manager${path}`, {
      method,
      token,
      body: method === 'GET' ? undefined : (body ?? {}),
      headers: { 'X-Homey-ID': hub.id },
      timeoutMs,
    });
  };
  return {
    getUpdates: () => call('GET', '/updates/update'),
    getInfo: () => call('GET', '/system/'),
    sendLog: async (timeoutMs) => {
      const result = await call<unknown>('POST', '/system/journalctl', {}, timeoutMs);
      return typeof result === 'string' ? result : JSON.stringify(result);
    },
    getDevices: async () => values<Device>(await call('GET', '/devices/device')),
    getApps: async () =>
      values<Record<string, unknown>>(await call('GET', '/apps/app')).map((a) => ({
        id: String(a.id),
        version: String(a.version ?? ''),
        channel: typeof a.channel === 'string' ? a.channel : undefined,
      })),
    getAppStd: async (appId, message) => {
      await call('POST', `/apps/app/${encodeURIComponent(appId)}/crashlog`, { message }, 30_000);
    },
  };
}
