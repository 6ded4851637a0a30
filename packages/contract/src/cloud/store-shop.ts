import { type Static, type TSchema, Type } from 'typebox';
import { cloudService } from '../operation';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../provider';

const op = cloudService('store', '/store');

/** The currencies the store prices in; amounts are integer cents of the currency. */
export const StoreCurrency = Type.Enum(['EUR', 'USD', 'GBP']);
export type StoreCurrencyValue = Static<typeof StoreCurrency>;

export const StoreProductKind = Type.Enum(['hub', 'addon', 'subscription']);

/** Limits of the cart, enforced by the server. */
export const CART_LIMITS = {
  /** Of one product in one cart line. */
  maxQuantity: 10,
  /** Lines in one cart. */
  maxLines: 20,
} as const;

const Sku = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' });
/** A product's options chosen for a cart line, e.g. `{ plug: 'EU' }`. */
const Options = Type.Record(Type.String({ maxLength: 32 }), Type.String({ maxLength: 32 }), { maxProperties: 8 });

export const StoreProduct = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  sku: Type.String(),
  kind: StoreProductKind,
  name: Type.String(),
  description: Type.String(),
  /** The price in the currency asked for (the store locale's when signed in, else `currency` or EUR), VAT included. */
  price: Type.Object({ amount: Type.Integer(), currency: StoreCurrency }),
  /** Every currency's price in cents, VAT included. */
  prices: Type.Record(Type.String(), Type.Integer()),
  /** Items in stock; `null` for what is never out of stock (subscriptions). */
  stock: Type.Union([Type.Integer(), Type.Null()]),
  available: Type.Boolean(),
  /** The choices a cart line of the product must make, with the values each allows. */
  options: Type.Array(Type.Object({ id: Type.String(), values: Type.Array(Type.String()) })),
  /** What a subscription is for and how long one period lasts (`P1M`, `P1Y`); `null` for goods. */
  subscription: Type.Union([Type.Object({ type: Type.String(), duration: Type.String() }), Type.Null()]),
});
export type StoreProductBody = Static<typeof StoreProduct>;

export const StoreLocale = Type.Object({
  /** ISO 3166-1 alpha-2 country the store ships to and charges VAT for. */
  country: Type.String({ pattern: '^[A-Z]{2}$' }),
  currency: StoreCurrency,
  language: Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' }),
});
export type StoreLocaleBody = Static<typeof StoreLocale>;

/** One line of the cart as the client sends it. */
export const CartItemInput = Type.Object(
  {
    sku: Sku,
    quantity: Type.Integer({ minimum: 1, maximum: CART_LIMITS.maxQuantity }),
    options: Type.Optional(Options),
  },
  { additionalProperties: false },
);

