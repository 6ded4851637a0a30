import { HearthError } from '@hearth/contract';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudPrincipal } from '../../platform/context';

/** Role of the provider's staff: everything an author may do, on every app. */
export const ADMIN_ROLE = 'admin';
/** Role of the provider's app reviewers: approve and reject submissions. */
export const REVIEWER_ROLE = 'app_reviewer';
/** Role of developers the provider vouches for: their apps show a verified author. */
export const TRUSTED_DEVELOPER_ROLE = 'app_developer_trusted';

/** Who is calling, as the catalogue's rules see it. */
export interface Caller {
  readonly userId: string | null;
  /** The provider: an internal session or a user with the admin role. */
  readonly provider: boolean;
  readonly reviewer: boolean;
}

export const ANONYMOUS: Caller = { userId: null, provider: false, reviewer: false };

export async function callerOf(db: Kysely<CloudSchema>, principal: CloudPrincipal | null): Promise<Caller> {
  if (!principal) return ANONYMOUS;
  if (principal.internal) return { userId: principal.userId, provider: true, reviewer: true };
  if (!principal.userId) return ANONYMOUS;
  const row = await db.selectFrom('users').select('role_ids').where('id', '=', principal.userId).executeTakeFirst();
  const roles = row?.role_ids ?? [];
  const provider = roles.includes(ADMIN_ROLE);
  return { userId: principal.userId, provider, reviewer: provider || roles.includes(REVIEWER_ROLE) };
}

/** Refuses callers without an account (client-only sessions). */
export function requireAccount(caller: Caller): string {
  if (caller.userId === null) throw new HearthError('forbidden', 'This call needs a signed-in user');
  return caller.userId;
}

export function isAuthor(caller: Caller, authorUserId: string): boolean {
  return caller.provider || (caller.userId !== null && caller.userId === authorUserId);
}

/** Only an app's author (or the provider) changes it or reads its private parts. */
export function requireAuthor(caller: Caller, authorUserId: string): void {
  if (!isAuthor(caller, authorUserId)) throw new HearthError('forbidden', "Only the app's author may do this");
}

export function requireReviewer(caller: Caller): void {
  if (!caller.reviewer) throw new HearthError('forbidden', "Only the provider's app reviewers may do this");
}

export function requireProvider(caller: Caller): void {
  if (!caller.provider) throw new HearthError('forbidden', 'Only the provider may do this');
}
