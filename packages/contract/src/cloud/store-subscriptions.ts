import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('store', '/store');

/** A subscription as the store answers it (the same record `/cloud/user/me` lists under `subscriptions`). */
export const StoreSubscription = Type.Object(
  {
    _id: Type.String(),
    id: Type.String(),
    type: Type.String(),
    status: Type.String(),
    quantity: Type.Integer(),
    startedAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: true },
);

/** A one-time purchase made in an app store and verified here. */
export const StorePurchase = Type.Object({
  transactionId: Type.String(),
  sku: Type.String(),
  packageName: Type.String(),
  homeyId: Type.Union([Type.String(), Type.Null()]),
  purchasedAt: Type.String({ format: 'date-time' }),
});

const Sku = Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]{0,63}$' });
const PackageName = Type.String({ pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)+$', maxLength: 128 });
/** A signed receipt: a compact JWS whose header carries its certificate chain (`x5c`). */
const Receipt = Type.String({ minLength: 16, maxLength: 32_768, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' });
const receiptErrors = ['missing_token', 'invalid_parameter', 'invalid_grant', 'gone', 'conflict'] as const;
/** Store tokens and order ids are printable ASCII. */
const Printable = (maxLength: number) => Type.String({ maxLength, pattern: '^[\\x20-\\x7E]*$' });
const Secret = Type.Object({ secret: Type.String({ minLength: 1, maxLength: 256 }) });

/** App-store subscriptions and purchases: receipts verified, deferred, expired and restored. */
export const storeSubscriptionOperations = {
  verifySubscription: op({
    name: 'verifySubscription',
    method: 'POST',
    path: '/subscription/verify',
    scope: null,
    body: Type.Object(
      { token: Type.Optional(Printable(512)), sku: Sku, packageName: PackageName, receipt: Receipt },
      { additionalProperties: false },
    ),
    response: StoreSubscription,
    errors: receiptErrors,
    summary:
      'Verifies an app store’s signed subscription receipt (its certificate chain against the configured root, its signature, product and app) and starts or extends the caller’s subscription until it expires. Tampered, expired and replayed receipts are refused.',
  }),
  deferSubscription: op({
    name: 'deferSubscription',
    method: 'POST',
    path: '/subscription/defer',
    scope: null,
    private: true,
    body: Type.Object(
      {
        sku: Sku,
        packageName: Type.Optional(PackageName),
        athomId: Type.String({ minLength: 1, maxLength: 64 }),
        quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 36 })),
        duration: Type.String({ pattern: '^P([1-9][0-9]?)(D|W|M|Y)$' }),
      },
      { additionalProperties: false },
    ),
    response: StoreSubscription,
    errors: ['invalid_parameter', 'not_found'],
    summary: 'Moves a user’s subscription’s end later by `quantity` times `duration` (internal: support’s goodwill).',
  }),
  getExpiredSubscriptions: op({
    name: 'getExpiredSubscriptions',
    method: 'POST',
    path: '/subscription/expired',
    scope: null,
    auth: false,
    query: Secret,
    body: Type.Object(
      { users: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000 })) },
      { additionalProperties: false },
    ),
    response: Type.Array(Type.Object({ userId: Type.String(), subscription: StoreSubscription })),
    errors: ['forbidden'],
    summary:
      'Ends the subscriptions whose time is up (of the users given, or all) and lists them. For the platform’s services: the store secret (`HEARTH_STORE_SECRET`) as `secret` instead of a token.',
  }),
  restoreSubscriptions: op({
    name: 'restoreSubscriptions',
    method: 'GET',
    path: '/subscription/restore',
    scope: null,
    response: Type.Object({ subscriptions: Type.Array(StoreSubscription), purchases: Type.Array(StorePurchase) }),
    errors: ['missing_token'],
    summary: 'The caller’s active subscriptions and one-time purchases, for an app restoring what was bought.',
  }),
  verifyOneTimePurchase: op({
    name: 'verifyOneTimePurchase',
    method: 'POST',
    path: '/one-time-purchase/verify',
    scope: null,
    body: Type.Object(
      {
        homeyId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        token: Type.Optional(Printable(512)),
        sku: Sku,
        packageName: PackageName,
        receipt: Receipt,
        orderId: Type.Optional(Printable(128)),
      },
      { additionalProperties: false },
    ),
    response: StorePurchase,
    errors: [...receiptErrors, 'not_found'],
    summary: 'Verifies an app store’s signed one-time purchase receipt and records it for the caller (and their hub).',
  }),
} as const;