/** The cart with its lines priced by the server from the catalogue, in the locale's currency. */
export const StoreCart = Type.Object({
  items: Type.Array(
    Type.Object({
      sku: Type.String(),
      name: Type.String(),
      kind: StoreProductKind,
      quantity: Type.Integer(),
      options: Type.Record(Type.String(), Type.String()),
      /** One item's price in cents, VAT included. */
      unitPrice: Type.Integer(),
      total: Type.Integer(),
    }),
  ),
  locale: StoreLocale,
  currency: StoreCurrency,
  /** Sum of the lines in cents, VAT included, before coupons and shipping. */
  subtotal: Type.Integer(),
  itemCount: Type.Integer(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type StoreCartBody = Static<typeof StoreCart>;

const cartErrors = ['missing_token', 'invalid_token', 'invalid_parameter', 'not_found', 'conflict'] as const;

/**
 * The header a guest's calls carry their cart's token in (`createGuestCart`): a guest has no account, so no Bearer
 * token. A header rather than a cookie: the browser adds no header by itself, so no other site can act on the cart.
 */
export const STORE_CART_HEADER = 'x-hearth-cart';
/** How long a guest's cart lives after it was opened. */
export const GUEST_CART_LIFETIME_DAYS = 30;

/**
 * What the calls a guest may make declare: no session is required, because the caller is either signed in (a
 * Bearer token) or a guest (their cart's token in {@link STORE_CART_HEADER}); one of the two is.
 */
export const guestOrUser = {
  auth: false,
  description: `Signed in (a Bearer token), or as a guest with the guest cart's token in the \`${STORE_CART_HEADER}\` header (\`createGuestCart\`); without either it answers 401 \`missing_token\`, and a Bearer token that is no longer valid is refused with \`invalid_token\` rather than taken for a guest.`,
} as const;

export const GuestCart = Type.Object({
  /** Shown once: the cloud keeps only its hash. Guests send it in the `x-hearth-cart` header. */
  token: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

/** The shop's catalogue, the signed-in user's cart and store locale (`/store/product`, `/store/cart`, `/store/locale`). */
export const storeShopOperations = {
  getProducts: op({
    name: 'getProducts',
    method: 'GET',
    path: '/product',
    scope: null,
    auth: false,
    query: Type.Object({ kind: Type.Optional(StoreProductKind), currency: Type.Optional(StoreCurrency) }),
    response: Type.Array(StoreProduct),
    summary: 'The catalogue: hubs, add-ons and subscriptions, with prices per currency and stock. Anyone may read it.',
  }),
  getProduct: op({
    name: 'getProduct',
    method: 'GET',
    path: '/product/:productId',
    scope: null,
    auth: false,
    params: Type.Object({ productId: Sku }),
    query: Type.Object({ currency: Type.Optional(StoreCurrency) }),
    response: StoreProduct,
    errors: ['not_found'],
    summary: 'One product of the catalogue, by id (its sku).',
  }),
  getCart: op({
    name: 'getCart',
    ...guestOrUser,
    method: 'GET',
    path: '/cart',
    scope: null,
    response: StoreCart,
    errors: ['missing_token', 'invalid_token'],
    summary: 'The caller’s cart (a signed-in user’s or a guest’s), priced by the server (an empty one at first).',
  }),
  addToCart: op({
    name: 'addToCart',
    ...guestOrUser,
    method: 'POST',
    path: '/cart',
    scope: null,
    body: CartItemInput,
    response: StoreCart,
    errors: cartErrors,
    summary:
      'Adds a product to the cart (to its line when one with the same options is there). The product must exist, be in stock for the line’s quantity and get a value for each of its options.',
  }),
  setCart: op({
    name: 'setCart',
    ...guestOrUser,
    method: 'PUT',
    path: '/cart',
    scope: null,
    body: Type.Object({ items: Type.Array(CartItemInput, { maxItems: CART_LIMITS.maxLines }) }, { additionalProperties: false }),
    response: StoreCart,
    errors: cartErrors,
    summary: 'Replaces the cart’s lines, each checked as `addToCart` checks one; nothing changes when one is refused.',
  }),
  deleteCart: op({
    name: 'deleteCart',
    ...guestOrUser,
    method: 'DELETE',
    path: '/cart',
    scope: null,
    query: Type.Object({ sku: Type.Optional(Sku) }),
    response: StoreCart,
    errors: ['missing_token', 'invalid_token', 'not_found'],
    summary: 'Empties the cart, or removes the lines of one product (`sku`).',
  }),
  getLocale: op({
    name: 'getLocale',
    ...guestOrUser,
    method: 'GET',
    path: '/locale',
    scope: null,
    response: StoreLocale,
    errors: ['missing_token', 'invalid_token'],
    summary: 'The caller’s store locale: where they buy, in which currency and language.',
  }),
  setLocale: op({
    name: 'setLocale',
    ...guestOrUser,
    method: 'PUT',
    path: '/locale',
    scope: null,
    body: Type.Partial(StoreLocale, { additionalProperties: false }),
    response: StoreLocale,
    errors: ['missing_token', 'invalid_token', 'invalid_parameter'],
    summary:
      'Changes the store locale; a new country without a currency takes the country’s. The country must be one the store ships to.',
  }),
  createGuestCart: op({
    name: 'createGuestCart',
    method: 'POST',
    path: '/cart/guest',
    scope: null,
    auth: false,
    body: Type.Optional(Type.Object({}, { additionalProperties: false })),
    response: GuestCart,
    successStatus: 201,
    errors: ['rate_limited'],
    summary: `Opens a cart for a guest, who has no account: answers its token, which the guest's calls carry in the \`${STORE_CART_HEADER}\` header.`,
    description: `Needs no session: it is how a guest starts. The token is answered once and kept only as a hash; the cart lives ${GUEST_CART_LIFETIME_DAYS} days. At checkout the guest makes an account (\`create_account\` with \`email\` in \`PUT /store/userdata\`, with a \`password\`, or without one to be mailed a link that sets it), or signs in and brings the cart along (\`claimGuestCart\`). Limited per network.`,
  }),
  claimGuestCart: op({
    name: 'claimGuestCart',
    method: 'POST',
    path: '/cart/guest/claim',
    scope: null,
    body: Type.Object({ token: Type.String({ minLength: 16, maxLength: 200 }) }, { additionalProperties: false }),
    response: StoreCart,
    errors: ['missing_token', 'not_found', 'invalid_parameter', 'conflict'],
    summary:
      'Brings a guest’s cart into the signed-in user’s (after signing in at checkout): its lines join theirs, checked as `setCart` checks them, its buyer’s data fills what theirs lacks, its coupon applies when theirs has none, and the guest cart is closed.',
    description:
      'Needs no scope: it acts on the caller’s own cart, with a guest cart whose token the caller holds (an unknown or expired one is 404).',
  }),
} as const;

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Country = Type.String({ pattern: '^[A-Z]{2}$' });

/** One address's fields, named `<prefix>_<field>` on the wire (`billing_city`, `shipping_zipcode`, …). */
const addressFields = (prefix: 'billing' | 'shipping') => ({
  [`${prefix}_firstname`]: Text(100),
  [`${prefix}_lastname`]: Text(100),
  [`${prefix}_street`]: Text(200),
  [`${prefix}_number`]: Text(20),
  [`${prefix}_zipcode`]: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$' }),
  [`${prefix}_city`]: Text(100),
  [`${prefix}_state`]: Text(100),
  [`${prefix}_country`]: Country,
  [`${prefix}_address_extra`]: Text(200),
});

const userdataFields: Record<string, TSchema> = {
  ...addressFields('billing'),
  ...addressFields('shipping'),
  email: Type.String({ format: 'email', maxLength: 254 }),
  phone: Type.String({ pattern: '^\\+?[0-9][0-9 ()-]{5,19}$' }),
  gender: Type.Enum(['female', 'male', 'other']),
  business_name: Text(100),
  /** The VAT number as written (country prefix and number); `GET /store/vat` checks it. */
  business_vat: Type.String({ pattern: '^[A-Z]{2}[0-9A-Z+*.]{2,13}$' }),
  business_reference: Text(100),
  /** Ship to the shipping address rather than the billing one. */
  shipping_address: Type.Boolean(),
  /** Make an account at checkout with `email` (and `password`): for guests, so refused for a signed-in user. */
  create_account: Type.Boolean(),
  newsletter: Type.Boolean(),
  is_business: Type.Boolean(),
};
const eachField = (wrap: (schema: TSchema) => TSchema) =>
  Object.fromEntries(Object.entries(userdataFields).map(([key, schema]) => [key, Type.Optional(wrap(schema))]));

/** The buyer's data for checkout, as far as they filled it in (`billing_*`, `shipping_*`, contact, business, flags). */
export const StoreUserdata = Type.Object(
  eachField((schema) => schema),
  { additionalProperties: false },
);
export type StoreUserdataBody = Record<string, string | boolean>;

/** A change of the buyer's data: a field set to `null` is removed. */
const UserdataChange = Type.Object(
  {
    ...eachField((schema) => Type.Union([schema, Type.Null()])),
    /**
     * The password of the account a guest makes at checkout (`create_account`): checked as sign-up checks one, kept
     * only as a hash until the order makes the account, never answered. Without one the new account's address is
     * mailed a link to choose it.
     */
    password: Type.Optional(
      Type.Union([Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);

/** The buyer's data (`/store/userdata`, `/store/business`). */
export const storeUserdataOperations = {
  setUserdata: op({
    name: 'setUserdata',
    ...guestOrUser,
    method: 'PUT',
    path: '/userdata',
    scope: null,
    body: UserdataChange,
    response: StoreUserdata,
    errors: ['missing_token', 'invalid_token', 'invalid_parameter', 'missing_parameter', 'conflict'],
    summary:
      'Changes the buyer’s data for checkout (billing and shipping address, email, phone, business details, flags); `null` removes a field. Answers all of it. A business buyer needs a business name; a shipping address a country the store ships to.',
  }),
  setBusiness: op({
    name: 'setBusiness',
    ...guestOrUser,
    method: 'PUT',
    path: '/business',
    scope: null,
    body: Type.Object(
      {
        name: Text(100),
        vat: Type.Optional(Type.String({ pattern: '^[A-Z]{2}[0-9A-Z+*.]{2,13}$' })),
        reference: Type.Optional(Text(100)),
      },
      { additionalProperties: false },
    ),
    response: StoreUserdata,
    errors: ['missing_token', 'invalid_token', 'invalid_parameter'],
    summary: 'Buys as a business: its name, VAT number and the buyer’s reference (sets `is_business`).',
  }),
} as const;
