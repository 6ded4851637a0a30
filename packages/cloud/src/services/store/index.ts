import { HearthError, notFound, storeOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { forgetCachedTokens, requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { hashSecret, newSecret } from '../../platform/tokens';
import type { CloudService } from '../service';
import { entitlementImplementations } from './entitlements';
import { offerImplementations, referralFulfilment } from './offers';
import { orderImplementations } from './orders';
import { type Fulfilment, paymentImplementations, paymentWebhookRoute } from './payments';
import { orderRecord } from './records';
import { loadCatalogue, removeExpiredGuestCarts, shopImplementations } from './shop';
import { expireSubscriptions, subscriptionFulfilment, subscriptionImplementations } from './subscriptions';
import { taxImplementations } from './taxes';
import { testProviderRoutes } from './test-provider';
import { userdataImplementations } from './userdata';

// The user's side only: the shop's operations are served by `shop.ts`.
const storeOps = storeOperations;

const STORE_SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
const LOGIN_TOKEN_LIFETIME_MS = 5 * 60 * 1000;

/** The user's side of the store (`/store/user/…`): orders, store web sessions, login tokens, logout. */
export function storeImplementations(context: CloudContext) {
  const { db } = context.database;
  return implement<typeof storeOps, CloudPrincipal>(storeOps, {
    getOrders: async ({ principal }) => {
      const userId = requireUser(principal);
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(orderRecord);
    },

    getOrder: async ({ params, principal }) => {
      const userId = requireUser(principal);
      // By id or by order number; another user's order is simply not found.
      const row = await db
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('id', '=', params.orderId), eb('number', '=', params.orderId)]))
        .executeTakeFirst();
      if (!row) throw notFound('Order', params.orderId);
      return orderRecord(row);
    },

    createStoreSession: async ({ principal }) => {
      const userId = requireUser(principal);
      const token = newSecret();
      const expiresAt = new Date(context.clock.now() + STORE_SESSION_LIFETIME_MS);
      await db
        .insertInto('store_sessions')
        .values({ token_hash: hashSecret(token), user_id: userId, expires_at: expiresAt })
        .execute();
      return { token, expiresAt: expiresAt.toISOString() };
    },

    deleteStoreSession: async ({ body, principal }) => {
      const userId = requireUser(principal);
      let query = db.deleteFrom('store_sessions').where('user_id', '=', userId);
      if (body?.token) query = query.where('token_hash', '=', hashSecret(body.token));
      const result = await query.executeTakeFirst();
      if (body?.token && Number(result.numDeletedRows) === 0) throw new HearthError('not_found', 'Store session not found');
    },

    createLoginToken: async ({ principal }) => {
      const userId = requireUser(principal);
      const token = newSecret();
      const expiresAt = new Date(context.clock.now() + LOGIN_TOKEN_LIFETIME_MS);
      await db
        .insertInto('one_time_tokens')
        .values({ token_hash: hashSecret(token), kind: 'login', user_id: userId, expires_at: expiresAt })
        .execute();
      return { token, expiresAt: expiresAt.toISOString() };
    },

    logout: async ({ principal }) => {
      const userId = requireUser(principal);
      await db
        .updateTable('oauth_tokens')
        .set({ revoked_at: new Date(context.clock.now()) })
        .where('family_id', '=', principal.familyId)
        .where('revoked_at', 'is', null)
        .execute();
      forgetCachedTokens(context.database);
      await db.deleteFrom('store_sessions').where('user_id', '=', userId).execute();
    },
  });
}

/** What a paid order sets going, each once. */
const fulfilments: Fulfilment[] = [subscriptionFulfilment, referralFulfilment];
/** How often subscriptions whose time is up are ended (one node runs it per period). */
const EXPIRY_SWEEP_MS = 15 * 60 * 1000;
/** How often guests' expired carts are removed. */
const GUEST_CART_SWEEP_MS = 6 * 60 * 60 * 1000;

export const storeService: CloudService = {
  name: 'store',
  create: (context) => ({
    implementations: () => [
      ...storeImplementations(context),
      ...shopImplementations(context),
      ...userdataImplementations(context),
      ...taxImplementations(context),
      ...orderImplementations(context),
      ...paymentImplementations(context),
      ...subscriptionImplementations(context),
      ...offerImplementations(context),
      ...entitlementImplementations(context),
    ],
    routes: (app) => {
      testProviderRoutes(app, context);
      paymentWebhookRoute(app, context, fulfilments);
    },
    start: async () => {
      await loadCatalogue(context);
      context.sweeps.every('store-subscription-expiry', EXPIRY_SWEEP_MS, () =>
        expireSubscriptions(context.database.db, new Date(context.clock.now())),
      );
      context.sweeps.every('store-guest-carts', GUEST_CART_SWEEP_MS, () =>
        removeExpiredGuestCarts(context.database.db, new Date(context.clock.now())),
      );
    },
  }),
};
