import { randomBytes } from 'node:crypto';
import { HearthError, storeOrderOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { newId, newSecret } from '../../platform/tokens';
import { sendNotice, sendVerification } from '../cloud/account/mail';
import { countAccountCreation, isUniqueViolation } from '../cloud/account/signup';
import { hashPassword, normaliseEmail } from '../cloud/accounts';
import { mailNewAccountPasswordLink } from '../cloud/password-reset';
import { buyerOf } from './buyer';
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

/** The account a guest's order goes to, and how its address learns of it. */
interface CheckoutAccount {
  id: string;
  email: string;
  firstname: string;
  passwordGiven: boolean;
  /** The address had an account already: the order went to it, and its owner is told so. */
  existing: boolean;
}

/**
 * The account of a guest who asked for one at checkout (`create_account`), in the order's transaction: a new one
 * with the password they chose (kept hashed with the cart) or, without one, a password nobody knows until the mailed
 * link sets it. An address that has an account already gets the order in that account, which is otherwise left as
 * it is (its password, its cart), and its owner is mailed: the answer is the same as for a new address, so checkout
 * never tells anyone whether an address has an account, and nobody gets into an account that is not theirs.
 * Counted as a sign-up is.
 */
async function accountAtCheckout(
  context: CloudContext,
  trx: Kysely<CloudSchema>,
  row: CartRowValue,
  request: FastifyRequest,
): Promise<CheckoutAccount> {
  const data = row.userdata;
  if (data.create_account !== true)
    throw new HearthError(
      'missing_parameter',
      'Missing Parameter: create_account (a guest signs in, or makes an account at checkout with their e-mail address)',
    );
  if (typeof data.email !== 'string') throw new HearthError('missing_parameter', 'Missing Parameter: email (of the account)');
  const email = normaliseEmail(data.email);
  await countAccountCreation(context, request, email);
  const passwordGiven = row.account_password_hash !== null;
  // Hashed either way, so an address with an account answers as slowly as a new one.
  const passwordHash = row.account_password_hash ?? (await hashPassword(newSecret()));
  const owner = await trx.selectFrom('users').select(['id', 'firstname']).where('email', '=', email).executeTakeFirst();
  if (owner) return { id: owner.id, email, firstname: owner.firstname, passwordGiven, existing: true };
  const id = newId();
  const firstname = String(data.billing_firstname ?? '');
  try {
    await trx
      .insertInto('users')
      .values({
        id,
        email,
        password_hash: passwordHash,
        firstname,
        lastname: String(data.billing_lastname ?? ''),
        language: row.language.slice(0, 2),
        role_ids: '[]',
        // Verified once its owner opens the mailed link, as after sign-up.
        email_verified_at: null,
        updated_at: new Date(context.clock.now()),
      })
      .execute();
  } catch (error) {
    // Another sign-up or checkout took the address in these same milliseconds; the transaction is rolled back.
    if (isUniqueViolation(error))
      throw new HearthError('account_exists', `${email} has an account: sign in to order with it (your cart comes along)`);
    throw error;
  }
  if (data.newsletter === true)
    await trx
      .insertInto('mailing_list_members')
      .values({ list_id: 'newsletter', user_id: id, tags: '[]', updated_at: new Date(context.clock.now()) })
      .execute();
  return { id, email, firstname, passwordGiven, existing: false };
}

/** Tells the owner of an address that has an account that a guest's order with it went into their account. */
async function mailOrderToExistingAccount(context: CloudContext, account: CheckoutAccount, number: string): Promise<void> {
  await sendNotice(context, account.email, account.firstname, 'An order was added to your Hearth account', [
    `Order ${number} was placed at the Hearth store with this address, as a guest. This address already has an`,
    'account, so the order is in it. The account itself did not change: a password typed at checkout was not used.',
    '',
    `If it was you, sign in at ${context.config.publicUrl}/ with your own password to see and pay it (or reset`,
    `your password at ${context.config.publicUrl}/cloud/password-forgotten).`,
    '',
    'If it was not you, you do not have to do anything: nothing is charged to you, and an order stays unpaid until',
    'whoever placed it pays it.',
  ]);
}

/** Checkout (`/store/coupon`, `/store/payment`, `POST /store/order`): the order is made from the cart by the server. */
export function orderImplementations(context: CloudContext, registry: VatNumberRegistry = offlineVatRegistry) {
  const { db } = context.database;
  const couponOf = async (row: CartRowValue) =>
    row.coupon_code
      ? ((await db.selectFrom('store_coupons').selectAll().where('code', '=', row.coupon_code).executeTakeFirst()) ?? null)
      : null;

  return implement<typeof storeOrderOperations, CloudPrincipal>(storeOrderOperations, {
    setCoupon: async ({ body, principal, request }) => {
      const buyer = buyerOf(request, principal);
      const { id } = await cartRow(db, buyer, new Date(context.clock.now()));
      const coupon =
        body.code === null
          ? null
          : await usableCoupon(db, body.code, buyer.kind === 'user' ? buyer.userId : null, new Date(context.clock.now()));
      const row = await db
        .updateTable('store_carts')
        .set({ coupon_code: coupon ? couponKey(coupon.code) : null, updated_at: new Date(context.clock.now()) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return checkoutOf(row, coupon);
    },

    setPayment: async ({ body, principal, request }) => {
      const { id } = await cartRow(db, buyerOf(request, principal), new Date(context.clock.now()));
      const row = await db
        .updateTable('store_carts')
        .set({ payment_method: body.method, updated_at: new Date(context.clock.now()) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return checkoutOf(row, await couponOf(row));
    },

    createOrder: async ({ principal, request }) => {
      const buyer = buyerOf(request, principal);
      const { order, account } = await db.transaction().execute(async (trx) => {
        // The cart's lock makes a second order of the same cart wait, then find it empty.
        const row = await cartRow(trx, buyer, new Date(context.clock.now()), true);
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
        // A guest's order is their account's, made here when new: refused, it leaves nothing behind.
        let account: CheckoutAccount | null = null;
        let userId: string;
        if (buyer.kind === 'user') userId = buyer.userId;
        else {
          account = await accountAtCheckout(context, trx, row, request);
          userId = account.id;
        }
        await reserveStock(trx, lines);

        const id = randomBytes(12).toString('hex');
        const subtotal = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
        const coupon = row.coupon_code ? await usableCoupon(trx, row.coupon_code, userId, new Date(context.clock.now())) : null;
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
            guest_token_hash: buyer.kind === 'guest' ? buyer.tokenHash : null,
            created_at: new Date(context.clock.now()),
            updated_at: new Date(context.clock.now()),
          })
          .returning('seq')
          .executeTakeFirstOrThrow();
        if (coupon) await redeemCoupon(trx, coupon.code, userId, new Date(context.clock.now()), id);
        // The cart is emptied; a guest's becomes their account's (its locale and addresses with it) and its token
        // stops opening it: the token now only pays this order, and the account is reached by signing in.
        // An account that existed keeps its own cart and data: the guest's cart is gone, its token closed as well.
        const { create_account: _, ...userdata } = row.userdata;
        if (account?.existing) await trx.deleteFrom('store_carts').where('id', '=', row.id).execute();
        else
          await trx
            .updateTable('store_carts')
            .set({
              items: '[]',
              coupon_code: null,
              updated_at: new Date(context.clock.now()),
              ...(account
                ? {
                    user_id: userId,
                    guest_token_hash: null,
                    guest_expires_at: null,
                    account_password_hash: null,
                    userdata: JSON.stringify(userdata),
                  }
                : {}),
            })
            .where('id', '=', row.id)
            .execute();
        const order = await trx
          .updateTable('orders')
          .set({ number: String(200_000 + inserted.seq) })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { order, account };
      });
      // Mailed once the order and account are stored: a refused checkout mails nothing.
      if (!account) return orderRecord(order);
      if (account.existing) await mailOrderToExistingAccount(context, account, order.number);
      else if (account.passwordGiven) await sendVerification(context, account, account.email, 'sign-up');
      else await mailNewAccountPasswordLink(context, account);
      return { ...orderRecord(order), account: { email: account.email, passwordLinkMailed: !account.passwordGiven } };
    },
  });
}
