import { cloudOperations, HearthError } from '@hearth/contract';
import type { HubConfig } from '../config';
import { CloudCallError, type CloudLink } from './client';

/**
 * The role the cloud's hub registry gives the account `athomId` on this hub (`owner` once they claimed it with
 * its claim token, or a member's role), asked with the hub's own credentials (the cloud operation `getHomey`).
 * Answers `null` when the account has no role there, or when the hub has no authenticated cloud link to ask.
 */
export async function cloudRoleOf(cloud: CloudLink, config: HubConfig, athomId: string): Promise<string | null> {
  if (!config.cloudUrl || !config.cloudClientSecret) return null;
  let record: { users?: { _id?: unknown; role?: unknown }[] };
  try {
    record = await cloud.call(cloudOperations.cloud.getHomey, { id: config.id }, { timeoutMs: 5000 });
  } catch (error) {
    // A hub the cloud does not know (yet) has nobody on it.
    if (error instanceof CloudCallError && error.status === 404) return null;
    throw new HearthError(
      'unavailable',
      error instanceof CloudCallError
        ? 'The cloud could not confirm who may use this hub'
        : 'The cloud could not be reached to confirm who may use this hub',
    );
  }
  const entry = (record.users ?? []).find((user) => user._id === athomId);
  return typeof entry?.role === 'string' ? entry.role : null;
}

/**
 * The cloud account that owns this hub: the configured one (`ownerAthomId`), else the owner the cloud's hub registry
 * names. `null` when nobody has claimed the hub there, or when the hub has no authenticated cloud link.
 */
export async function cloudOwnerOf(cloud: CloudLink, config: HubConfig): Promise<string | null> {
  if (config.ownerAthomId) return config.ownerAthomId;
  if (!config.cloudUrl || !config.cloudClientSecret) return null;
  try {
    const record = (await cloud.call(cloudOperations.cloud.getHomey, { id: config.id }, { timeoutMs: 5000 })) as {
      users?: { _id?: unknown; role?: unknown }[];
    };
    const owner = (record.users ?? []).find((user) => user.role === 'owner');
    return typeof owner?._id === 'string' ? owner._id : null;
  } catch (error) {
    if (error instanceof CloudCallError && error.status === 404) return null;
    throw error;
  }
}
