import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, describeOnDatabases, readJson, startTestCloud } from '../../testing';

// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

/** Two addresses the test gives the embedded zipcode provider: it must answer these and nothing else. */
const ADDRESSES = '# country,zipcode,number,street,city\nNL,1012 JS,1,Dam,Amsterdam\nNL,2511 CV,1A,Lange Voorhout,Den Haag\n';

describeOnDatabases('store: VAT rates and numbers, zipcode lookup', (backend) => {
  let cloud: Cloud;
  const as = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await call(cloud, method, `/store${path}`, token, body);
    return { status: response.status, body: (await readJson(response).catch(() => null)) as Json };
  };
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hearth-zip-')), 'addresses.csv');
    writeFileSync(file, ADDRESSES);
    cloud = await startTestCloud(backend, { store: { zipcodeFile: file } });
  });
  afterAll(() => cloud.stop());

  it('answers the rate of a country from the table, with its source and date', async () => {
    const buyer = (await createUser(cloud, 'vat-rate@hearth.test')).token;
    expect((await as(null, 'GET', '/vat')).status).toBe(401);
    const home = await as(buyer, 'GET', '/vat');
    expect(home.status).toBe(200);
    expect(home.body).toMatchObject({ country: 'NL', eu: true, rate: 21, rateBasisPoints: 2100, reverseCharge: false });
    expect(home.body.source).toMatchObject({ date: '2025-08-01', url: expect.stringContaining('europa.eu') });
    expect((await as(buyer, 'GET', '/vat?country=FI')).body).toMatchObject({ rate: 25.5, rateBasisPoints: 2550 });
    expect((await as(buyer, 'GET', '/vat?country=HU')).body.rate).toBe(27);
    expect((await as(buyer, 'GET', '/vat?country=CH')).body).toMatchObject({ eu: false, rate: 8.1 });
    const unknown = await as(buyer, 'GET', '/vat?country=JP');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_parameter');
    expect((await as(buyer, 'GET', '/vat?country=nl')).status).toBe(400);
  });

  it('checks a VAT number’s format and check digits per country, and says the online check was not made', async () => {
    const buyer = (await createUser(cloud, 'vat-number@hearth.test')).token;
    const german = await as(buyer, 'GET', '/vat?country=DE&number=DE%20136%20695%20976');
    expect(german.status).toBe(200);
    expect(german.body.vatNumber).toMatchObject({ number: 'DE136695976', country: 'DE', formatValid: true, valid: true });
    // The embedded default cannot ask VIES: it says so and never claims the number is registered.
    expect(german.body.vatNumber.online).toMatchObject({ checked: false, valid: null, provider: 'none' });
    expect(german.body.vatNumber.online.reason).toMatch(/No online VAT number register/);
    expect(german.body.reverseCharge).toBe(true);
    // One digit changed: the check digit no longer matches.
    const wrongDigit = await as(buyer, 'GET', '/vat?country=DE&number=DE136695977');
    expect(wrongDigit.body.vatNumber).toMatchObject({ formatValid: true, valid: false });
    expect(wrongDigit.body.reverseCharge).toBe(false);
    const wrongFormat = await as(buyer, 'GET', '/vat?country=DE&number=DE1234');
    expect(wrongFormat.body.vatNumber).toMatchObject({ formatValid: false, valid: false });
    // A Belgian number for a German delivery, and a Dutch number in the seller's own country: no reverse charge.
    const belgian = await as(buyer, 'GET', '/vat?country=DE&number=BE0411905847');
    expect(belgian.body.vatNumber).toMatchObject({ country: 'BE', valid: true });
    expect(belgian.body.reverseCharge).toBe(false);
    const dutch = await as(buyer, 'GET', '/vat?country=NL&number=NL004495445B01');
    expect(dutch.body.vatNumber).toMatchObject({ country: 'NL', valid: true });
    expect(dutch.body.reverseCharge).toBe(false);
    expect((await as(buyer, 'GET', '/vat?number=%3Cscript%3E')).status).toBe(400);
  });

  it('shows the cart with and without VAT, and without it under reverse charge for a business buyer', async () => {
    const buyer = (await createUser(cloud, 'vat-cart@hearth.test')).token;
    await as(buyer, 'POST', '/cart', { sku: 'hearth-pro-2023', quantity: 1, options: { plug: 'EU' } });
    await as(buyer, 'POST', '/cart', { sku: 'hearth-bridge', quantity: 2, options: { plug: 'EU' } });
    const consumer = await as(buyer, 'GET', '/vat');
    // 399.00 + 2 × 69.00 = 537.00 with 21 % VAT in it: 443.80 without.
    expect(consumer.body.cart).toEqual({ currency: 'EUR', gross: 53_700, net: 44_380, vat: 9_320 });
    await as(buyer, 'PUT', '/userdata', {
      billing_firstname: 'Greta',
      billing_country: 'DE',
      billing_city: 'Berlin',
    });
    await as(buyer, 'PUT', '/business', { name: 'Haus GmbH', vat: 'DE136695976' });
    const business = await as(buyer, 'GET', '/vat');
    expect(business.body).toMatchObject({ country: 'DE', rate: 19, reverseCharge: true });
    expect(business.body.cart).toEqual({ currency: 'EUR', gross: 45_126, net: 45_126, vat: 0 });
    // A wrong number on file: German VAT is charged.
    await as(buyer, 'PUT', '/userdata', { business_vat: 'DE136695977' });
    const wrong = await as(buyer, 'GET', '/vat');
    expect(wrong.body).toMatchObject({ reverseCharge: false });
    expect(wrong.body.cart).toEqual({ currency: 'EUR', gross: 53_700, net: 45_126, vat: 8_574 });
  });

  it('looks up zipcode and number only in the data it has, 404 for the rest', async () => {
    const buyer = (await createUser(cloud, 'zipcode@hearth.test')).token;
    expect((await as(null, 'GET', '/util/zipcode?zipcode=1012JS&number=1')).status).toBe(401);
    const dam = await as(buyer, 'GET', '/util/zipcode?zipcode=1012js&number=1');
    expect(dam.status).toBe(200);
    expect(dam.body).toEqual({
      country: 'NL',
      zipcode: '1012 JS',
      number: '1',
      street: 'Dam',
      city: 'Amsterdam',
      provider: 'embedded',
    });
    expect((await as(buyer, 'GET', '/util/zipcode?zipcode=2511%20CV&number=1a')).body.street).toBe('Lange Voorhout');
    // The same zipcode with another number, or a zipcode it has no data for: not found, never a guessed street.
    const otherNumber = await as(buyer, 'GET', '/util/zipcode?zipcode=1012JS&number=3');
    expect(otherNumber.status).toBe(404);
    expect(otherNumber.body.error).toBe('not_found');
    expect((await as(buyer, 'GET', '/util/zipcode?zipcode=9999ZZ&number=1')).status).toBe(404);
    expect((await as(buyer, 'GET', '/util/zipcode?zipcode=1012JS&number=1&country=DE')).status).toBe(404);
    // Both are required, each in its format.
    const missing = await as(buyer, 'GET', '/util/zipcode?zipcode=1012JS');
    expect(missing.status).toBe(400);
    expect((await as(buyer, 'GET', '/util/zipcode?number=1')).status).toBe(400);
    expect((await as(buyer, 'GET', '/util/zipcode?zipcode=1012JS&number=%27%3B--')).status).toBe(400);
  });
});
