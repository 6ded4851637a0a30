import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('store', '/store');

export const OrderLine = Type.Object(
  { sku: Type.String(), name: Type.String(), quantity: Type.Number(), price: Type.Number() },
  { additionalProperties: true },
);

/** An order of the signed-in user. Amounts are in cents. */
export const StoreOrder = Type.Object(
  {
    _id: Type.String(),
    id: Type.String(),
    number: Type.String(),
    date: Type.String({ format: 'date-time' }),
    status: Type.String(),
    currency: Type.String(),
    total: Type.Number(),
    items: Type.Array(OrderLine),
    shippingAddress: Type.Optional(Type.Record(Type.String(), Type.String())),
    // The sums of an order made at checkout, in cents (older imported orders have only their total).
    subtotal: Type.Optional(Type.Integer()),
    discount: Type.Optional(Type.Integer()),
    /** The VAT in the total; 0 under reverse charge. */
    vat: Type.Optional(Type.Integer()),
    /** The total without VAT. */
    net: Type.Optional(Type.Integer()),
    /** The VAT rate applied, in percent. */
    vatRate: Type.Optional(Type.Number()),
    reverseCharge: Type.Optional(Type.Boolean()),
    vatNumber: Type.Optional(Type.String()),
    couponCode: Type.Optional(Type.String()),
    paymentMethod: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    paidAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  },
  { additionalProperties: true },
);

export const storeOperations = {
  getOrders: op({
    name: 'getOrders',
    method: 'GET',
    path: '/user/order',
    scope: null,
    response: Type.Array(StoreOrder),
    summary: 'The signed-in user’s orders, newest first.',
  }),
  getOrder: op({
    name: 'getOrder',
    summary: 'One order of the signed-in account, with its items and number.',
    method: 'GET',
    path: '/user/order/:orderId',
    scope: null,
    params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: StoreOrder,
  }),
  createStoreSession: op({
    name: 'createStoreSession',
    method: 'POST',
    path: '/user/session',
    scope: null,
    body: Type.Optional(Type.Object({}, { additionalProperties: true })),
    response: Type.Object({ token: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
    summary: 'Opens a store web session for the signed-in user (its token is stored only as a hash).',
  }),
  deleteStoreSession: op({
    name: 'deleteStoreSession',
    method: 'DELETE',
    path: '/user/session',
    scope: null,
    body: Type.Optional(Type.Object({ token: Type.Optional(Type.String()) })),
    summary: 'Ends the user’s store web sessions (the one given, or all of them).',
  }),
  createLoginToken: op({
    name: 'createLoginToken',
    method: 'POST',
    path: '/user/login-token',
    scope: null,
    body: Type.Optional(Type.Object({}, { additionalProperties: true })),
    response: Type.Object({ token: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
    summary:
      'A one-time login token (valid 5 minutes) that a page exchanges at `/cloud/oauth2/token` with grant type `urn:hearth:params:oauth:grant-type:login-token`.',
  }),
  logout: op({
    name: 'logout',
    method: 'POST',
    path: '/user/logout',
    scope: null,
    body: Type.Optional(Type.Object({}, { additionalProperties: true })),
    summary: 'Revokes the calling session (its access and refresh tokens) and the user’s store sessions.',
  }),
} as const;
