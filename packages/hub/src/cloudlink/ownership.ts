import { HearthError } from '@hearth/contract';
import type { HubConfig } from '../config';
import type { CloudLink } from './client';

/**
 * The role the cloud's hub registry gives the account `athomId` on this hub (`owner` once they claimed it with
 * its claim token, or a member's role), asked with the hub's own credentials (`GET /cloud/homey/:id`).
 * Answers `null` when the account has no role there, or when the hub has no authenticated cloud link to ask.
 */
export async function cloudRoleOf(cloud: CloudLink, config: HubConfig, athomId: string): Promise<string | null> {
  if (!config.cloudUrl || !config.cloudClientSecret) return null;
  let response: Response;
  try {
    response = await cloud.fetch(`/cloud/homey/${encodeURIComponent(config.id)}`, { timeoutMs: 5000 });
  } catch {
    throw new HearthError('unavailable', 'The cloud could not be reached to confirm who may use this hub');
  }
  // A hub the cloud does not know (yet) has nobody on it.
  if (response.status === 404) return null;
  if (!response.ok) throw new HearthError('unavailable', 'The cloud could not confirm who may use this hub');
  const record = (await response.json().catch(() => ({}))) as { users?: { _id?: unknown; role?: unknown }[] };
  const entry = (record.users ?? []).find((user) => user._id === athomId);
  return typeof entry?.role === 'string' ? entry.role : null;
}
