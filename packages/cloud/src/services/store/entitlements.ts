import {
  FREE_TIER,
  HearthError,
  HUB_ENTITLEMENT_LIMITS,
  type HubEntitlements,
  notFound,
  storeEntitlementOperations,
} from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import { SUBSCRIPTION_UNLOCKS, TIERS } from './catalogue';

/**
 * What the subscriptions of hub `hubId`'s owner unlock on it at `now` (see `SUBSCRIPTION_UNLOCKS`); `null` for a
 * hub the registry does not know. A subscription counts while it is active and its time is not up (whether or not
 * the expiry sweep has marked it yet), when it is for all the owner's hubs or for this one, and unlocks something
 * on the hub's platform. An unclaimed hub has nothing.
 */
export async function hubEntitlements(
  db: Kysely<CloudSchema>,
  hubId: string,
  now: Date,
): Promise<Static<typeof HubEntitlements> | null> {
  const hub = await db.selectFrom('hubs').select(['id', 'owner_user_id', 'platform']).where('id', '=', hubId).executeTakeFirst();
  if (!hub) return null;
  const rows = hub.owner_user_id
    ? await db
        .selectFrom('subscriptions')
        .select(['type', 'hub_id', 'expires_at'])
        .where('user_id', '=', hub.owner_user_id)
        .where('status', '=', 'active')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .where((eb) => eb.or([eb('hub_id', 'is', null), eb('hub_id', '=', hubId)]))
        .orderBy('started_at')
        .execute()
    : [];
  let rank = 0;
  let backups = false;
  let validUntil = new Date(now.getTime() + HUB_ENTITLEMENT_LIMITS.leaseSeconds * 1000);
  const counted: typeof rows = [];
  for (const row of rows) {
    const unlocks = SUBSCRIPTION_UNLOCKS[row.type];
    if (!unlocks?.platforms.includes(hub.platform) || (!unlocks.tier && !unlocks.backups)) continue;
    counted.push(row);
    if (unlocks.tier) rank = Math.max(rank, TIERS.indexOf(unlocks.tier));
    backups ||= unlocks.backups;
    // The answer changes by itself when a subscription it counts ends: the hub asks again then.
    if (row.expires_at && row.expires_at < validUntil) validUntil = row.expires_at;
  }
  return {
    homeyId: hub.id,
    tier: TIERS[rank] ?? FREE_TIER,
    backups,
    subscriptions: counted.map((row) => ({
      type: row.type,
      homeyId: row.hub_id,
      expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    })),
    checkedAt: now.toISOString(),
    validUntil: validUntil.toISOString(),
  };
}

/** Refuses with 402 `subscription_required` unless the subscriptions of hub `hubId`'s owner include cloud backups. */
export async function requireCloudBackups(db: Kysely<CloudSchema>, hubId: string, now: Date): Promise<void> {
  const entitlements = await hubEntitlements(db, hubId, now);
  if (!entitlements?.backups)
    throw new HearthError(
      'subscription_required',
      'Cloud backups are not included in the subscriptions of this hub’s owner: Hearth Plus (Pro hubs) or Premium includes them',
    );
}

/** `GET /store/homey/:homeyId/entitlements`: a hub, by its secret, asks what its owner's subscriptions unlock on it. */
export function entitlementImplementations(context: CloudContext) {
  const { db } = context.database;
  return implement<typeof storeEntitlementOperations, CloudPrincipal>(storeEntitlementOperations, {
    getHomeyEntitlements: async ({ params, query }) => {
      if (hubOfSecretOrRefuse(context, query.secret) !== params.homeyId)
        throw new HearthError('forbidden', 'The secret is not this hub’s');
      const entitlements = await hubEntitlements(db, params.homeyId, new Date(context.clock.now()));
      if (!entitlements) throw notFound('Hub', params.homeyId);
      return entitlements;
    },
  });
}
