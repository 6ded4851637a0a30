import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, describeOnDatabases, readJson, signIn, startTestCloud } from '../../testing';

// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

describeOnDatabases('store: catalogue, cart and locale', (backend) => {
  let cloud: Cloud;
  let demo: string;
  const as = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await call(cloud, method, `/store${path}`, token, body);
    return { status: response.status, body: (await readJson(response).catch(() => null)) as Json };
  };
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    demo = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  it('shows the catalogue to anyone: hubs, add-ons and subscriptions, priced per currency, with stock', async () => {
    const all = await as(null, 'GET', '/product');
    expect(all.status).toBe(200);
    expect(all.body.map((p: Json) => p.sku)).toEqual([
      'hearth-pro-2023',
      'hearth-pro-mini',
      'hearth-cloud',
      'hearth-bridge',
      'hearth-energy-dongle',
      'hearth-ethernet-adapter',
      'homey_plus_1m',
      'homey_plus_12m',
      'homey_premium_1m',
      'homey_premium_12m',
      'homey_developer_12m',
    ]);
    expect(all.body[0]).toMatchObject({
      name: 'Hearth Pro (Early 2023)',
      kind: 'hub',
      price: { amount: 39_900, currency: 'EUR' },
      prices: { EUR: 39_900, USD: 42_900, GBP: 34_900 },
      stock: 250,
      available: true,
      options: [{ id: 'plug', values: ['EU', 'UK', 'US'] }],
      subscription: null,
    });
    const subscriptions = await as(null, 'GET', '/product?kind=subscription&currency=GBP');
    expect(subscriptions.body).toHaveLength(5);
    expect(subscriptions.body[1]).toMatchObject({
      sku: 'homey_plus_12m',
      price: { amount: 2_500, currency: 'GBP' },
      stock: null,
      subscription: { type: 'homey_plus', duration: 'P1Y' },
    });
    expect((await as(null, 'GET', '/product/hearth-bridge?currency=USD')).body.price).toEqual({ amount: 7_500, currency: 'USD' });
    expect((await as(null, 'GET', '/product/hearth-toaster')).status).toBe(404);
    expect((await as(null, 'GET', '/product?currency=JPY')).status).toBe(400);
  });

  it('keeps a cart per user, priced by the server, merging lines and checking options and stock', async () => {
    const shopper = (await createUser(cloud, 'cart@hearth.test')).token;
    expect((await as(null, 'GET', '/cart')).status).toBe(401);
    const empty = await as(shopper, 'GET', '/cart');
    expect(empty.body).toMatchObject({ items: [], subtotal: 0, itemCount: 0, currency: 'EUR' });
    expect(empty.body.locale).toEqual({ country: 'NL', currency: 'EUR', language: 'en' });

    await as(shopper, 'POST', '/cart', { sku: 'hearth-pro-2023', quantity: 1, options: { plug: 'EU' } });
    await as(shopper, 'POST', '/cart', { sku: 'hearth-energy-dongle', quantity: 2 });
    const merged = await as(shopper, 'POST', '/cart', { sku: 'hearth-pro-2023', quantity: 1, options: { plug: 'EU' } });
    expect(merged.status).toBe(200);
    expect(merged.body.items).toEqual([
      {
        sku: 'hearth-pro-2023',
        name: 'Hearth Pro (Early 2023)',
        kind: 'hub',
        quantity: 2,
        options: { plug: 'EU' },
        unitPrice: 39_900,
        total: 79_800,
      },
      {
        sku: 'hearth-energy-dongle',
        name: 'Hearth Energy Dongle',
        kind: 'addon',
        quantity: 2,
        options: {},
        unitPrice: 4_900,
        total: 9_800,
      },
    ]);
    expect(merged.body).toMatchObject({ subtotal: 89_600, itemCount: 4 });
    // Another plug is another line.
    const uk = await as(shopper, 'POST', '/cart', { sku: 'hearth-pro-2023', quantity: 1, options: { plug: 'UK' } });
    expect(uk.body.items).toHaveLength(3);

    // Refused lines change nothing.
    const refusals: [unknown, number, string][] = [
      [{ sku: 'hearth-pro-2023', quantity: 1 }, 400, 'invalid_parameter'],
      [{ sku: 'hearth-pro-2023', quantity: 1, options: { plug: 'AU' } }, 400, 'invalid_parameter'],
      [{ sku: 'hearth-energy-dongle', quantity: 1, options: { colour: 'red' } }, 400, 'invalid_parameter'],
      [{ sku: 'hearth-toaster', quantity: 1 }, 404, 'not_found'],
      [{ sku: 'hearth-energy-dongle', quantity: 0 }, 400, 'invalid_parameter'],
      [{ sku: 'hearth-energy-dongle', quantity: 11 }, 400, 'invalid_parameter'],
      [{ sku: 'hearth-energy-dongle', quantity: 9 }, 400, 'invalid_parameter'],
      [{ sku: 'hearth-energy-dongle', quantity: 1, price: 1 }, 400, 'invalid_parameter'],
    ];
    for (const [body, status, code] of refusals) {
      const refused = await as(shopper, 'POST', '/cart', body);
      expect([refused.status, refused.body.error], JSON.stringify(body)).toEqual([status, expect.stringMatching(code)]);
    }
    expect((await as(shopper, 'GET', '/cart')).body.subtotal).toBe(89_600 + 39_900);

    // More than in stock: the catalogue's stock of a product is set low for the test.
    await cloud.context.database.db.updateTable('store_products').set({ stock: 2 }).where('sku', '=', 'hearth-bridge').execute();
    expect((await as(shopper, 'POST', '/cart', { sku: 'hearth-bridge', quantity: 2, options: { plug: 'EU' } })).status).toBe(200);
    const tooMany = await as(shopper, 'POST', '/cart', { sku: 'hearth-bridge', quantity: 1, options: { plug: 'UK' } });
    expect([tooMany.status, tooMany.body.error]).toEqual([409, 'conflict']);

    // Replacing the cart, removing a product's lines, emptying it.
    const set = await as(shopper, 'PUT', '/cart', {
      items: [
        { sku: 'homey_premium_12m', quantity: 1 },
        { sku: 'hearth-cloud', quantity: 1 },
      ],
    });
    expect(set.body.items.map((item: Json) => item.sku)).toEqual(['homey_premium_12m', 'hearth-cloud']);
    const badSet = await as(shopper, 'PUT', '/cart', {
      items: [
        { sku: 'hearth-cloud', quantity: 1 },
        { sku: 'nope', quantity: 1 },
      ],
    });
    expect(badSet.status).toBe(404);
    expect((await as(shopper, 'GET', '/cart')).body.items).toHaveLength(2);
    expect((await as(shopper, 'DELETE', '/cart?sku=hearth-cloud')).body.items.map((item: Json) => item.sku)).toEqual([
      'homey_premium_12m',
    ]);
    expect((await as(shopper, 'DELETE', '/cart?sku=hearth-cloud')).status).toBe(404);
    expect((await as(shopper, 'DELETE', '/cart')).body).toMatchObject({ items: [], subtotal: 0 });

    // Nobody sees another's cart.
    expect((await as(demo, 'GET', '/cart')).body.items).toEqual([]);
  });

  it('prices the cart in the locale’s currency; a country brings its currency', async () => {
    const shopper = (await createUser(cloud, 'locale@hearth.test')).token;
    await as(shopper, 'POST', '/cart', { sku: 'hearth-pro-mini', quantity: 1, options: { plug: 'UK' } });
    const gb = await as(shopper, 'PUT', '/locale', { country: 'GB', language: 'en' });
    expect(gb.body).toEqual({ country: 'GB', currency: 'GBP', language: 'en' });
    expect((await as(shopper, 'GET', '/cart')).body).toMatchObject({ currency: 'GBP', subtotal: 17_900 });
    expect((await as(shopper, 'PUT', '/locale', { currency: 'USD' })).body.currency).toBe('USD');
    expect((await as(shopper, 'GET', '/locale')).body).toEqual({ country: 'GB', currency: 'USD', language: 'en' });
    // The catalogue, read signed in, is in the user's currency.
    expect((await as(shopper, 'GET', '/product/hearth-pro-mini')).body.price).toEqual({ amount: 21_900, currency: 'USD' });
    for (const body of [{ country: 'XX' }, { country: 'nl' }, { currency: 'JPY' }, { language: 'English' }, { vat: 1 }]) {
      expect((await as(shopper, 'PUT', '/locale', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await as(shopper, 'GET', '/locale')).body).toEqual({ country: 'GB', currency: 'USD', language: 'en' });
    expect((await as(null, 'PUT', '/locale', { country: 'NL' })).status).toBe(401);
  });
  it('keeps the buyer’s data for checkout, checked field by field and as a whole', async () => {
    const shopper = (await createUser(cloud, 'buyer@hearth.test')).token;
    const billing = {
      billing_firstname: 'Ada',
      billing_lastname: 'Buyer',
      billing_street: 'Keizersgracht',
      billing_number: '12a',
      billing_zipcode: '1015 CX',
      billing_city: 'Amsterdam',
      billing_country: 'NL',
      email: 'ada@example.com',
      phone: '+31 20 123 4567',
      gender: 'female',
      newsletter: true,
    };
    const set = await as(shopper, 'PUT', '/userdata', billing);
    expect(set.status).toBe(200);
    expect(set.body).toEqual(billing);
    // A change merges; null removes a field.
    const shipping = { shipping_address: true, shipping_city: 'London', shipping_country: 'GB', newsletter: null };
    const merged = await as(shopper, 'PUT', '/userdata', shipping);
    expect(merged.body).toMatchObject({ billing_city: 'Amsterdam', shipping_city: 'London', shipping_address: true });
    expect(merged.body.newsletter).toBeUndefined();

    const before = merged.body;
    const refusals: [unknown, number, string][] = [
      [{ email: 'not-an-address' }, 400, 'invalid_parameter'],
      [{ billing_country: 'XX' }, 400, 'invalid_parameter'],
      [{ shipping_country: 'JP' }, 400, 'invalid_parameter'],
      [{ phone: 'call me' }, 400, 'invalid_parameter'],
      [{ gender: 'robot' }, 400, 'invalid_parameter'],
      [{ billing_street: '' }, 400, 'invalid_parameter'],
      [{ is_business: true }, 400, 'missing_parameter'],
      // Both are a guest's, for the account checkout makes: a signed-in buyer has theirs.
      [{ create_account: true }, 409, 'conflict'],
      [{ password: 'secret-secret' }, 409, 'conflict'],
    ];
    for (const [body, status, code] of refusals) {
      const refused = await as(shopper, 'PUT', '/userdata', body);
      expect([refused.status, refused.body.error], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await as(shopper, 'PUT', '/userdata', {})).body).toEqual(before);

    const business = await as(shopper, 'PUT', '/business', { name: 'Buyer BV', vat: 'NL123456789B01', reference: 'PO-7' });
    expect(business.body).toMatchObject({
      is_business: true,
      business_name: 'Buyer BV',
      business_vat: 'NL123456789B01',
      business_reference: 'PO-7',
      billing_city: 'Amsterdam',
    });
    expect((await as(shopper, 'PUT', '/business', { name: 'Buyer BV', vat: 'nl-123' })).status).toBe(400);
    expect((await as(shopper, 'PUT', '/userdata', { business_name: null })).status).toBe(400);
    expect((await as(null, 'PUT', '/userdata', billing)).status).toBe(401);
    // Each user's own.
    expect((await as(demo, 'PUT', '/userdata', {})).body).toEqual({});
  });
});
