import {
  CART_LIMITS,
  GUEST_CART_LIFETIME_DAYS,
  HearthError,
  invalidParameter,
  notFound,
  type StoreCartBody,
  type StoreCurrencyValue,
  type StoreLocaleBody,
  type StoreProductBody,
  storeShopOperations,
} from '@hearth/contract';
import { addressKey, implement, type RatePolicy } from '@hearth/contract/fastify';
import type { Kysely, Selectable } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { hashSecret, newId, newSecret } from '../../platform/tokens';
import { type Buyer, buyerOf } from './buyer';
import { CATALOGUE, DEFAULT_LOCALE, SHIPPING_COUNTRIES } from './catalogue';
import type { CartLine, StoreCartsTable, StoreProductsTable } from './tables';

const shopOps = storeShopOperations;

/** Guest carts opened from one network: plenty for a household's browsers, not for filling the table. */
const GUEST_CARTS_PER_NETWORK: RatePolicy = { name: 'store-guest-cart', quota: 30, windowSeconds: 3600 };

type ProductRow = Selectable<StoreProductsTable>;
type CartRow = Selectable<StoreCartsTable>;

function toProduct(row: ProductRow, currency: StoreCurrencyValue): StoreProductBody {
  const prices = row.prices as Record<string, number>;
  return {
    _id: row.sku,
    id: row.sku,
    sku: row.sku,
    kind: row.kind as StoreProductBody['kind'],
    name: row.name,
    description: row.description,
    price: { amount: prices[currency] as number, currency },
    prices,
    stock: row.stock,
    available: row.stock === null || row.stock > 0,
    options: row.options as StoreProductBody['options'],
    subscription: row.subscription as StoreProductBody['subscription'],
  };
}

const localeOf = (row: CartRow): StoreLocaleBody => ({
  country: row.country,
  currency: row.currency as StoreCurrencyValue,
  language: row.language,
});

/** The same options, whatever order they were given in. */
const sameOptions = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * Checks cart lines against the catalogue: the product exists, each of its options has an allowed value (and no
 * other is given), and the stock covers what the cart holds of it. Lines of one product with the same options merge.
 */
function checkedLines(lines: CartLine[], products: Map<string, ProductRow>): CartLine[] {
  const merged: CartLine[] = [];
  for (const line of lines) {
    const product = products.get(line.sku);
    if (!product) throw notFound('Product', line.sku);
    const allowed = product.options as { id: string; values: string[] }[];
    const options = line.options ?? {};
    for (const option of allowed)
      if (!option.values.includes(options[option.id] ?? ''))
        throw invalidParameter(`options.${option.id}`, `${product.name} needs one of ${option.values.join(', ')}`);
    for (const id of Object.keys(options))
      if (!allowed.some((option) => option.id === id))
        throw invalidParameter(`options.${id}`, `${product.name} has no such option`);
    const same = merged.find((other) => other.sku === line.sku && sameOptions(other.options, options));
    if (same) same.quantity += line.quantity;
    else merged.push({ sku: line.sku, quantity: line.quantity, options });
  }
  if (merged.length > CART_LIMITS.maxLines) throw invalidParameter('items', `A cart holds at most ${CART_LIMITS.maxLines} lines`);
  const perProduct = new Map<string, number>();
  for (const line of merged) {
    if (line.quantity > CART_LIMITS.maxQuantity)
      throw invalidParameter('quantity', `At most ${CART_LIMITS.maxQuantity} of one product in a line`);
    perProduct.set(line.sku, (perProduct.get(line.sku) ?? 0) + line.quantity);
  }
  for (const [sku, quantity] of perProduct) {
    const { stock, name } = products.get(sku) as ProductRow;
    if (stock !== null && quantity > stock) throw new HearthError('conflict', `Only ${stock} of ${name} are in stock`);
  }
  return merged;
}

/**
 * The buyer's cart row (their locale, cart lines and buyer's data): a user's is made with the default locale on
 * first use; a guest's exists from `createGuestCart` until it expires or checkout gives it an account.
 */
