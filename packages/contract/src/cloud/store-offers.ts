import { Type } from 'typebox';
import { cloudService } from '../operation';
import { StoreSubscription } from './store-subscriptions';

const op = cloudService('store', '/store');

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Duration = Type.String({ pattern: '^P([1-9][0-9]?)(D|W|M|Y)$' });
const SubscriptionType = Type.Enum(['homey_plus', 'homey_premium', 'homey_developer']);
const CouponCode = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$' });
const Secret = Type.Object({ secret: Type.String({ minLength: 1, maxLength: 256 }) });
const When = Type.String({ format: 'date-time' });
/** What an offer or coupon gives: a subscription of a type for `quantity` × `duration`. */
const Grant = {
  subscriptionType: SubscriptionType,
  subscriptionQuantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 36 })),
  subscriptionDuration: Duration,
};

export const StoreOffer = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  userId: Type.String(),
  campaignId: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([When, Type.Null()]),
  subscriptionType: Type.String(),
  subscriptionQuantity: Type.Integer(),
  subscriptionDuration: Type.String(),
  redeemedAt: Type.Union([When, Type.Null()]),
});

export const StoreCoupon = Type.Object({
  couponCode: Type.String(),
  campaignId: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([When, Type.Null()]),
  maxRedeems: Type.Union([Type.Integer(), Type.Null()]),
  redeems: Type.Integer(),
  newCustomersOnly: Type.Boolean(),
  discountPercent: Type.Integer(),
  subscriptionType: Type.Union([Type.String(), Type.Null()]),
  subscriptionQuantity: Type.Union([Type.Integer(), Type.Null()]),
  subscriptionDuration: Type.Union([Type.String(), Type.Null()]),
});

const Redeemed = Type.Object({ subscription: StoreSubscription });
const secretErrors = ['invalid_parameter', 'forbidden', 'conflict'] as const;
const secretNote = 'For the platform’s services: the store secret (`HEARTH_STORE_SECRET`) as `secret` instead of a token.';

/** Offers made to one user, coupons anyone may redeem, and refer-a-friend. */
export const storeOfferOperations = {
  getOffers: op({
    name: 'getOffers',
    method: 'GET',
    path: '/offer',
    scope: null,
    response: Type.Array(StoreOffer),
    errors: ['missing_token'],
    summary: 'The offers made to the signed-in user, newest first, redeemed or not.',
  }),
  getOffer: op({
    name: 'getOffer',
    method: 'GET',
    path: '/offer/:offerId',
    scope: null,
    params: Type.Object({ offerId: Id }),
    response: StoreOffer,
    errors: ['missing_token', 'not_found'],
    summary: 'One offer made to the signed-in user (another user’s is not found).',
  }),
  redeemReferAFriend: op({
    name: 'redeemReferAFriend',
    method: 'POST',
    path: '/offer/refer_a_friend',
    scope: null,
    body: Type.Object(
      { inviterId: Id, paymentProvider: Type.Optional(Type.String({ maxLength: 32 })) },
      { additionalProperties: false },
    ),
    response: Redeemed,
    errors: ['missing_token', 'invalid_parameter', 'not_found', 'conflict'],
    summary:
      'A new customer invited by a friend gets a month of Premium, and the friend who invited them a month too: once per new customer, never for inviting oneself.',
  }),
  redeemOffer: op({
    name: 'redeemOffer',
    method: 'POST',
    path: '/offer/:offerId/redeem',
    scope: null,
    params: Type.Object({ offerId: Id }),
    body: Type.Optional(
      Type.Object({ paymentProvider: Type.Optional(Type.String({ maxLength: 32 })) }, { additionalProperties: false }),
    ),
    response: Redeemed,
    errors: ['missing_token', 'not_found', 'gone', 'conflict'],
    summary: 'Redeems one of the caller’s offers once, before it expires: its subscription starts or is extended.',
  }),
  createOfferCouponApple: op({
    name: 'createOfferCouponApple',
    method: 'POST',
    path: '/offer/coupon_apple',
    scope: null,
    auth: false,
    query: Secret,
    body: Type.Object(
      { coupon: CouponCode, expiresAt: Type.Optional(When), newCustomersOnly: Type.Optional(Type.Boolean()), ...Grant },
      { additionalProperties: false },
    ),
    response: StoreCoupon,
    successStatus: 201,
    errors: secretErrors,
    summary: `Registers an App Store offer code as a coupon of the store, redeemable once per user. ${secretNote}`,
  }),
  createOffer: op({
    name: 'createOffer',
    method: 'POST',
    path: '/offer',
    scope: null,
    auth: false,
    query: Secret,
    body: Type.Object(
      { userId: Id, expiresAt: Type.Optional(When), campaignId: Type.Optional(Type.String({ maxLength: 64 })), ...Grant },
      { additionalProperties: false },
    ),
    response: StoreOffer,
    successStatus: 201,
    errors: [...secretErrors, 'not_found'],
    summary: `Makes an offer to one user (a subscription for a time, until it expires). ${secretNote}`,
  }),
  createCoupon: op({
    name: 'createCoupon',
    method: 'POST',
    path: '/coupon',
    scope: null,
    auth: false,
    query: Secret,
    body: Type.Object(
      {
        couponCode: CouponCode,
        expiresAt: Type.Optional(When),
        campaignId: Type.Optional(Type.String({ maxLength: 64 })),
        maxRedeems: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
        newCustomersOnly: Type.Optional(Type.Boolean()),
        /** A discount at checkout (`PUT /store/coupon`), in percent. */
        discountPercent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        subscriptionType: Type.Optional(SubscriptionType),
        subscriptionQuantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 36 })),
        subscriptionDuration: Type.Optional(Duration),
      },
      { additionalProperties: false },
    ),
    response: StoreCoupon,
    successStatus: 201,
    errors: secretErrors,
    summary: `Creates a coupon: a subscription to redeem, a discount at checkout, or both; at most \`maxRedeems\` times. ${secretNote}`,
  }),
  redeemCoupon: op({
    name: 'redeemCoupon',
    method: 'POST',
    path: '/coupon/:couponCode/redeem',
    scope: null,
    params: Type.Object({ couponCode: CouponCode }),
    body: Type.Optional(Type.Object({}, { additionalProperties: false })),
    response: Redeemed,
    errors: ['missing_token', 'not_found', 'gone', 'conflict'],
    summary:
      'Redeems a coupon’s subscription for the caller: once per user, while it has redemptions left and has not expired, and only for new customers when it says so.',
  }),
} as const;
