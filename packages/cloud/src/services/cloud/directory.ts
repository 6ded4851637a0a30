import { HearthError, notFound } from '@hearth/contract';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudPrincipal } from '../../platform/context';
import { type HubMember, hubRecord, userRecord } from './records';
import type { HubsRow } from './rows';

type Db = Kysely<CloudSchema>;

export async function userRow(db: Db, id: string) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user) throw notFound('User', id);
  return user;
}

async function membersOf(db: Db, hubIds: string[]): Promise<Map<string, HubMember[]>> {
  const map = new Map<string, HubMember[]>();
  if (hubIds.length === 0) return map;
  const rows = await db
    .selectFrom('hub_users')
    .select(['hub_id', 'user_id', 'role'])
    .where('hub_id', 'in', hubIds)
    .orderBy('created_at')
    .execute();
  for (const row of rows) map.set(row.hub_id, [...(map.get(row.hub_id) ?? []), row]);
  return map;
}

/** The hubs a user owns or was added to, as records seen by that user. */
export async function hubsOfUser(db: Db, userId: string) {
  const hubs = await db
    .selectFrom('hubs')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('owner_user_id', '=', userId),
        eb('id', 'in', eb.selectFrom('hub_users').select('hub_id').where('user_id', '=', userId)),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const members = await membersOf(
    db,
    hubs.map((h) => h.id),
  );
  return hubs.map((hub) => hubRecord(hub, members.get(hub.id) ?? [], userId));
}

export async function hubRecordFor(db: Db, hub: HubsRow, viewerId: string | null) {
  const members = await membersOf(db, [hub.id]);
  return hubRecord(hub, members.get(hub.id) ?? [], viewerId);
}

/** The full user record (hubs, devices, subscriptions embedded). */
export async function fullUser(db: Db, publicUrl: string, userId: string) {
  const user = await userRow(db, userId);
  const [hubs, devices, subscriptions] = await Promise.all([
    hubsOfUser(db, userId),
    db.selectFrom('user_devices').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
    db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('started_at').execute(),
  ]);
  return userRecord(publicUrl, user, { hubs, devices, subscriptions });
}

export type HubAccess = 'read' | 'manage';

/**
 * The hub, when the caller may see (`read`: owner or member) or manage (`manage`: owner) it. Internal callers
 * may do both. Others get 404 so hub ids cannot be probed.
 */
export async function hubFor(db: Db, principal: CloudPrincipal, hubId: string, access: HubAccess): Promise<HubsRow> {
  const hub = await db.selectFrom('hubs').selectAll().where('id', '=', hubId).executeTakeFirst();
  if (!hub) throw notFound('Homey', hubId);
  if (principal.internal) return hub;
  const userId = principal.userId;
  if (userId !== null && hub.owner_user_id === userId) return hub;
  if (userId !== null && access === 'read') {
    const member = await db
      .selectFrom('hub_users')
      .select('role')
      .where('hub_id', '=', hubId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (member) return hub;
  }
  if (userId !== null && access === 'manage') {
    const member = await db
      .selectFrom('hub_users')
      .select('role')
      .where('hub_id', '=', hubId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (member) throw new HearthError('forbidden', 'Only the owner of this Homey may do that');
  }
  throw notFound('Homey', hubId);
}
