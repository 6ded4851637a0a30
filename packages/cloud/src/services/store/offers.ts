import { randomBytes } from 'node:crypto';
import { HearthError, notFound, storeOfferOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { type CouponRow, couponKey, isCustomer, redeemCoupon } from './coupons';
import type { Fulfilment } from './payments';
import { requireStoreSecret } from './secret';
import { grantSubscription, subscriptionRecord } from './subscriptions';
import type { StoreOffersTable } from './tables';

/** What a refer-a-friend redemption gives the new customer and, once, the friend who invited them. */
const REFERRAL_GRANT = { type: 'homey_premium', duration: 'P1M' };

/** How many new customers' first orders may credit one inviter, in all: a year of Premium. */
export const REFERRAL_CREDITS_PER_INVITER = 12;

async function isVerified(trx: Kysely<CloudSchema>, userId: string): Promise<boolean> {
  const user = await trx.selectFrom('users').select('email_verified_at').where('id', '=', userId).executeTakeFirst();
  return Boolean(user?.email_verified_at);
}

/**
 * Refer-a-friend's credit: the first paid order of a verified new customer who redeemed it gives their inviter a
 * month of Premium, once per new customer and at most {@link REFERRAL_CREDITS_PER_INVITER} times per inviter.
 */
export const referralFulfilment: Fulfilment = {
  async paid(trx, order, now) {
    const referral = await trx
      .selectFrom('store_referrals')
      .selectAll()
      .where('invitee_id', '=', order.user_id)
      .where('credited_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!referral || !(await isVerified(trx, order.user_id))) return;
    const { credited } = await trx
      .selectFrom('store_referrals')
      .select((eb) => eb.fn.countAll<string>().as('credited'))
      .where('inviter_id', '=', referral.inviter_id)
      .where('credited_at', 'is not', null)
      .executeTakeFirstOrThrow();
    if (Number(credited) >= REFERRAL_CREDITS_PER_INVITER) return;
    const change = { duration: REFERRAL_GRANT.duration, times: 1 };
    await grantSubscription(trx, referral.inviter_id, REFERRAL_GRANT.type, change, { source: 'refer_a_friend_inviter' }, now);
    await trx
      .updateTable('store_referrals')
      .set({ credited_at: now, credited_order_id: order.id })
      .where('invitee_id', '=', referral.invitee_id)
      .execute();
  },
  // A refunded first order leaves the inviter's month as it is: the credit is for bringing a customer.
  async refunded() {},
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function offerRecord(row: Selectable<StoreOffersTable>) {
  return {
    _id: row.id,
    id: row.id,
    userId: row.user_id,
    campaignId: row.campaign_id,
    expiresAt: iso(row.expires_at),
    subscriptionType: row.subscription_type,
    subscriptionQuantity: row.subscription_quantity,
    subscriptionDuration: row.subscription_duration,
    redeemedAt: iso(row.redeemed_at),
  };
}

function couponRecord(row: CouponRow) {
  return {
    couponCode: row.code,
    campaignId: row.campaign_id,
    expiresAt: iso(row.expires_at),
    maxRedeems: row.max_redeems,
    redeems: row.redeems,
    newCustomersOnly: row.new_customers_only,
    discountPercent: row.discount_percent,
    subscriptionType: row.subscription_type,
    subscriptionQuantity: row.subscription_quantity,
    subscriptionDuration: row.subscription_duration,
  };
}

/** Offers, coupons and refer-a-friend (`/store/offer…`, `/store/coupon…`). */
export function offerImplementations(context: CloudContext) {
  const { db } = context.database;
  const checkSecret = (given: string) => requireStoreSecret(context, given);
  const future = (when: string | undefined) => {
    if (when !== undefined && Date.parse(when) <= context.clock.now())
      throw new HearthError('invalid_parameter', 'Invalid Parameter: expiresAt must lie in the future');
    return when === undefined ? null : new Date(when);
  };
  const insertCoupon = async (values: Parameters<ReturnType<typeof db.insertInto<'store_coupons'>>['values']>[0]) => {
    const row = await db
      .insertInto('store_coupons')
      .values(values)
      .onConflict((oc) => oc.column('code').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new HearthError('conflict', 'A coupon with this code exists already');
    return couponRecord(row);
  };

  return implement<typeof storeOfferOperations, CloudPrincipal>(storeOfferOperations, {
    getOffers: async ({ principal }) => {
      const rows = await db
        .selectFrom('store_offers')
        .selectAll()
        .where('user_id', '=', requireUser(principal))
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(offerRecord);
    },

    getOffer: async ({ params, principal }) => {
      const row = await db
        .selectFrom('store_offers')
        .selectAll()
        .where('id', '=', params.offerId)
        .where('user_id', '=', requireUser(principal))
        .executeTakeFirst();
      if (!row) throw notFound('Offer', params.offerId);
      return offerRecord(row);
    },

    redeemOffer: async ({ params, principal }) => {
      const userId = requireUser(principal);
      return db.transaction().execute(async (trx) => {
        const offer = await trx
          .selectFrom('store_offers')
          .selectAll()
          .where('id', '=', params.offerId)
          .where('user_id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        if (!offer) throw notFound('Offer', params.offerId);
        if (offer.redeemed_at !== null) throw new HearthError('conflict', 'This offer has been redeemed already');
        if (offer.expires_at !== null && offer.expires_at.getTime() <= context.clock.now())
          throw new HearthError('gone', 'This offer has expired');
        await trx
          .updateTable('store_offers')
          .set({ redeemed_at: new Date(context.clock.now()) })
          .where('id', '=', offer.id)
          .execute();
        const subscription = await grantSubscription(
          trx,
          userId,
          offer.subscription_type,
          { duration: offer.subscription_duration, times: offer.subscription_quantity },
          { source: 'offer', offerId: offer.id },
          new Date(context.clock.now()),
        );
        return { subscription: subscriptionRecord(subscription) };
      });
    },

    redeemReferAFriend: async ({ body, principal }) => {
      const userId = requireUser(principal);
      if (body.inviterId === userId) throw new HearthError('conflict', 'You cannot invite yourself');
      return db.transaction().execute(async (trx) => {
        const inviter = await trx.selectFrom('users').select('id').where('id', '=', body.inviterId).executeTakeFirst();
        if (!inviter) throw notFound('Inviter', body.inviterId);
        if (await isCustomer(trx, userId)) throw new HearthError('conflict', 'Refer-a-friend is for new customers');
        if (!(await isVerified(trx, userId)))
          throw new HearthError('forbidden', 'Confirm your e-mail address before you redeem refer-a-friend');
        // The new customer's row: a second redemption (or a second inviter) finds it taken.
        const first = await trx
          .insertInto('store_referrals')
          .values({ invitee_id: userId, inviter_id: inviter.id })
          .onConflict((oc) => oc.column('invitee_id').doNothing())
          .returning('invitee_id')
          .executeTakeFirst();
        if (!first) throw new HearthError('conflict', 'You have redeemed refer-a-friend already');
        // The inviter is credited at this account's first paid order (referralFulfilment), not now: a sign-up costs
        // nothing, so crediting it would let anyone farm months with throw-away accounts.
        const change = { duration: REFERRAL_GRANT.duration, times: 1 };
        const subscription = await grantSubscription(
          trx,
          userId,
          REFERRAL_GRANT.type,
          change,
          { source: 'refer_a_friend' },
          new Date(context.clock.now()),
        );
        return { subscription: subscriptionRecord(subscription) };
      });
    },

    createOfferCouponApple: async ({ query, body }) => {
      checkSecret(query.secret);
      return insertCoupon({
        code: couponKey(body.coupon),
        campaign_id: 'apple_offer_code',
        expires_at: future(body.expiresAt),
        new_customers_only: body.newCustomersOnly ?? false,
        subscription_type: body.subscriptionType,
        subscription_quantity: body.subscriptionQuantity ?? 1,
        subscription_duration: body.subscriptionDuration,
      });
    },

    createOffer: async ({ query, body }) => {
      checkSecret(query.secret);
      const user = await db.selectFrom('users').select('id').where('id', '=', body.userId).executeTakeFirst();
      if (!user) throw notFound('User', body.userId);
      const row = await db
        .insertInto('store_offers')
        .values({
          id: randomBytes(12).toString('hex'),
          user_id: user.id,
          campaign_id: body.campaignId ?? null,
          expires_at: future(body.expiresAt),
          subscription_type: body.subscriptionType,
          subscription_quantity: body.subscriptionQuantity ?? 1,
          subscription_duration: body.subscriptionDuration,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return offerRecord(row);
    },

    createCoupon: async ({ query, body }) => {
      checkSecret(query.secret);
      if (body.discountPercent === undefined && body.subscriptionType === undefined)
        throw new HearthError('missing_parameter', 'Missing Parameter: a coupon gives a subscriptionType or a discountPercent');
      if ((body.subscriptionType === undefined) !== (body.subscriptionDuration === undefined))
        throw new HearthError('missing_parameter', 'Missing Parameter: subscriptionType and subscriptionDuration go together');
      return insertCoupon({
        code: couponKey(body.couponCode),
        campaign_id: body.campaignId ?? null,
        expires_at: future(body.expiresAt),
        max_redeems: body.maxRedeems ?? null,
        new_customers_only: body.newCustomersOnly ?? false,
        discount_percent: body.discountPercent ?? 0,
        subscription_type: body.subscriptionType ?? null,
        subscription_quantity: body.subscriptionType ? (body.subscriptionQuantity ?? 1) : null,
        subscription_duration: body.subscriptionDuration ?? null,
      });
    },

    redeemCoupon: async ({ params, principal }) => {
      const userId = requireUser(principal);
      return db.transaction().execute(async (trx) => {
        const coupon = await redeemCoupon(trx, params.couponCode, userId, new Date(context.clock.now()));
        if (!coupon.subscription_type || !coupon.subscription_duration)
          throw new HearthError('conflict', 'This coupon gives a discount: apply it at checkout (PUT /store/coupon)');
        const subscription = await grantSubscription(
          trx,
          userId,
          coupon.subscription_type,
          { duration: coupon.subscription_duration, times: coupon.subscription_quantity ?? 1 },
          { source: 'coupon', coupon: coupon.code },
          new Date(context.clock.now()),
        );
        return { subscription: subscriptionRecord(subscription) };
      });
    },
  });
}
