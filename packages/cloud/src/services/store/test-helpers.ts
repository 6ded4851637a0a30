import { sharedSecret } from '../../platform/cluster/secrets';
import type { Cloud } from '../../server';
import { call, type Json, readJson } from '../../testing';
import { SIGNATURE_HEADER, signWebhook } from './test-provider';

/** Test helpers of the store's suites: speaking to the webhook route as the test payment provider does. */

/** The test provider's id of a store payment (what its webhook events name). */
export async function providerPaymentId(cloud: Cloud, paymentId: string): Promise<string> {
  const row = await cloud.context.database.db
    .selectFrom('store_payments')
    .select('provider_payment_id')
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return row.provider_payment_id;
}

/** Sends a webhook event signed as the test provider signs them (or with another key, or at another time). */
export async function sendWebhook(cloud: Cloud, event: unknown, key?: Buffer, time?: number) {
  const body = JSON.stringify(event);
  const secret = key ?? (await sharedSecret(cloud.context.database, 'store-test-provider-webhook'));
  const response = await fetch(`${cloud.url}/store/payment/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signWebhook(secret, body, time ?? Math.floor(cloud.context.clock.now() / 1000)),
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as { outcome?: string; error?: string } };
}

/** Sends the provider's signed event that a store payment (as `pay` answered it) reached `status`. */
export async function sendPaymentEvent(
  cloud: Cloud,
  payment: { id: string; amount: number; currency: string },
  status: string,
  eventId: string,
) {
  const data = { id: await providerPaymentId(cloud, payment.id), status, amount: payment.amount, currency: payment.currency };
  return sendWebhook(cloud, { id: eventId, data });
}

/** A payment as `POST /store/order/pay` answers it. */
export interface PaymentAnswer {
  id: string;
  amount: number;
  currency: string;
  actionUrl: string;
}

/** Orders the cart and approves the payment on the test provider's page (its signed webhook marks it paid). */
export async function checkout(cloud: Cloud, token: string): Promise<{ order: Json; payment: PaymentAnswer }> {
  const order = await readJson(await call(cloud, 'POST', '/store/order', token, {}));
  const paying = await call(cloud, 'POST', '/store/order/pay', token, { orderId: order.id });
  if (paying.status !== 200) throw new Error(`pay failed: ${paying.status} ${await paying.text()}`);
  const { payment } = (await readJson(paying)) as { payment: PaymentAnswer };
  const approve = await fetch(`${cloud.url}${new URL(payment.actionUrl).pathname}/approve`, { method: 'POST' });
  if (approve.status !== 200) throw new Error(`approving the payment failed: ${approve.status}`);
  return { order, payment };
}

/**
 * Buys one `sku` as the user of `token` through the store, as a person does: a billing name and country (what
 * checkout needs when only subscriptions are bought), the cart, the order, the test provider's Approve.
 */
export async function buy(cloud: Cloud, token: string, sku: string): Promise<{ order: Json; payment: PaymentAnswer }> {
  const billing = { billing_firstname: 'Ada', billing_lastname: 'Berg', billing_country: 'NL' };
  await call(cloud, 'PUT', '/store/userdata', token, billing);
  const added = await call(cloud, 'POST', '/store/cart', token, { sku, quantity: 1 });
  if (added.status >= 300) throw new Error(`adding ${sku} to the cart failed: ${added.status} ${await added.text()}`);
  return checkout(cloud, token);
}
