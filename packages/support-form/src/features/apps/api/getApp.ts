import { request } from '../../../lib/http';
import type { AppDetails } from '../../../types/entities';

/** An app's details from the cloud's app catalogue (`GET /apps/app/{appId}`). */
export const getApp = (cloudUrl: string, token: string | null, appId: string): Promise<AppDetails> =>
  request<AppDetails>(`${cloudUrl}/apps/app/${encodeURIComponent(appId)}`, { token });
