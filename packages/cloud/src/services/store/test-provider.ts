import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { HearthError } from '@hearth/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sharedSecret } from '../../platform/cluster/secrets';
import type { CloudContext } from '../../platform/context';
import { html, page } from '../cloud/pages';
import type { PaymentEvent, PaymentProvider, PaymentStatus } from './payment-provider';

/**
 * The embedded TEST payment provider: a stand-in for a real payment service that the cloud serves itself, so the
 * whole checkout runs on one machine. Its payment page has "Approve" and "Decline" buttons and moves no money; its
 * webhooks are signed with HMAC-SHA256 like a real provider's and delivered to the cloud's webhook route. Its books
 * live in `store_test_payments`, so every cloud node serves the same payments.
 */

export const TEST_PROVIDER = 'hearth-test';
export const SIGNATURE_HEADER = 'hearth-test-signature';
/** A webhook older than this is refused: a captured one cannot be replayed later. */
const SIGNATURE_TOLERANCE_S = 300;
const PAGE_PATH = '/store/test-payment';
const PAYMENT_ID_BYTES = 16;
const PAYMENT_ID = new RegExp(`^tp_[0-9a-f]{${PAYMENT_ID_BYTES * 2}}$`);
export const WEBHOOK_PATH = '/store/payment/webhook';

const webhookSecret = (context: CloudContext) => sharedSecret(context.database, 'store-test-provider-webhook');

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as the test provider signs its webhooks. */
export function signWebhook(secret: Buffer, body: string, time: number): string {
  return `t=${time},v1=${createHmac('sha256', secret).update(`${time}.${body}`).digest('hex')}`;
}

function verifySignature(secret: Buffer, body: string, header: string | undefined, now: number): void {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const time = Number(parts.t);
  if (!Number.isInteger(time) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? ''))
    throw new HearthError('invalid_token', 'Missing or malformed webhook signature');
  if (Math.abs(now / 1000 - time) > SIGNATURE_TOLERANCE_S) throw new HearthError('invalid_token', 'Webhook signature expired');
  const expected = Buffer.from(signWebhook(secret, body, time).split('v1=')[1] as string, 'hex');
  if (!timingSafeEqual(expected, Buffer.from(parts.v1 as string, 'hex')))
    throw new HearthError('invalid_token', 'Invalid webhook signature');
}

/** How the page words where a payment ended. */
const ENDED: Record<string, string> = { succeeded: 'approved', failed: 'declined', canceled: 'canceled', refunded: 'refunded' };

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount / 100);

