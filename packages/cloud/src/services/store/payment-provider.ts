/**
 * The payment provider behind checkout. A provider for a real payment service (Mollie, Stripe, Adyen) fills this
 * interface; the cloud's embedded default is the test provider in `test-provider.ts`, where no money moves.
 */

/** A payment's life at a provider, as real providers report it. */
export type PaymentStatus = 'created' | 'requires_action' | 'succeeded' | 'failed' | 'canceled' | 'refunded';

/** The ends a payment can reach (a succeeded payment can still be refunded). */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['failed', 'canceled', 'refunded'];

export interface ProviderPayment {
  /** The provider's id of the payment. */
  id: string;
  status: PaymentStatus;
  /** Where the buyer approves the payment while it requires action. */
  actionUrl: string | null;
  amount: number;
  currency: string;
}

/** One event of a provider's webhook, after its signature was checked. */
export interface PaymentEvent {
  /** The provider's id of the event: a redelivered event has the same one. */
  id: string;
  paymentId: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** A test provider takes no money; the wire says so on every payment. */
  readonly test: boolean;
  /**
   * Creates a payment, or answers the one created before with the same idempotency key (providers keep them for a
   * day or more), so a request retried after a timeout never makes a second charge.
   */
  createPayment(input: {
    amount: number;
    currency: string;
    description: string;
    idempotencyKey: string;
    returnUrl: string;
  }): Promise<ProviderPayment>;
  /** Checks a webhook call's signature over its raw body and reads its event; throws on a forged or stale one. */
  readWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<PaymentEvent>;
}
