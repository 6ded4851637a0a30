import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, describeOnDatabases, readJson, startTestCloud } from '../../testing';
import { providerPaymentId, sendWebhook } from './test-helpers';

// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

const ADDRESS = {
  billing_firstname: 'Noor',
  billing_lastname: 'Visser',
  billing_street: 'Dam',
  billing_number: '1',
  billing_zipcode: '1012 JS',
  billing_city: 'Amsterdam',
  billing_country: 'NL',
  email: 'noor@hearth.test',
};

describeOnDatabases('store: orders and payment through the test provider', (backend) => {
  let cloud: Cloud;
  const as = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await call(cloud, method, `/store${path}`, token, body);
    return { status: response.status, body: (await readJson(response).catch(() => null)) as Json };
  };
  const stock = async (sku: string) => (await as(null, 'GET', `/product/${sku}`)).body.stock as number;
  /** A buyer with an address and a cart: a Pro mini and two energy dongles (199.00 + 2 × 49.00). */
  const buyerWithCart = async (email: string) => {
    const token = (await createUser(cloud, email)).token;
    await as(token, 'PUT', '/userdata', ADDRESS);
    await as(token, 'PUT', '/cart', {
      items: [
        { sku: 'hearth-pro-mini', quantity: 1, options: { plug: 'EU' } },
        { sku: 'hearth-energy-dongle', quantity: 2 },
      ],
    });
    return token;
  };
  /** Clicks a button of the test provider's payment page, as the browser's form does. */
  const click = async (actionUrl: string, button: 'approve' | 'decline') => {
    const path = new URL(actionUrl).pathname;
    const response = await fetch(`${cloud.url}${path}/${button}`, { method: 'POST' });
    return { status: response.status, text: await response.text() };
  };
  const webhook = (event: unknown, key?: Buffer, time?: number) => sendWebhook(cloud, event, key, time);
  const orderOf = async (token: string, id: string) => (await as(token, 'GET', `/user/order/${id}`)).body;

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    await cloud.context.database.db
      .insertInto('store_coupons')
      .values([
        { code: 'WELCOME10', discount_percent: 10, max_redeems: 100 },
        { code: 'EXPIRED', discount_percent: 50, expires_at: new Date(Date.now() - 1000) },
      ])
      .execute();
  });
  afterAll(() => cloud.stop());

  it('makes an order of the cart, priced by the server, and refuses what checkout lacks', async () => {
    const buyer = (await createUser(cloud, 'order-missing@hearth.test')).token;
    expect((await as(null, 'POST', '/order', {})).status).toBe(401);
    expect((await as(buyer, 'POST', '/order', {})).body.error).toBe('conflict'); // an empty cart
    await as(buyer, 'POST', '/cart', { sku: 'hearth-pro-mini', quantity: 1, options: { plug: 'EU' } });
    const noAddress = await as(buyer, 'POST', '/order', {});
    expect(noAddress.status).toBe(400);
    expect(noAddress.body).toMatchObject({
      error: 'missing_parameter',
      error_description: expect.stringContaining('billing_firstname'),
    });
    // Totals are the server's: a client's total is not even accepted.
    expect((await as(buyer, 'POST', '/order', { total: 1 })).status).toBe(400);
    expect((await as(buyer, 'GET', '/cart')).body.itemCount).toBe(1);
    expect((await as(buyer, 'GET', '/user/order')).body).toEqual([]);
    expect((await as(buyer, 'PUT', '/payment', { method: 'bitcoin' })).status).toBe(400);
    expect((await as(buyer, 'PUT', '/payment', { method: 'ideal' })).body).toEqual({ coupon: null, paymentMethod: 'ideal' });
  });

  it('pays through the test provider: one payment however often pay is called, the signed webhook marks it paid', async () => {
    const buyer = await buyerWithCart('order-pay@hearth.test');
    const [miniBefore, dongleBefore] = [await stock('hearth-pro-mini'), await stock('hearth-energy-dongle')];
    const created = await as(buyer, 'POST', '/order', {});
    expect(created.status).toBe(201);
    const order = created.body;
    expect(order).toMatchObject({ status: 'pending_payment', currency: 'EUR', subtotal: 29_700, discount: 0, total: 29_700 });
    expect(order.number).toMatch(/^2\d{5}$/);
    // 297.00 with 21 % VAT in it.
    expect(order).toMatchObject({ vat: 5_155, net: 24_545, vatRate: 21, reverseCharge: false, paidAt: null });
    expect(order.shippingAddress).toMatchObject({ city: 'Amsterdam', country: 'NL' });
    expect(await stock('hearth-pro-mini')).toBe(miniBefore - 1);
    expect(await stock('hearth-energy-dongle')).toBe(dongleBefore - 2);
    expect((await as(buyer, 'GET', '/cart')).body.items).toEqual([]);
    expect((await as(buyer, 'POST', '/order', {})).status).toBe(409);

    const pays = await Promise.all(Array.from({ length: 5 }, () => as(buyer, 'POST', '/order/pay', { orderId: order.id })));
    expect(pays.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    const payment = pays[0]?.body.payment;
    expect(payment).toMatchObject({
      provider: 'hearth-test',
      test: true,
      status: 'requires_action',
      amount: 29_700,
      currency: 'EUR',
    });
    expect(new Set(pays.map((p) => p.body.payment.id)).size).toBe(1);
    const rows = await cloud.context.database.db
      .selectFrom('store_test_payments')
      .selectAll()
      .where('amount', '=', 29_700)
      .execute();
    expect(rows).toHaveLength(1);

    const page = await fetch(payment.actionUrl.replace('http://hearth-cloud.test', cloud.url));
    const html = await page.text();
    expect(html).toContain('Test payment provider');
    expect(html).toContain('€297.00');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const approved = await click(payment.actionUrl, 'approve');
    expect(approved.text).toContain('Payment approved');
    const paid = await orderOf(buyer, order.id);
    expect(paid).toMatchObject({ status: 'paid', total: 29_700 });
    expect(paid.paidAt).not.toBeNull();
    // Clicking again, paying again: nothing moves.
    expect((await click(payment.actionUrl, 'approve')).text).toContain('This payment was approved');
    const again = await as(buyer, 'POST', '/order/pay', { orderId: order.id });
    expect(again.body.payment).toMatchObject({ id: payment.id, status: 'succeeded', actionUrl: null });
    expect((await as(buyer, 'GET', '/user/order')).body.map((o: Json) => o.status)).toEqual(['paid']);
  });

  it('answers 404 for a payment page whose id is not one, NUL bytes included', async () => {
    for (const id of ['%00', 'tp_%00', 'nothing-here']) {
      expect((await fetch(`${cloud.url}/store/test-payment/${id}`)).status).toBe(404);
      expect((await fetch(`${cloud.url}/store/test-payment/${id}/approve`, { method: 'POST' })).status).toBe(404);
    }
  });

  it('takes a redelivered webhook once, and refuses forged, stale and wrong ones', async () => {
    const buyer = await buyerWithCart('order-webhook@hearth.test');
    const order = (await as(buyer, 'POST', '/order', {})).body;
    const { payment } = (await as(buyer, 'POST', '/order/pay', { orderId: order.id })).body;
    const providerId = await providerPaymentId(cloud, payment.id);
    const event = {
      id: 'evt_redelivered',
      type: 'payment.succeeded',
      data: { id: providerId, status: 'succeeded', amount: 29_700, currency: 'EUR' },
    };
    expect((await webhook(event, Buffer.from('not-the-secret'))).status).toBe(401);
    expect((await webhook(event, undefined, Math.floor(Date.now() / 1000) - 3600)).status).toBe(401);
    const cheaper = { ...event, id: 'evt_cheaper', data: { ...event.data, amount: 1 } };
    expect((await webhook(cheaper)).status).toBe(400);
    expect((await orderOf(buyer, order.id)).status).toBe('pending_payment');

    const deliveries = await Promise.all([webhook(event), webhook(event), webhook(event)]);
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    expect(deliveries.map((d) => d.body.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    const paidAt = (await orderOf(buyer, order.id)).paidAt;
    // Another event for the same payment after it succeeded (a late failure) changes nothing.
    const late = await webhook({ ...event, id: 'evt_late', data: { ...event.data, status: 'failed' } });
    expect(late.body.outcome).toBe('ignored');
    expect(await orderOf(buyer, order.id)).toMatchObject({ status: 'paid', paidAt });
    const refund = await webhook({ ...event, id: 'evt_refund', data: { ...event.data, status: 'refunded' } });
    expect(refund.body.outcome).toBe('applied');
    expect((await orderOf(buyer, order.id)).status).toBe('refunded');
  });

  it('pays again after a declined payment, and a canceled order gives its stock and coupon back', async () => {
    const buyer = await buyerWithCart('order-decline@hearth.test');
    const order = (await as(buyer, 'POST', '/order', {})).body;
    const first = (await as(buyer, 'POST', '/order/pay', { orderId: order.id })).body.payment;
    expect((await click(first.actionUrl, 'decline')).text).toContain('Payment declined');
    expect((await orderOf(buyer, order.id)).status).toBe('payment_failed');
    const second = (await as(buyer, 'POST', '/order/pay', { orderId: order.number })).body.payment;
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe('requires_action');
    await click(second.actionUrl, 'approve');
    expect((await orderOf(buyer, order.id)).status).toBe('paid');

    const other = await buyerWithCart('order-cancel@hearth.test');
    expect((await as(other, 'PUT', '/coupon', { code: 'nope-code' })).status).toBe(404);
    expect((await as(other, 'PUT', '/coupon', { code: 'expired' })).status).toBe(410);
    expect((await as(other, 'PUT', '/coupon', { code: 'welcome10' })).body.coupon).toEqual({
      code: 'WELCOME10',
      discountPercent: 10,
      subscriptionType: null,
    });
    const mini = await stock('hearth-pro-mini');
    const discounted = (await as(other, 'POST', '/order', {})).body;
    expect(discounted).toMatchObject({ subtotal: 29_700, discount: 2_970, total: 26_730, couponCode: 'WELCOME10' });
    const redeems = async () =>
      (
        await cloud.context.database.db
          .selectFrom('store_coupons')
          .select('redeems')
          .where('code', '=', 'WELCOME10')
          .executeTakeFirstOrThrow()
      ).redeems;
    expect(await redeems()).toBe(1);
    const { payment } = (await as(other, 'POST', '/order/pay', { orderId: discounted.id })).body;
    expect(payment.amount).toBe(26_730);
    const providerId = await providerPaymentId(cloud, payment.id);
    await webhook({ id: 'evt_cancel', data: { id: providerId, status: 'canceled', amount: 26_730, currency: 'EUR' } });
    expect((await orderOf(other, discounted.id)).status).toBe('canceled');
    expect(await stock('hearth-pro-mini')).toBe(mini);
    expect(await redeems()).toBe(0);
    expect((await as(other, 'POST', '/order/pay', { orderId: discounted.id })).status).toBe(409);
  });

  it('charges a business buyer of another EU country without VAT (reverse charge)', async () => {
    const buyer = (await createUser(cloud, 'order-business@hearth.test')).token;
    await as(buyer, 'PUT', '/userdata', { ...ADDRESS, billing_country: 'DE', billing_city: 'Berlin', billing_zipcode: '10117' });
    await as(buyer, 'PUT', '/business', { name: 'Haus GmbH', vat: 'DE136695976' });
    await as(buyer, 'POST', '/cart', { sku: 'homey_premium_12m', quantity: 1 });
    const order = (await as(buyer, 'POST', '/order', {})).body;
    // 49.00 with 19 % in it: 41.18 net, which is all a reverse-charge buyer pays.
    expect(order).toMatchObject({ subtotal: 4_900, total: 4_118, vat: 0, net: 4_118, vatRate: 19, reverseCharge: true });
    expect(order).toMatchObject({ vatNumber: 'DE136695976' });
    expect(order.shippingAddress).toBeUndefined();
  });
});