export function testPaymentProvider(context: CloudContext): PaymentProvider {
  const { db } = context.database;
  return {
    name: TEST_PROVIDER,
    test: true,
    async createPayment({ amount, currency, description, idempotencyKey, returnUrl }) {
      // The same key answers the payment made before, as a real provider's idempotency keys do.
      await db
        .insertInto('store_test_payments')
        .values({
          id: `tp_${randomBytes(PAYMENT_ID_BYTES).toString('hex')}`,
          idempotency_key: idempotencyKey,
          amount,
          currency,
          description,
          status: 'requires_action',
          return_url: returnUrl,
          updated_at: new Date(context.clock.now()),
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await db
        .selectFrom('store_test_payments')
        .selectAll()
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirstOrThrow();
      if (row.amount !== amount || row.currency !== currency)
        throw new HearthError('conflict', 'This idempotency key was used for another amount');
      return {
        id: row.id,
        status: row.status as PaymentStatus,
        actionUrl: `${context.config.publicUrl}${PAGE_PATH}/${row.id}`,
        amount: row.amount,
        currency: row.currency,
      };
    },
    async readWebhook(rawBody, headers) {
      const header = headers[SIGNATURE_HEADER];
      verifySignature(
        await webhookSecret(context),
        rawBody,
        typeof header === 'string' ? header : undefined,
        context.clock.now(),
      );
      let event: { id?: unknown; data?: Record<string, unknown> };
      try {
        event = JSON.parse(rawBody);
      } catch {
        throw new HearthError('invalid_body', 'The event is not JSON');
      }
      const data = event.data ?? {};
      if (typeof event.id !== 'string' || typeof data.id !== 'string' || typeof data.status !== 'string')
        throw new HearthError('invalid_body', 'Not a payment event');
      return {
        id: event.id,
        paymentId: data.id,
        status: data.status as PaymentStatus,
        amount: Number(data.amount),
        currency: String(data.currency),
      } satisfies PaymentEvent;
    },
  };
}

// The payment page: phone first, one column, 44 px buttons; no script at all.
const send = (reply: FastifyReply, status: number, body: string) =>
  reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    )
    .type('text/html; charset=utf-8')
    .send(body);

const banner = html`<p class="error" role="note"><strong>Test payment provider.</strong> No money moves: this page
stands in for a real payment service.</p>`;

/** The test provider's payment page and its two buttons, served by the cloud itself. */
export function testProviderRoutes(app: FastifyInstance, context: CloudContext): void {
  const { db } = context.database;
  // Only the provider's own id shape reaches the database: a path may carry anything, NUL bytes included, which
  // PostgreSQL refuses in text (a 500 where "not found" is the answer).
  const find = async (id: string) =>
    PAYMENT_ID.test(id) ? db.selectFrom('store_test_payments').selectAll().where('id', '=', id).executeTakeFirst() : undefined;

  app.get<{ Params: { id: string } }>(`${PAGE_PATH}/:id`, async (request, reply) => {
    const payment = await find(request.params.id);
    if (!payment) return send(reply, 404, page('Payment not found', html`${banner}<h1>Payment not found</h1>`));
    const open = payment.status === 'requires_action';
    const body = html`${banner}
<h1>Pay ${money(payment.amount, payment.currency)}</h1>
<p class="lead">${payment.description}</p>
${
  open
    ? html`<form method="post" action="${PAGE_PATH}/${payment.id}/approve"><button type="submit">Approve</button></form>
<form method="post" action="${PAGE_PATH}/${payment.id}/decline"><button type="submit" class="secondary">Decline</button></form>`
    : html`<p role="status">This payment was ${ENDED[payment.status] ?? payment.status}.</p>`
}`;
    return send(reply, 200, page('Test payment', body));
  });

  app.post<{ Params: { id: string; action: string } }>(`${PAGE_PATH}/:id/:action`, async (request, reply) => {
    const { id, action } = request.params;
    if ((action !== 'approve' && action !== 'decline') || !PAYMENT_ID.test(id))
      return send(reply, 404, page('Not found', html`<h1>Not found</h1>`));
    const status: PaymentStatus = action === 'approve' ? 'succeeded' : 'failed';
    // Only a payment waiting for the buyer moves, once: a second click (or another node's) finds it moved.
    const moved = await db
      .updateTable('store_test_payments')
      .set({ status, updated_at: new Date(context.clock.now()) })
      .where('id', '=', id)
      .where('status', '=', 'requires_action')
      .returningAll()
      .executeTakeFirst();
    const payment = moved ?? (await find(id));
    if (!payment) return send(reply, 404, page('Payment not found', html`${banner}<h1>Payment not found</h1>`));
    if (moved) await deliverWebhook(app, context, moved, request.log);
    const outcome = `Payment ${ENDED[payment.status] ?? 'waiting'}`;
    const body = html`${banner}<h1>${outcome}</h1>
<p role="status">${moved ? '' : `This payment was ${ENDED[payment.status] ?? payment.status} before; nothing changed. `}${money(payment.amount, payment.currency)} · ${payment.description}</p>
<p class="links"><a href="${payment.return_url}">Back to the shop</a></p>`;
    return send(reply, 200, page(outcome, body));
  });
}

/**
 * Sends the signed event to the cloud's webhook route over HTTP, as a provider calls its merchant. It tries three
 * times; the webhook route answers a redelivered event without handling it again.
 */
async function deliverWebhook(
  app: FastifyInstance,
  context: CloudContext,
  payment: { id: string; status: string; amount: number; currency: string },
  log: { warn: (obj: object, msg: string) => void },
): Promise<void> {
  const body = JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`,
    type: `payment.${payment.status}`,
    data: { id: payment.id, status: payment.status, amount: payment.amount, currency: payment.currency },
  });
  const { port } = app.server.address() as AddressInfo;
  const secret = await webhookSecret(context);
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}${WEBHOOK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(context.clock.now() / 1000)),
        },
        body,
      });
      if (response.ok) return;
      log.warn({ status: response.status, attempt }, 'test payment provider: webhook refused');
    } catch (error) {
      log.warn({ err: error, attempt }, 'test payment provider: webhook not delivered');
    }
  }
}
