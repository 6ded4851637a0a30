import { HearthError, notFound } from '@hearth/contract';
import { type SerializedJson, serializedJson } from '@hearth/contract/fastify';
import type { Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
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

export async function hubRecordFor(db: Db, hub: HubsRow, viewerId: string | null) {
  const members = await membersOf(db, [hub.id]);
  return hubRecord(hub, members.get(hub.id) ?? [], viewerId);
}

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
const toDateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : toDate(value));

/**
 * The full user record (hubs with their members, devices, subscriptions embedded), read in one query: this is
 * `GET /user/me`, the call every client makes first.
 */
export async function fullUser(db: Db, publicUrl: string, userId: string) {
  const row = await db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('hubs')
          .selectAll('hubs')
          .select((inner) => [
            jsonArrayFrom(
              inner
                .selectFrom('hub_users')
                .select(['hub_users.user_id', 'hub_users.role'])
                .whereRef('hub_users.hub_id', '=', 'hubs.id')
                .orderBy('hub_users.created_at'),
            ).as('members'),
          ])
          .where((w) =>
            w.or([
              w('hubs.owner_user_id', '=', userId),
              w('hubs.id', 'in', w.selectFrom('hub_users').select('hub_users.hub_id').where('hub_users.user_id', '=', userId)),
            ]),
          )
          .orderBy('hubs.created_at')
          .orderBy('hubs.id'),
      ).as('hubs'),
      jsonArrayFrom(
        eb
          .selectFrom('user_devices')
          .selectAll('user_devices')
          .whereRef('user_devices.user_id', '=', 'users.id')
          .orderBy('user_devices.created_at'),
      ).as('devices'),
      jsonArrayFrom(
        eb
          .selectFrom('subscriptions')
          .selectAll('subscriptions')
          .whereRef('subscriptions.user_id', '=', 'users.id')
          .orderBy('subscriptions.started_at'),
      ).as('subscriptions'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound('User', userId);
  // Rows nested as JSON carry their timestamps as text.
  const hubs = row.hubs.map(({ members, ...hub }) =>
    hubRecord(
      {
        ...hub,
        activated_at: toDateOrNull(hub.activated_at),
        claim_code_expires_at: toDateOrNull(hub.claim_code_expires_at),
        created_at: toDate(hub.created_at),
        updated_at: toDate(hub.updated_at),
      },
      members,
      userId,
    ),
  );
  const devices = row.devices.map((d) => ({ ...d, created_at: toDate(d.created_at), updated_at: toDate(d.updated_at) }));
  const subscriptions = row.subscriptions.map((s) => ({
    ...s,
    started_at: toDate(s.started_at),
    expires_at: toDateOrNull(s.expires_at),
    created_at: toDate(s.created_at),
    updated_at: toDate(s.updated_at),
  }));
  const { hubs: _hubs, devices: _devices, subscriptions: _subscriptions, ...user } = row;
  return userRecord(publicUrl, user, { hubs, devices, subscriptions });
}

export type UserRecord = Awaited<ReturnType<typeof fullUser>>;

/** How many users' answers a cloud process keeps. */
const USER_ANSWERS_MAX = 10_000;

/**
 * `GET /user/me` served from memory while it is current: each user's record is kept with the `users.revision` it
 * was read at, and that revision (which triggers change with anything the record shows, in the same transaction)
 * is checked with one indexed read on every call. So a change made through any route, service or cloud node is
 * seen by the next call, while an unchanged account costs one primary-key read and no serialization.
 */
export function currentUsers(db: Db, publicUrl: string) {
  const answers = new Map<string, { revision: number; json: SerializedJson<UserRecord> }>();
  return async (userId: string) => {
    const row = await db.selectFrom('users').select('revision').where('id', '=', userId).executeTakeFirst();
    if (!row) {
      answers.delete(userId);
      throw notFound('User', userId);
    }
    const kept = answers.get(userId);
    if (kept && kept.revision === row.revision) return kept;
    // Read after the revision: the record is at least as new, so keeping it under this revision is never stale.
    const answer = { revision: row.revision, json: serializedJson(await fullUser(db, publicUrl, userId)) };
    answers.delete(userId);
    if (answers.size >= USER_ANSWERS_MAX) answers.delete(answers.keys().next().value as string);
    answers.set(userId, answer);
    return answer;
  };
}

export type HubAccess = 'read' | 'manage';

/**
 * The hub, when the caller may see (`read`: owner or member) or manage (`manage`: owner) it. Internal callers
 * may do both. Others get 404 so hub ids cannot be probed.
 */
export async function hubFor(db: Db, principal: CloudPrincipal, hubId: string, access: HubAccess): Promise<HubsRow> {
  const hub = await db.selectFrom('hubs').selectAll().where('id', '=', hubId).executeTakeFirst();
  if (!hub) throw notFound('Hub', hubId);
  if (principal.internal) return hub;
  const userId = principal.userId;
  if (userId !== null && hub.owner_user_id === userId) return hub;
  if (userId !== null) {
    const member = await db
      .selectFrom('hub_users')
      .select('role')
      .where('hub_id', '=', hubId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (member && access === 'read') return hub;
    if (member) throw new HearthError('forbidden', 'Only the owner of this hub may do that');
  }
  throw notFound('Hub', hubId);
}
