import { randomBytes } from 'node:crypto';
import { HearthError, storeOrderOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { requireUser } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { type CouponRow, couponKey, redeemCoupon, usableCoupon } from './coupons';
import { orderRecord } from './records';
import { cartRow } from './shop';
import type { CartLine } from './tables';
import { destinationCountry, vatSituation } from './taxes';
import { offlineVatRegistry, splitVat, type VatNumberRegistry } from './vat';

type CartRowValue = Awaited<ReturnType<typeof cartRow>>;

const checkoutOf = (row: CartRowValue, coupon: CouponRow | null) => ({
  coupon: coupon
    ? { code: coupon.code, discountPercent: coupon.discount_percent, subscriptionType: coupon.subscription_type }
    : null,
  paymentMethod: row.payment_method as 'card',
});

const ADDRESS_FIELDS = ['firstname', 'lastname', 'street', 'number', 'zipcode', 'city', 'country'] as const;

/** What checkout needs of the buyer: a billing name and country, and a full address where goods are sent. */
function requiredAddress(data: Record<string, string | boolean>, shipsGoods: boolean): Record<string, string> {
  for (const field of ['billing_firstname', 'billing_lastname', 'billing_country'])
    if (typeof data[field] !== 'string') throw new HearthError('missing_parameter', `Missing Parameter: ${field}`);
  if (!shipsGoods) return {};
  const prefix = data.shipping_address === true ? 'shipping' : 'billing';
  const address: Record<string, string> = {};
  for (const field of ADDRESS_FIELDS) {
    const value = data[`${prefix}_${field}`];
    if (typeof value !== 'string') throw new HearthError('missing_parameter', `Missing Parameter: ${prefix}_${field}`);
    address[field] = value;
  }
  return address;
}

/**
 * Reserves the stock of the order's goods: each line takes its items only while enough are there, so two orders
 * for the last item cannot both have it.
 */
async function reserveStock(trx: Kysely<CloudSchema>, lines: CartLine[]): Promise<void> {
  const perSku = new Map<string, number>();
  for (const line of lines) perSku.set(line.sku, (perSku.get(line.sku) ?? 0) + line.quantity);
  // In sku order, so concurrent orders lock the products in one order and never wait on each other in a circle.
  for (const [sku, quantity] of [...perSku].sort(([a], [b]) => a.localeCompare(b))) {
    const taken = await trx
      .updateTable('store_products')
      .set((eb) => ({ stock: eb('stock', '-', quantity) }))
      .where('sku', '=', sku)
      .where('stock', 'is not', null)
      .where('stock', '>=', quantity)
      .returning('sku')
      .executeTakeFirst();
    if (taken) continue;
    const product = await trx.selectFrom('store_products').select(['name', 'stock']).where('sku', '=', sku).executeTakeFirst();
    if (product && product.stock !== null)
      throw new HearthError('conflict', `Only ${product.stock} of ${product.name} are in stock`);
  }
}

/** Puts back what an order reserved (it was canceled before it was paid). */
export async function releaseStock(trx: Kysely<CloudSchema>, items: { sku: string; quantity: number }[]): Promise<void> {
  for (const item of items)
    await trx
      .updateTable('store_products')
      .set((eb) => ({ stock: eb('stock', '+', item.quantity) }))
      .where('sku', '=', item.sku)
      .where('stock', 'is not', null)
      .execute();
}

/** Checkout (`/store/coupon`, `/store/payment`, `POST /store/order`): the order is made from the cart by the server. */
export function orderImplementations(context: CloudContext, registry: VatNumberRegistry = offlineVatRegistry) {
  const { db } = context.database;
  const couponOf = async (row: CartRowValue) =>
    row.coupon_code
      ? ((await db.selectFrom('store_coupons').selectAll().where('code', '=', row.coupon_code).executeTakeFirst()) ?? null)
      : null;

  return implement<typeof storeOrderOperations, CloudPrincipal>(storeOrderOperations, {
    setCoupon: async ({ body, principal }) => {
      const userId = requireUser(principal);
      const coupon = body.code === null ? null : await usableCoupon(db, body.code, userId);
      await cartRow(db, userId);
      const row = await db
        .updateTable('store_carts')
        .set({ coupon_code: coupon ? couponKey(coupon.code) : null, updated_at: new Date() })
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return checkoutOf(row, coupon);
    },

    setPayment: async ({ body, principal }) => {
      const userId = requireUser(principal);
      await cartRow(db, userId);
      const row = await db
        .updateTable('store_carts')
        .set({ payment_method: body.method, updated_at: new Date() })
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return checkoutOf(row, await couponOf(row));
    },

    createOrder: async ({ principal }) => {
      const userId = requireUser(principal);
      const order = await db.transaction().execute(async (trx) => {
        // The cart's lock makes a second order of the same cart wait, then find it empty.
        const row = await cartRow(trx, userId, true);
        const lines = row.items as CartLine[];
        if (lines.length === 0) throw new HearthError('conflict', 'The cart is empty');
        const products = new Map(
          (
            await trx
              .selectFrom('store_products')
              .selectAll()
              .where(
                'sku',
                'in',
                lines.map((line) => line.sku),
              )
              .execute()
          ).map((p) => [p.sku, p]),
        );
        const items = lines.map((line) => {
          const product = products.get(line.sku);
          if (!product) throw new HearthError('gone', `${line.sku} is no longer sold: take it out of the cart`);
          const price = (product.prices as Record<string, number>)[row.currency] as number;
          return { sku: line.sku, name: product.name, kind: product.kind, quantity: line.quantity, price, options: line.options };
        });
        const goods = items.some((item) => item.kind !== 'subscription');
        const address = requiredAddress(row.userdata, goods);
        const vat = await vatSituation(row, registry, destinationCountry(row));
        await reserveStock(trx, lines);

        const id = randomBytes(12).toString('hex');
        const subtotal = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
        const coupon = row.coupon_code ? await usableCoupon(trx, row.coupon_code, userId) : null;
        const discount = coupon ? Math.round((subtotal * coupon.discount_percent) / 100) : 0;
        const amounts = splitVat(subtotal - discount, vat.rate.basisPoints, vat.reverseCharge);
        const inserted = await trx
          .insertInto('orders')
          .values({
            id,
            user_id: userId,
            number: `pending-${id}`,
            status: 'pending_payment',
            currency: row.currency,
            total: amounts.gross,
            subtotal,
            discount,
            vat: amounts.vat,
            vat_rate: vat.rate.basisPoints,
            reverse_charge: vat.reverseCharge,
            vat_number: vat.check?.number ?? null,
            coupon_code: coupon?.code ?? null,
            payment_method: row.payment_method,
            items: JSON.stringify(items),
            shipping_address: JSON.stringify(goods ? address : null),
            userdata: JSON.stringify(row.userdata),
            created_at: new Date(),
            updated_at: new Date(),
          })
          .returning('seq')
          .executeTakeFirstOrThrow();
        if (coupon) await redeemCoupon(trx, coupon.code, userId, id);
        await trx
          .updateTable('store_carts')
          .set({ items: '[]', coupon_code: null, updated_at: new Date() })
          .where('user_id', '=', userId)
          .execute();
        return trx
          .updateTable('orders')
          .set({ number: String(200_000 + inserted.seq) })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return orderRecord(order);
    },
  });
}
