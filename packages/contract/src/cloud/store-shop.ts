import { type Static, type TSchema, Type } from 'typebox';
import { cloudService } from '../operation';

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

const cartErrors = ['missing_token', 'invalid_parameter', 'not_found', 'conflict'] as const;

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
    method: 'GET',
    path: '/cart',
    scope: null,
    response: StoreCart,
    errors: ['missing_token'],
    summary: 'The signed-in user’s cart, priced by the server (an empty one at first).',
  }),
  addToCart: op({
    name: 'addToCart',
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
    method: 'DELETE',
    path: '/cart',
    scope: null,
    query: Type.Object({ sku: Type.Optional(Sku) }),
    response: StoreCart,
    errors: ['missing_token', 'not_found'],
    summary: 'Empties the cart, or removes the lines of one product (`sku`).',
  }),
  getLocale: op({
    name: 'getLocale',
    method: 'GET',
    path: '/locale',
    scope: null,
    response: StoreLocale,
    errors: ['missing_token'],
    summary: 'The store locale of the signed-in user: where they buy, in which currency and language.',
  }),
  setLocale: op({
    name: 'setLocale',
    method: 'PUT',
    path: '/locale',
    scope: null,
    body: Type.Partial(StoreLocale, { additionalProperties: false }),
    response: StoreLocale,
    errors: ['missing_token', 'invalid_parameter'],
    summary:
      'Changes the store locale; a new country without a currency takes the country’s. The country must be one the store ships to.',
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
  /** Make an account at checkout: for guests, so refused for a signed-in user. */
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
  eachField((schema) => Type.Union([schema, Type.Null()])),
  { additionalProperties: false },
);

/** The buyer's data (`/store/userdata`, `/store/business`). */
export const storeUserdataOperations = {
  setUserdata: op({
    name: 'setUserdata',
    method: 'PUT',
    path: '/userdata',
    scope: null,
    body: UserdataChange,
    response: StoreUserdata,
    errors: ['missing_token', 'invalid_parameter', 'missing_parameter', 'conflict'],
    summary:
      'Changes the buyer’s data for checkout (billing and shipping address, email, phone, business details, flags); `null` removes a field. Answers all of it. A business buyer needs a business name; a shipping address a country the store ships to.',
  }),
  setBusiness: op({
    name: 'setBusiness',
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
    errors: ['missing_token', 'invalid_parameter'],
    summary: 'Buys as a business: its name, VAT number and the buyer’s reference (sets `is_business`).',
  }),
} as const;
