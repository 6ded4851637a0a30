import { Type } from 'typebox';
import { cloudService } from '../operation';
import { StoreOrder } from './store';
import { guestOrUser } from './store-shop';

const op = cloudService('store', '/store');

/** How a buyer pays; every method goes through the configured payment provider. */
export const StorePaymentMethod = Type.Enum(['card', 'ideal', 'bancontact', 'paypal', 'sepa_debit']);

/** A payment's life at its provider: created, then waiting for the buyer, then one of the ends. */
export const StorePaymentStatus = Type.Enum(['created', 'requires_action', 'succeeded', 'failed', 'canceled', 'refunded']);

export const StorePayment = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  /** `true` for the cloud's own test provider: no money moves. */
  test: Type.Boolean(),
  status: StorePaymentStatus,
  method: StorePaymentMethod,
  amount: Type.Integer(),
  currency: Type.String(),
  /** Where the buyer approves the payment while it `requires_action`. */
  actionUrl: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

/** The checkout choices kept with the cart until the order is made. */
export const StoreCheckout = Type.Object({
  coupon: Type.Union([
    Type.Object({
      code: Type.String(),
      discountPercent: Type.Integer(),
      subscriptionType: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  paymentMethod: StorePaymentMethod,
});

/** The order `createOrder` made; a guest's also says which account it made for them. */
export const StoreOrderMade = Type.Object(
  {
    ...StoreOrder.properties,
    account: Type.Optional(
      Type.Object({
        email: Type.String(),
        /**
         * `true` when the guest gave no password: the address was mailed a link that sets one. Otherwise it was
         * mailed a link that verifies it, as after sign-up.
         */
        passwordLinkMailed: Type.Boolean(),
      }),
    ),
  },
  { additionalProperties: true },
);

const CouponCode = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$' });

/** Checkout: the coupon and payment method, the order made from the cart, and paying it. */
export const storeOrderOperations = {
  setCoupon: op({
    name: 'setCoupon',
    ...guestOrUser,
    method: 'PUT',
    path: '/coupon',
    scope: null,
    body: Type.Object({ code: Type.Union([CouponCode, Type.Null()]) }, { additionalProperties: false }),
    response: StoreCheckout,
    errors: ['missing_token', 'invalid_token', 'invalid_parameter', 'not_found', 'gone', 'conflict'],
    summary:
      'Applies a coupon to the checkout (`null` takes it off). It must exist, not have expired or run out, be unused by the caller and, when for new customers only, the caller must have no paid order.',
  }),
  setPayment: op({
    name: 'setPayment',
    ...guestOrUser,
    method: 'PUT',
    path: '/payment',
    scope: null,
    body: Type.Object({ method: StorePaymentMethod }, { additionalProperties: false }),
    response: StoreCheckout,
    errors: ['missing_token', 'invalid_token', 'invalid_parameter'],
    summary: 'Chooses how the order will be paid (card, iDEAL, Bancontact, PayPal or SEPA direct debit).',
  }),
  createOrder: op({
    name: 'createOrder',
    ...guestOrUser,
    method: 'POST',
    path: '/order',
    scope: null,
    body: Type.Optional(Type.Object({}, { additionalProperties: false })),
    response: StoreOrderMade,
    successStatus: 201,
    errors: [
      'missing_token',
      'invalid_token',
      'missing_parameter',
      'invalid_parameter',
      'conflict',
      'account_exists',
      'gone',
      'rate_limited',
    ],
    summary:
      'Makes an order of the cart: the server prices every line from the catalogue, applies the coupon and the VAT of the destination (reverse charge for a qualifying business), reserves the stock and empties the cart. Totals are never taken from the client. A guest’s order makes their account (`create_account`), in the same transaction. An address that has an account already answers the same: the order goes into that account, which is otherwise left as it is, and its owner is mailed, so checkout never tells whether an address has an account (a guest who knows they have one signs in first, then `claimGuestCart`). `account_exists` only when another sign-up takes the address at the same moment; then nothing is made.',
  }),
} as const;

/** Paying an order through the payment provider. */
export const storePaymentOperations = {
  payOrder: op({
    name: 'payOrder',
    ...guestOrUser,
    method: 'POST',
    path: '/order/pay',
    scope: null,
    body: Type.Object(
      {
        orderId: Type.String({ minLength: 1, maxLength: 64 }),
        /** Sent again with a retried request, it returns the same payment. */
        idempotencyKey: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' })),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ order: StoreOrder, payment: StorePayment }),
    errors: ['missing_token', 'invalid_token', 'not_found', 'conflict'],
    summary:
      'Starts paying an order (or answers the payment already under way): the buyer approves it at `actionUrl`, and the provider’s signed webhook marks the order paid. Repeating it never charges twice. A guest pays the order their cart made with the same cart token.',
  }),
} as const;
