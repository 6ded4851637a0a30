import { randomBytes } from 'node:crypto';
import { HearthError, notFound, storeSubscriptionOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { requireUser } from '../../platform/auth';
import { addPeriod } from '../../platform/calendar';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { hubFor } from '../cloud/directory';
import type { SubscriptionsTable } from '../cloud/tables';
import { CATALOGUE } from './catalogue';
import type { Fulfilment, OrderRow } from './payments';
import { verifyReceipt } from './receipts';
import { requireStoreSecret } from './secret';

type SubscriptionRow = Selectable<SubscriptionsTable>;

export function subscriptionRecord(row: SubscriptionRow) {
  return {
    _id: row.id,
    id: row.id,
    type: row.type,
    status: row.status,
    quantity: row.quantity,
    startedAt: row.started_at.toISOString(),
    ...(row.expires_at ? { expiresAt: row.expires_at.toISOString() } : {}),
  };
}

/** The sku's subscription in the catalogue: what it is for and how long a period lasts. */
function catalogueSubscription(sku: string) {
  const product = CATALOGUE.find((p) => p.sku === sku);
  if (!product?.subscription) throw notFound('Subscription product', sku);
  return product.subscription;
}

/** A subscription as a grant left it, and the end the grant moved it from and to. */
interface Grant {
  row: SubscriptionRow;
  /** The end before the grant: the running subscription's, or the grant's own start for a new subscription. */
  from: Date;
  /** The end after the grant; equal to `from` when the grant added nothing (a longer or endless one ran already). */
  to: Date;
}

/**
 * Starts a subscription, or extends the user's running one of the same type (a renewal adds its periods to what is
 * left): `until` sets the end outright (an app store's receipt), else `duration` × `times` is added. What the store
 * grants is for all the user's hubs: a subscription sold for one hub is left as it is, and one that never ends
 * (`expires_at` null) stays so.
 */
export async function grantSubscription(
  trx: Kysely<CloudSchema>,
  userId: string,
  type: string,
  change: { duration: string; times: number } | { until: Date },
  data: Record<string, unknown>,
  now: Date,
): Promise<SubscriptionRow> {
  return (await applyGrant(trx, userId, type, change, data, now)).row;
}

async function applyGrant(
  trx: Kysely<CloudSchema>,
  userId: string,
  type: string,
  change: { duration: string; times: number } | { until: Date },
  data: Record<string, unknown>,
  now: Date,
): Promise<Grant> {
  const running = await trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where('status', '=', 'active')
    .where('hub_id', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  const from = running?.expires_at && running.expires_at > now ? running.expires_at : now;
  const until = 'until' in change ? change.until : addPeriod(from, change.duration, change.times);
  if (running) {
    const lengthens = running.expires_at !== null && running.expires_at < until;
    const row = await trx
      .updateTable('subscriptions')
      .set({
        expires_at: lengthens ? until : running.expires_at,
        data: JSON.stringify({ ...running.data, ...data }),
        updated_at: now,
      })
      .where('id', '=', running.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, from, to: lengthens ? until : from };
  }
  const row = await trx
    .insertInto('subscriptions')
    .values({
      id: `${type}_${randomBytes(6).toString('hex')}`,
      user_id: userId,
      type,
      status: 'active',
      quantity: 1,
      started_at: now,
      expires_at: until,
      data: JSON.stringify(data),
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, from: now, to: until };
}

/**
 * What an order grants, by subscription type: its subscription lines (with what the catalogue says each is for),
 * and the subscription of a coupon applied at its checkout.
 */
async function orderGrants(trx: Kysely<CloudSchema>, order: { items: unknown; coupon_code: string | null }) {
  const grants = (order.items as { sku: string; quantity: number }[]).flatMap((item) => {
    const subscription = CATALOGUE.find((p) => p.sku === item.sku)?.subscription;
    return subscription ? [{ ...subscription, quantity: item.quantity }] : [];
  });
  const coupon = order.coupon_code
    ? await trx.selectFrom('store_coupons').selectAll().where('code', '=', order.coupon_code).executeTakeFirst()
    : undefined;
  if (coupon?.subscription_type && coupon.subscription_duration)
    grants.push({
      type: coupon.subscription_type,
      duration: coupon.subscription_duration,
      quantity: coupon.subscription_quantity ?? 1,
    });
  return grants;
}

export const subscriptionFulfilment: Fulfilment = {
  async paid(trx, order, now) {
    for (const line of await orderGrants(trx, order)) {
      const grant = await applyGrant(
        trx,
        order.user_id,
        line.type,
        { duration: line.duration, times: line.quantity },
        { source: 'store', lastOrder: order.number },
        now,
      );
      await trx
        .insertInto('store_subscription_grants')
        .values({ order_id: order.id, subscription_id: grant.row.id, extended_from: grant.from, extended_to: grant.to })
        .execute();
    }
  },

  /**
   * Takes back what the order's payment granted: each subscription it extended ends as much earlier as the grant
   * made it end later, whatever was added or used since; one left with no time is canceled.
   */
  async refunded(trx, order, now) {
    const grants = await trx
      .selectFrom('store_subscription_grants')
      .selectAll()
      .where('order_id', '=', order.id)
      .where('refunded_at', 'is', null)
      .orderBy('id')
      .execute();
    if (grants.length === 0) return refundUnrecordedGrants(trx, order, now);
    for (const grant of grants) {
      const running = await trx
        .selectFrom('subscriptions')
        .selectAll()
        .where('id', '=', grant.subscription_id)
        .where('status', '=', 'active')
        .forUpdate()
        .executeTakeFirst();
      await trx.updateTable('store_subscription_grants').set({ refunded_at: now }).where('id', '=', grant.id).execute();
      if (!running?.expires_at) continue;
      const added = grant.extended_to.getTime() - grant.extended_from.getTime();
      await shortenSubscription(trx, running, new Date(running.expires_at.getTime() - added), order, now);
    }
  },
};

/**
 * The refund of an order paid before grants were recorded (or one that granted nothing): its periods come off the
 * running subscription by calendar arithmetic, which may miss by the days a month end clamped.
 */
async function refundUnrecordedGrants(trx: Kysely<CloudSchema>, order: OrderRow, now: Date): Promise<void> {
  const recorded = await trx
    .selectFrom('store_subscription_grants')
    .select('id')
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  if (recorded) return;
  for (const line of await orderGrants(trx, order)) {
    const running = await trx
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', order.user_id)
      .where('type', '=', line.type)
      .where('status', '=', 'active')
      .where('hub_id', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!running?.expires_at) continue;
    await shortenSubscription(trx, running, addPeriod(running.expires_at, line.duration, -line.quantity), order, now);
  }
}

/** Moves a subscription's end back to `until`, or cancels it when that leaves it no time. */
async function shortenSubscription(
  trx: Kysely<CloudSchema>,
  running: SubscriptionRow,
  until: Date,
  order: OrderRow,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set(
      until > now
        ? { expires_at: until, updated_at: now }
        : {
            status: 'canceled',
            expires_at: now,
            data: JSON.stringify({ ...running.data, refundedOrder: order.number }),
            updated_at: now,
          },
    )
    .where('id', '=', running.id)
    .execute();
}

/** Ends the subscriptions whose time is up (of the users given, or all); answers them. */
export function expireSubscriptions(db: Kysely<CloudSchema>, now: Date, users?: string[]) {
  let query = db
    .updateTable('subscriptions')
    .set({ status: 'expired', updated_at: now })
    .where('status', '=', 'active')
    .where('expires_at', '<=', now);
  if (users) query = query.where('user_id', 'in', users.length > 0 ? users : ['']);
  return query.returningAll().execute();
}

/** App-store receipts and the subscriptions' life (`/store/subscription/…`, `/store/one-time-purchase/verify`). */
export function subscriptionImplementations(context: CloudContext) {
  const { db } = context.database;
  const root = () => context.config.store?.receiptRootCertificate;

  /** Verifies a receipt for the sku and app, and records its transaction once: a replay is refused. */
  const takeReceipt = async (
    trx: Kysely<CloudSchema>,
    userId: string,
    body: { sku: string; packageName: string; receipt: string },
    kind: 'subscription' | 'one_time',
    hubId: string | null,
  ) => {
    const payload = await verifyReceipt(body.receipt, root(), context.clock.now());
    if (payload.productId !== body.sku) throw new HearthError('invalid_grant', 'The receipt is for another product');
    if (payload.bundleId !== body.packageName) throw new HearthError('invalid_grant', 'The receipt is for another app');
    if (kind === 'subscription' && (payload.expiresDate === undefined || payload.expiresDate <= context.clock.now()))
      throw new HearthError('gone', 'The receipt’s subscription period has ended');
    const recorded = await trx
      .insertInto('store_receipts')
      .values({
        transaction_id: payload.transactionId,
        user_id: userId,
        kind,
        sku: payload.productId,
        package_name: payload.bundleId,
        hub_id: hubId,
        purchased_at: new Date(payload.purchaseDate),
        expires_at: payload.expiresDate ? new Date(payload.expiresDate) : null,
      })
      .onConflict((oc) => oc.column('transaction_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!recorded) throw new HearthError('conflict', 'This receipt has been used already');
    return recorded;
  };

  return implement<typeof storeSubscriptionOperations, CloudPrincipal>(storeSubscriptionOperations, {
    verifySubscription: async ({ body, principal }) => {
      const userId = requireUser(principal);
      const { type } = catalogueSubscription(body.sku);
      return db.transaction().execute(async (trx) => {
        const receipt = await takeReceipt(trx, userId, body, 'subscription', null);
        const row = await grantSubscription(
          trx,
          userId,
          type,
          { until: receipt.expires_at as Date },
          {
            source: 'app_store',
            transactionId: receipt.transaction_id,
          },
          new Date(context.clock.now()),
        );
        return subscriptionRecord(row);
      });
    },

    deferSubscription: async ({ body }) => {
      const { type } = catalogueSubscription(body.sku);
      return db.transaction().execute(async (trx) => {
        const running = await trx
          .selectFrom('subscriptions')
          .select('id')
          .where('user_id', '=', body.athomId)
          .where('type', '=', type)
          .where('status', '=', 'active')
          .where('hub_id', 'is', null)
          .executeTakeFirst();
        if (!running) throw notFound('Subscription', `${type} of ${body.athomId}`);
        const row = await grantSubscription(
          trx,
          body.athomId,
          type,
          { duration: body.duration, times: body.quantity ?? 1 },
          {},
          new Date(context.clock.now()),
        );
        return subscriptionRecord(row);
      });
    },

    getExpiredSubscriptions: async ({ query, body }) => {
      requireStoreSecret(context, query.secret);
      const ended = await expireSubscriptions(db, new Date(context.clock.now()), body?.users);
      return ended.map((row) => ({ userId: row.user_id, subscription: subscriptionRecord(row) }));
    },

    restoreSubscriptions: async ({ principal }) => {
      const userId = requireUser(principal);
      const subscriptions = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', 'active')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date(context.clock.now()))]))
        .orderBy('started_at')
        .execute();
      const purchases = await db
        .selectFrom('store_receipts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('kind', '=', 'one_time')
        .orderBy('purchased_at')
        .execute();
      return {
        subscriptions: subscriptions.map(subscriptionRecord),
        purchases: purchases.map((p) => ({
          transactionId: p.transaction_id,
          sku: p.sku,
          packageName: p.package_name,
          homeyId: p.hub_id,
          purchasedAt: p.purchased_at.toISOString(),
        })),
      };
    },

    verifyOneTimePurchase: async ({ body, principal }) => {
      const userId = requireUser(principal);
      // A purchase for a hub is its owner's to make.
      if (body.homeyId !== undefined) await hubFor(db, principal, body.homeyId, 'manage');
      const receipt = await db.transaction().execute((trx) => takeReceipt(trx, userId, body, 'one_time', body.homeyId ?? null));
      return {
        transactionId: receipt.transaction_id,
        sku: receipt.sku,
        packageName: receipt.package_name,
        homeyId: receipt.hub_id,
        purchasedAt: receipt.purchased_at.toISOString(),
      };
    },
  });
}
