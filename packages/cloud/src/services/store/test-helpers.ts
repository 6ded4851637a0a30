import { sharedSecret } from '../../platform/cluster/secrets';
import type { Cloud } from '../../server';
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
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(secret, body, time) },
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
