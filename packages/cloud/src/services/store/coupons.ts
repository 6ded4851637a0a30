import { HearthError, notFound } from '@hearth/contract';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { StoreCouponsTable } from './tables';

export type CouponRow = Selectable<StoreCouponsTable>;

/** Codes are kept in capitals: `welcome10` and `WELCOME10` are one coupon. */
export const couponKey = (code: string) => code.toUpperCase();

/** Statuses of an order that was paid for: its buyer is a customer. */
export const PAID_ORDER_STATUSES = ['paid', 'shipped', 'delivered', 'refunded'];

/** Someone who paid an order or holds a subscription is no new customer. */
export async function isCustomer(trx: Kysely<CloudSchema>, userId: string): Promise<boolean> {
  const order = await trx
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', PAID_ORDER_STATUSES)
    .executeTakeFirst();
  if (order) return true;
  const subscription = await trx.selectFrom('subscriptions').select('id').where('user_id', '=', userId).executeTakeFirst();
  return subscription !== undefined;
}

/**
 * Whether the user may redeem the coupon now, with the reason when not (without taking it). For a guest (`null`)
 * only the coupon's own rules: the account their checkout makes is a new customer who has redeemed nothing, and
 * the order checks it again for that account.
 */
export async function usableCoupon(trx: Kysely<CloudSchema>, code: string, userId: string | null, now: Date): Promise<CouponRow> {
  const coupon = await trx.selectFrom('store_coupons').selectAll().where('code', '=', couponKey(code)).executeTakeFirst();
  if (!coupon) throw notFound('Coupon', code);
  if (coupon.expires_at !== null && coupon.expires_at.getTime() <= now.getTime())
    throw new HearthError('gone', 'This coupon has expired');
  if (coupon.max_redeems !== null && coupon.redeems >= coupon.max_redeems)
    throw new HearthError('gone', 'This coupon has been used up');
  if (userId === null) return coupon;
  const used = await trx
    .selectFrom('store_coupon_redemptions')
    .select('user_id')
    .where('coupon_code', '=', coupon.code)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (used) throw new HearthError('conflict', 'You have used this coupon already');
  if (coupon.new_customers_only && (await isCustomer(trx, userId)))
    throw new HearthError('conflict', 'This coupon is for new customers only');
  return coupon;
}

/**
 * Takes one redemption of the coupon for the user, in the caller's transaction. The counter moves only while it is
 * below `max_redeems` (concurrent takers wait for the row and see each other's count), and the redemptions' key
 * refuses a user's second: whichever node runs it, a coupon is never taken more often than it allows.
 */
export async function redeemCoupon(
  trx: Kysely<CloudSchema>,
  code: string,
  userId: string,
  now: Date,
  orderId: string | null = null,
): Promise<CouponRow> {
  const checked = await usableCoupon(trx, code, userId, now);
  const taken = await trx
    .updateTable('store_coupons')
    .set((eb) => ({ redeems: eb('redeems', '+', 1) }))
    .where('code', '=', checked.code)
    .where((eb) => eb.or([eb('max_redeems', 'is', null), eb('redeems', '<', eb.ref('max_redeems'))]))
    .returningAll()
    .executeTakeFirst();
  if (!taken) throw new HearthError('gone', 'This coupon has been used up');
  const mine = await trx
    .insertInto('store_coupon_redemptions')
    .values({ coupon_code: taken.code, user_id: userId, order_id: orderId })
    .onConflict((oc) => oc.columns(['coupon_code', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  // The caller's transaction rolls the counter back with this error.
  if (!mine) throw new HearthError('conflict', 'You have used this coupon already');
  return taken;
}

/** Gives a redemption back (an order that was canceled before it was paid). */
export async function releaseCoupon(trx: Kysely<CloudSchema>, code: string, userId: string): Promise<void> {
  const released = await trx
    .deleteFrom('store_coupon_redemptions')
    .where('coupon_code', '=', code)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(released.numDeletedRows) > 0)
    await trx
      .updateTable('store_coupons')
      .set((eb) => ({ redeems: eb('redeems', '-', 1) }))
      .where('code', '=', code)
      .execute();
}
