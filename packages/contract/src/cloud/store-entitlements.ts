import { Type } from 'typebox';
import { cloudService } from '../operation';
import { DateTime } from './schemas';

const op = cloudService('store', '/store');

/** Limits of what a hub is told its owner's subscriptions unlock. */
export const HUB_ENTITLEMENT_LIMITS = {
  /**
   * The longest an answer stays good without asking again: a hub that cannot reach the cloud keeps what it was
   * told for at most this long (less when a subscription it counts ends sooner), then falls back to the free tier.
   */
  leaseSeconds: 7 * 24 * 3600,
} as const;

/** The tier a hub without any subscription has. */
export const FREE_TIER = 'free';

/**
 * What the subscriptions of a hub's owner unlock on that hub, as of `checkedAt`. A subscription counts when it is
 * active and running, and is the owner's for all their hubs or for this one; what each type unlocks (and on which
 * hub platforms) is the store's catalogue's to say.
 */
export const HubEntitlements = Type.Object({
  homeyId: Type.String(),
  /**
   * The tier the hub announces in every answer's `X-Homey-Tier`: `free`, `plus` or `premium` (the highest any
   * counted subscription gives).
   */
  tier: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }),
  /** Whether the hub's backups may be kept in the cloud (`createBackup` is refused with 402 otherwise). */
  backups: Type.Boolean(),
  /** The subscriptions that unlock something on this hub. */
  subscriptions: Type.Array(
    Type.Object({
      type: Type.String(),
      /** The hub the subscription is for, or `null` for every hub of the owner. */
      homeyId: Type.Union([Type.String(), Type.Null()]),
      expiresAt: Type.Union([DateTime, Type.Null()]),
    }),
  ),
  /** When the cloud worked this answer out. */
  checkedAt: DateTime,
  /**
   * Until when the answer holds by itself: the lease (`HUB_ENTITLEMENT_LIMITS.leaseSeconds`), or sooner when a
   * counted subscription ends. The hub asks again by then, and uses none of it after.
   */
  validUntil: DateTime,
});

/** What a hub's owner's subscriptions unlock on the hub, asked by the hub itself. */
export const storeEntitlementOperations = {
  getHomeyEntitlements: op({
    name: 'getHomeyEntitlements',
    method: 'GET',
    path: '/homey/:homeyId/entitlements',
    scope: null,
    auth: false,
    params: Type.Object({ homeyId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
    query: Type.Object({ secret: Type.String({ minLength: 1, maxLength: 4000 }) }),
    response: HubEntitlements,
    errors: ['forbidden', 'not_found'],
    summary:
      'What the subscriptions of the owner of hub `homeyId` unlock on it: its tier, whether its backups may be kept in the cloud, and until when the answer holds. An unclaimed hub has the free tier.',
    description:
      '`secret` is the hub’s secret (`hubSecret` of `@hearth/contract/hub-secret`) and must name `homeyId`: each hub asks about itself only, so no hub (nor anyone else) reads another account’s subscriptions.',
  }),
} as const;