export async function cartRow(trx: Kysely<CloudSchema>, buyer: Buyer, now: Date, lock = false): Promise<CartRow> {
  if (buyer.kind === 'user') {
    await trx
      .insertInto('store_carts')
      .values({ id: buyer.userId, user_id: buyer.userId, ...DEFAULT_LOCALE, items: '[]', updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const query = trx.selectFrom('store_carts').selectAll().where('user_id', '=', buyer.userId);
    return (lock ? query.forUpdate() : query).executeTakeFirstOrThrow();
  }
  const query = trx
    .selectFrom('store_carts')
    .selectAll()
    .where('guest_token_hash', '=', buyer.tokenHash)
    .where('user_id', 'is', null)
    .where('guest_expires_at', '>', now);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new HearthError('invalid_token', 'This guest cart is unknown or has expired: open a new one');
  return row;
}

/** Opens a guest's cart: answers its token once (only its hash is kept). */
async function openGuestCart(db: Kysely<CloudSchema>, now: Date) {
  const token = newSecret();
  const expiresAt = new Date(now.getTime() + GUEST_CART_LIFETIME_DAYS * 24 * 3600 * 1000);
  await db
    .insertInto('store_carts')
    .values({
      id: `g_${newId()}`,
      user_id: null,
      guest_token_hash: hashSecret(token),
      guest_expires_at: expiresAt,
      ...DEFAULT_LOCALE,
      items: '[]',
      updated_at: now,
    })
    .execute();
  return { token, expiresAt: expiresAt.toISOString() };
}

/** Removes guests' carts that expired (swept by one node of the cloud). */
export function removeExpiredGuestCarts(db: Kysely<CloudSchema>, now: Date) {
  return db.deleteFrom('store_carts').where('user_id', 'is', null).where('guest_expires_at', '<=', now).execute();
}

/** The shop (`/store/product`, `/store/cart`, `/store/locale`): the catalogue, and each user's cart and locale. */
export function shopImplementations(context: CloudContext) {
  const { db } = context.database;
  const productsBySku = async (trx: Kysely<CloudSchema> = db) =>
    new Map((await trx.selectFrom('store_products').selectAll().execute()).map((row) => [row.sku, row]));

  /** The cart as the wire shows it: every line priced from the catalogue in the locale's currency. */
  const priced = async (row: CartRow, trx: Kysely<CloudSchema> = db): Promise<StoreCartBody> => {
    const products = await productsBySku(trx);
    const currency = row.currency as StoreCurrencyValue;
    const items = (row.items as CartLine[]).flatMap((line) => {
      const product = products.get(line.sku);
      if (!product) return [];
      const unitPrice = (product.prices as Record<string, number>)[currency] as number;
      return [
        {
          sku: line.sku,
          name: product.name,
          kind: product.kind as StoreCartBody['items'][number]['kind'],
          quantity: line.quantity,
          options: line.options,
          unitPrice,
          total: unitPrice * line.quantity,
        },
      ];
    });
    return {
      items,
      locale: localeOf(row),
      currency,
      subtotal: items.reduce((sum, item) => sum + item.total, 0),
      itemCount: items.reduce((sum, item) => sum + item.quantity, 0),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  };

  /** Changes the buyer's cart lines in one transaction, the row locked: two calls at once both count. */
  const changeLines = (buyer: Buyer, change: (lines: CartLine[]) => CartLine[]) =>
    db.transaction().execute(async (trx) => {
      const row = await cartRow(trx, buyer, new Date(context.clock.now()), true);
      const lines = checkedLines(change(row.items as CartLine[]), await productsBySku(trx));
      const updated = await trx
        .updateTable('store_carts')
        .set({ items: JSON.stringify(lines), updated_at: new Date(context.clock.now()) })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return priced(updated, trx);
    });

  /** The currency to price the catalogue in: the one asked for, else a signed-in user's, else EUR. */
  const currencyFor = async (asked: StoreCurrencyValue | undefined, principal: CloudPrincipal | null) => {
    if (asked) return asked;
    if (!principal?.userId) return 'EUR' as const;
    const row = await db.selectFrom('store_carts').select('currency').where('user_id', '=', principal.userId).executeTakeFirst();
    return (row?.currency ?? 'EUR') as StoreCurrencyValue;
  };

  return implement<typeof shopOps, CloudPrincipal>(shopOps, {
    getProducts: async ({ query, principal }) => {
      const currency = await currencyFor(query.currency, principal);
      let rows = db.selectFrom('store_products').selectAll();
      if (query.kind) rows = rows.where('kind', '=', query.kind);
      const order = new Map(CATALOGUE.map((product, index) => [product.sku, index]));
      return (await rows.execute())
        .sort((a, b) => (order.get(a.sku) ?? 0) - (order.get(b.sku) ?? 0))
        .map((row) => toProduct(row, currency));
    },
    getProduct: async ({ params, query, principal }) => {
      const row = await db.selectFrom('store_products').selectAll().where('sku', '=', params.productId).executeTakeFirst();
      if (!row) throw notFound('Product', params.productId);
      return toProduct(row, await currencyFor(query.currency, principal));
    },
    getCart: async ({ principal, request }) =>
      priced(await cartRow(db, buyerOf(request, principal), new Date(context.clock.now()))),
    addToCart: ({ body, principal, request }) =>
      changeLines(buyerOf(request, principal), (lines) => [
        ...lines,
        { sku: body.sku, quantity: body.quantity, options: body.options ?? {} },
      ]),
    setCart: ({ body, principal, request }) =>
      changeLines(buyerOf(request, principal), () =>
        body.items.map((item) => ({ sku: item.sku, quantity: item.quantity, options: item.options ?? {} })),
      ),
    deleteCart: ({ query, principal, request }) =>
      changeLines(buyerOf(request, principal), (lines) => {
        if (query.sku === undefined) return [];
        if (!lines.some((line) => line.sku === query.sku)) throw notFound('Cart line', query.sku);
        return lines.filter((line) => line.sku !== query.sku);
      }),
    getLocale: async ({ principal, request }) =>
      localeOf(await cartRow(db, buyerOf(request, principal), new Date(context.clock.now()))),
    setLocale: async ({ body, principal, request }) => {
      const buyer = buyerOf(request, principal);
      if (body.country !== undefined && !(body.country in SHIPPING_COUNTRIES))
        throw invalidParameter('country', `The store does not ship to ${body.country}`);
      const row = await cartRow(db, buyer, new Date(context.clock.now()));
      const change = {
        ...(body.country !== undefined ? { country: body.country, currency: SHIPPING_COUNTRIES[body.country] } : {}),
        ...(body.currency !== undefined ? { currency: body.currency } : {}),
        ...(body.language !== undefined ? { language: body.language } : {}),
      };
      if (Object.keys(change).length === 0) return localeOf(row);
      const updated = await db
        .updateTable('store_carts')
        .set({ ...change, updated_at: new Date(context.clock.now()) })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return localeOf(updated);
    },
    createGuestCart: async ({ request }) => {
      await context.rateLimiter.count(request, GUEST_CARTS_PER_NETWORK, addressKey(request.ip));
      return openGuestCart(db, new Date(context.clock.now()));
    },
    claimGuestCart: async ({ body, principal }) => {
      const userId = requireUser(principal);
      return db.transaction().execute(async (trx) => {
        const mine = await cartRow(trx, { kind: 'user', userId }, new Date(context.clock.now()), true);
        const guest = await trx
          .selectFrom('store_carts')
          .selectAll()
          .where('guest_token_hash', '=', hashSecret(body.token))
          .where('user_id', 'is', null)
          .where('guest_expires_at', '>', new Date(context.clock.now()))
          .forUpdate()
          .executeTakeFirst();
        if (!guest) throw notFound('Guest cart', 'with this token');
        const lines = checkedLines([...(mine.items as CartLine[]), ...(guest.items as CartLine[])], await productsBySku(trx));
        // The account's own data stands; the guest's fills what it lacks. An account is made by no claimed cart.
        const { create_account: _, ...guestData } = guest.userdata;
        const updated = await trx
          .updateTable('store_carts')
          .set({
            items: JSON.stringify(lines),
            userdata: JSON.stringify({ ...guestData, ...mine.userdata }),
            coupon_code: mine.coupon_code ?? guest.coupon_code,
            updated_at: new Date(context.clock.now()),
          })
          .where('id', '=', mine.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('store_carts').where('id', '=', guest.id).execute();
        return priced(updated, trx);
      });
    },
  });
}

/** Loads the catalogue: products it lacks are added; those there keep their stock (every node may load it). */
export async function loadCatalogue(context: CloudContext): Promise<void> {
  await context.database.db
    .insertInto('store_products')
    .values(
      CATALOGUE.map((product) => ({
        ...product,
        prices: JSON.stringify(product.prices),
        options: JSON.stringify(product.options),
        subscription: JSON.stringify(product.subscription),
      })),
    )
    .onConflict((oc) => oc.column('sku').doNothing())
    .execute();
}
