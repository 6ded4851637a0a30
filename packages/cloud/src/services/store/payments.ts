import { randomBytes } from 'node:crypto';
import { HearthError, notFound, storePaymentOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { buyerOf } from './buyer';
import { releaseCoupon } from './coupons';
import { releaseStock } from './orders';
import type { PaymentEvent, PaymentProvider, PaymentStatus } from './payment-provider';
import { orderRecord } from './records';
import type { OrdersTable, StorePaymentsTable } from './tables';
import { testPaymentProvider, WEBHOOK_PATH } from './test-provider';

export type OrderRow = Selectable<OrdersTable>;
type PaymentRow = Selectable<StorePaymentsTable>;

/**
 * What the cloud does once, and only once, when an order is paid (subscriptions are granted here), and what it
 * undoes, once, when the paid order is refunded.
 */
export interface Fulfilment {
  paid(trx: Kysely<CloudSchema>, order: OrderRow, now: Date): Promise<void>;
  refunded(trx: Kysely<CloudSchema>, order: OrderRow, now: Date): Promise<void>;
}

/** The order statuses a payment may still be started from. */
const PAYABLE = ['pending_payment', 'payment_failed'];
/** A payment that is under way or went through: paying again answers it. */
const OPEN_OR_PAID = ['created', 'requires_action', 'succeeded'];

/** The moves a provider event may make; any other (a late `failed` after `succeeded`) is ignored. */
const MOVES: Record<string, PaymentStatus[]> = {
  created: ['requires_action', 'succeeded', 'failed', 'canceled'],
  requires_action: ['succeeded', 'failed', 'canceled'],
  succeeded: ['refunded'],
};

/** The embedded default until a real provider is configured: the cloud's own test provider. */
export const paymentProviderFor = (context: CloudContext): PaymentProvider => testPaymentProvider(context);

function paymentRecord(payment: PaymentRow, provider: PaymentProvider) {
  return {
    id: payment.id,
    provider: payment.provider,
    test: provider.test,
    status: payment.status as PaymentStatus,
    method: payment.method as 'card',
    amount: payment.amount,
    currency: payment.currency,
    actionUrl: payment.status === 'requires_action' || payment.status === 'created' ? payment.action_url : null,
    createdAt: payment.created_at.toISOString(),
  };
}

/** `POST /store/order/pay`: starts a payment of the caller's order, or answers the one under way. */
export function paymentImplementations(context: CloudContext, provider: PaymentProvider = paymentProviderFor(context)) {
  const { db } = context.database;
  return implement<typeof storePaymentOperations, CloudPrincipal>(storePaymentOperations, {
    payOrder: async ({ body, principal, request }) => {
      const buyer = buyerOf(request, principal);
      // First, under the order's lock, the payment to answer or the attempt to make: concurrent calls take turns
      // here and the later ones find the first one's row.
      const { order, payment: found } = await db.transaction().execute(async (trx) => {
        // The buyer's order: a user's own, or the one a guest's cart made (its token pays it).
        const order = await trx
          .selectFrom('orders')
          .selectAll()
          .where(
            buyer.kind === 'user' ? 'user_id' : 'guest_token_hash',
            '=',
            buyer.kind === 'user' ? buyer.userId : buyer.tokenHash,
          )
          .where((eb) => eb.or([eb('id', '=', body.orderId), eb('number', '=', body.orderId)]))
          .forUpdate()
          .executeTakeFirst();
        if (!order) throw notFound('Order', body.orderId);
        const key = body.idempotencyKey ? `${order.user_id}:${body.idempotencyKey}` : null;
        const payments = await trx
          .selectFrom('store_payments')
          .selectAll()
          .where('order_id', '=', order.id)
          .orderBy('created_at', 'desc')
          .execute();
        // A retried request (its key) gets its payment; any other gets the one under way, so an order never has two.
        const again =
          payments.find((p) => key !== null && p.idempotency_key === key) ??
          payments.find((p) => OPEN_OR_PAID.includes(p.status));
        if (again) return { order, payment: again };
        if (!PAYABLE.includes(order.status)) throw new HearthError('conflict', `This order is ${order.status.replace('_', ' ')}`);
        if (key && (await trx.selectFrom('store_payments').select('id').where('idempotency_key', '=', key).executeTakeFirst()))
          throw new HearthError('conflict', 'This idempotency key belongs to another order');
        const id = `pay_${randomBytes(12).toString('hex')}`;
        const attempt = await trx
          .insertInto('store_payments')
          .values({
            id,
            order_id: order.id,
            provider: provider.name,
            provider_payment_id: `pending:${id}`,
            idempotency_key: key ?? `${order.id}:${payments.length + 1}`,
            method: order.payment_method ?? 'card',
            status: 'created',
            amount: order.total,
            currency: order.currency,
            updated_at: new Date(context.clock.now()),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { order, payment: attempt };
      });
      if (found.status !== 'created') return { order: orderRecord(order), payment: paymentRecord(found, provider) };
      // Then the provider, outside any transaction (it is another service). Its idempotency key makes every caller
      // that reaches this point for the attempt get the same payment there.
      const created = await provider.createPayment({
        amount: found.amount,
        currency: found.currency,
        description: `Hearth order ${order.number}`,
        idempotencyKey: found.idempotency_key,
        returnUrl: `${context.config.publicUrl}/devices`,
      });
      const payment =
        (await db
          .updateTable('store_payments')
          .set({
            provider_payment_id: created.id,
            status: created.status,
            action_url: created.actionUrl,
            updated_at: new Date(context.clock.now()),
          })
          .where('id', '=', found.id)
          .where('status', '=', 'created')
          .returningAll()
          .executeTakeFirst()) ??
        (await db.selectFrom('store_payments').selectAll().where('id', '=', found.id).executeTakeFirstOrThrow());
      return { order: orderRecord(order), payment: paymentRecord(payment, provider) };
    },
  });
}

/**
 * Applies one provider event in one transaction: the event's id is recorded first (a redelivered event stops
 * there), the payment moves only along the provider's lifecycle, and the order becomes paid by a conditional update
 * that only one delivery can win, which alone runs the fulfilments. Nothing is charged or fulfilled twice, whichever
 * node receives which delivery.
 */
export async function applyPaymentEvent(
  context: CloudContext,
  provider: PaymentProvider,
  event: PaymentEvent,
  fulfilments: Fulfilment[],
): Promise<'applied' | 'duplicate' | 'ignored'> {
  return context.database.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('store_payment_events')
      .values({ id: `${provider.name}:${event.id}`, type: event.status, payment_id: event.paymentId })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!fresh) return 'duplicate';
    const payment = await trx
      .selectFrom('store_payments')
      .selectAll()
      .where('provider', '=', provider.name)
      .where('provider_payment_id', '=', event.paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (!payment) throw notFound('Payment', event.paymentId);
    if (payment.amount !== event.amount || payment.currency !== event.currency)
      throw new HearthError('invalid_body', 'The event’s amount is not the payment’s');
    if (!(MOVES[payment.status] ?? []).includes(event.status)) return 'ignored';
    await trx
      .updateTable('store_payments')
      .set({ status: event.status, updated_at: new Date(context.clock.now()) })
      .where('id', '=', payment.id)
      .execute();
    const order = (to: string, from: string[], extra: { paid_at?: Date } = {}) =>
      trx
        .updateTable('orders')
        .set({ status: to, updated_at: new Date(context.clock.now()), ...extra })
        .where('id', '=', payment.order_id)
        .where('status', 'in', from)
        .returningAll()
        .executeTakeFirst();
    if (event.status === 'succeeded') {
      const paid = await order('paid', PAYABLE, { paid_at: new Date(context.clock.now()) });
      if (paid) for (const fulfilment of fulfilments) await fulfilment.paid(trx, paid, new Date(context.clock.now()));
    } else if (event.status === 'failed') await order('payment_failed', PAYABLE);
    else if (event.status === 'canceled') {
      const canceled = await order('canceled', PAYABLE);
      if (canceled) {
        await releaseStock(trx, canceled.items as { sku: string; quantity: number }[]);
        if (canceled.coupon_code) await releaseCoupon(trx, canceled.coupon_code, canceled.user_id);
      }
    } else if (event.status === 'refunded') {
      // Like paying, only the delivery whose update moves the order from paid undoes what it set going.
      const refunded = await order('refunded', ['paid']);
      if (refunded) for (const fulfilment of fulfilments) await fulfilment.refunded(trx, refunded, new Date(context.clock.now()));
    }
    return 'applied';
  });
}

/**
 * The providers' webhook route. It reads the raw body (the signature covers its exact bytes), so it lives in a
 * scope of its own with a text parser; it needs no token, as the signature proves who sent it.
 */
export function paymentWebhookRoute(app: FastifyInstance, context: CloudContext, fulfilments: Fulfilment[]): void {
  const provider = paymentProviderFor(context);
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(WEBHOOK_PATH, async (request, reply) => {
      if (typeof request.body !== 'string') throw new HearthError('unsupported_media_type', 'Send the event as JSON');
      const event = await provider.readWebhook(request.body, request.headers);
      const outcome = await applyPaymentEvent(context, provider, event, fulfilments);
      return reply.status(200).send({ received: true, outcome });
    });
  });
}
