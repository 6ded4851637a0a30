import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { CompactSign } from 'jose';
import forge from 'node-forge';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, DEMO_HUBS, describeOnDatabases, internalToken, readJson, signIn, startTestCloud } from '../../testing';
import { checkout as checkoutAs, providerPaymentId, sendPaymentEvent, sendWebhook } from './test-helpers';

// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

const DAY = 86_400_000;
const STORE_SECRET = 'store-secret-for-tests-0123456789';

/** A certificate authority of the test's own, made with node-forge: a root, an intermediate and a signing leaf. */
function authority(name: string) {
  const keys = () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
  };
  const issue = (
    subject: string,
    key: { publicPem: string },
    issuer: { subject: string; privatePem: string },
    ca: boolean,
    from = Date.now() - DAY,
    to = Date.now() + 365 * DAY,
  ) => {
    const certificate = forge.pki.createCertificate();
    certificate.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
    certificate.serialNumber = `01${randomBytes(8).toString('hex')}`;
    certificate.validity.notBefore = new Date(from);
    certificate.validity.notAfter = new Date(to);
    certificate.setSubject([{ name: 'commonName', value: subject }]);
    certificate.setIssuer([{ name: 'commonName', value: issuer.subject }]);
    certificate.setExtensions([
      { name: 'basicConstraints', cA: ca, critical: true },
      { name: 'keyUsage', keyCertSign: ca, cRLSign: ca, digitalSignature: !ca, critical: true },
    ]);
    certificate.sign(forge.pki.privateKeyFromPem(issuer.privatePem), forge.md.sha256.create());
    return certificate;
  };
  const der = (certificate: forge.pki.Certificate) =>
    Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary').toString('base64');
  const rootKey = keys();
  const root = issue(`${name} Root`, rootKey, { subject: `${name} Root`, privatePem: rootKey.privatePem }, true);
  const middleKey = keys();
  const middle = issue(`${name} Intermediate`, middleKey, { subject: `${name} Root`, privatePem: rootKey.privatePem }, true);
  const leafKey = keys();
  const leaf = issue(`${name} Receipts`, leafKey, { subject: `${name} Intermediate`, privatePem: middleKey.privatePem }, false);
  const oldLeaf = issue(
    `${name} Receipts`,
    leafKey,
    { subject: `${name} Intermediate`, privatePem: middleKey.privatePem },
    false,
    Date.now() - 400 * DAY,
    Date.now() - 35 * DAY,
  );
  return {
    rootPem: forge.pki.certificateToPem(root),
    /** A receipt signed by the leaf, with the chain in its header. */
    sign: async (payload: object, options: { expiredLeaf?: boolean } = {}) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'RS256', x5c: [der(options.expiredLeaf ? oldLeaf : leaf), der(middle)] })
        .sign(createPrivateKey(leafKey.privatePem)),
  };
}

describeOnDatabases('store: subscriptions, receipts and their life', (backend) => {
  let cloud: Cloud;
  const store = authority('Test App Store');
  const forger = authority('Forger');
  let serial = 0;
  const transaction = (over: Record<string, unknown> = {}) => ({
    transactionId: `2000000${++serial}${randomBytes(3).toString('hex')}`,
    productId: 'homey_premium_1m',
    bundleId: 'app.hearth.mobile',
    purchaseDate: Date.now() - 1000,
    expiresDate: Date.now() + 30 * DAY,
    ...over,
  });
  const as = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await call(cloud, method, path, token, body);
    return { status: response.status, body: (await readJson(response).catch(() => null)) as Json };
  };
  const verify = (token: string, receipt: string, sku = 'homey_premium_1m') =>
    as(token, 'POST', '/store/subscription/verify', { sku, packageName: 'app.hearth.mobile', receipt });
  const me = async (token: string) => (await as(token, 'GET', '/cloud/user/me')).body;
  /** A user with what checkout needs when only subscriptions are bought: a billing name and country. */
  const subscriber = async (email: string) => {
    const user = await createUser(cloud, email);
    await as(user.token, 'PUT', '/store/userdata', { billing_firstname: 'Ada', billing_lastname: 'Berg', billing_country: 'NL' });
    return user;
  };
  const checkout = (token: string) => checkoutAs(cloud, token);

  beforeAll(async () => {
    cloud = await startTestCloud(backend, { store: { receiptRootCertificate: store.rootPem, secret: STORE_SECRET } });
  });
  afterAll(() => cloud.stop());

  it('verifies a signed receipt against the configured root and starts the subscription', async () => {
    const user = await createUser(cloud, 'receipt@hearth.test');
    const expiresDate = Date.now() + 30 * DAY;
    const receipt = await store.sign(transaction({ expiresDate }));
    const verified = await verify(user.token, receipt);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      type: 'homey_premium',
      status: 'active',
      expiresAt: new Date(expiresDate).toISOString(),
    });
    const subscriptions = Object.values((await me(user.token)).subscriptions) as Json[];
    expect(subscriptions).toEqual([
      expect.objectContaining({ id: verified.body.id, type: 'homey_premium', startedAt: expect.any(String) }),
    ]);
    expect((await as(user.token, 'GET', '/store/subscription/restore')).body.subscriptions).toHaveLength(1);

    // The same receipt again, by the same or another user: refused, nothing extended.
    const replay = await verify(user.token, receipt);
    expect(replay.status).toBe(409);
    const other = await createUser(cloud, 'receipt-thief@hearth.test');
    expect((await verify(other.token, receipt)).status).toBe(409);
    expect((await me(other.token)).subscriptions).toEqual({});
  });

  it('refuses tampered, foreign, expired and mismatched receipts, and changes nothing', async () => {
    const user = await createUser(cloud, 'receipt-forged@hearth.test');
    const genuine = await store.sign(transaction());
    const [header, , signature] = genuine.split('.');
    const longer = Buffer.from(JSON.stringify(transaction({ expiresDate: Date.now() + 3650 * DAY }))).toString('base64url');
    const refusals = [
      await verify(user.token, `${header}.${longer}.${signature}`),
      await verify(user.token, await forger.sign(transaction())),
      await verify(user.token, await store.sign(transaction(), { expiredLeaf: true })),
      await verify(user.token, await store.sign(transaction({ productId: 'homey_plus_1m' }))),
      await verify(user.token, await store.sign(transaction({ bundleId: 'com.example.other' }))),
      await verify(user.token, `${header}.${genuine.split('.')[1]}.${Buffer.from('nope').toString('base64url')}`),
    ];
    expect(refusals.map((r) => [r.status, r.body.error])).toEqual(Array(6).fill([400, 'invalid_grant']));
    expect(refusals[1]?.body.error_description).toMatch(/does not lead to the trusted root/);
    const lapsed = await verify(user.token, await store.sign(transaction({ expiresDate: Date.now() - DAY })));
    expect([lapsed.status, lapsed.body.error]).toEqual([410, 'gone']);
    expect((await verify(user.token, genuine, 'homey_toaster_1m')).status).toBe(404);
    expect(
      (await as(user.token, 'POST', '/store/subscription/verify', { sku: 'homey_premium_1m', receipt: genuine })).status,
    ).toBe(400);
    expect((await me(user.token)).subscriptions).toEqual({});
  });

  it('verifies one-time purchases for the caller’s own hub and restores them', async () => {
    const demo = (await signIn(cloud)).access_token;
    const stranger = await createUser(cloud, 'purchase@hearth.test');
    const purchase = transaction({ productId: 'app.lumen.scenes_pack', expiresDate: undefined });
    const body = {
      homeyId: DEMO_HUBS[0]?.id,
      sku: 'app.lumen.scenes_pack',
      packageName: 'app.hearth.mobile',
      receipt: await store.sign(purchase),
    };
    expect((await as(stranger.token, 'POST', '/store/one-time-purchase/verify', body)).status).toBe(404);
    const verified = await as(demo, 'POST', '/store/one-time-purchase/verify', body);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      transactionId: purchase.transactionId,
      homeyId: DEMO_HUBS[0]?.id,
      sku: 'app.lumen.scenes_pack',
    });
    expect((await as(demo, 'POST', '/store/one-time-purchase/verify', body)).status).toBe(409);
    const restored = (await as(demo, 'GET', '/store/subscription/restore')).body;
    expect(restored.purchases).toEqual([verified.body]);
    expect((await as(stranger.token, 'GET', '/store/subscription/restore')).body).toEqual({ subscriptions: [], purchases: [] });
  });

  it('starts a subscription bought in the store once, extends it on renewal and ends it at expiry', async () => {
    const user = await subscriber('subscriber@hearth.test');
    const buy = async () => {
      await as(user.token, 'POST', '/store/cart', { sku: 'homey_plus_1m', quantity: 1 });
      return (await checkout(user.token)).payment;
    };
    const before = Date.now();
    const payment = await buy();
    const plus = async () => Object.values((await me(user.token)).subscriptions) as Json[];
    const first = await plus();
    expect(first).toEqual([expect.objectContaining({ type: 'homey_plus', status: 'active', startedAt: expect.any(String) })]);
    const end = Date.parse(first[0].expiresAt);
    expect(end - before).toBeGreaterThanOrEqual(28 * DAY);
    expect(end - before).toBeLessThan(32 * DAY);

    // The provider redelivers its webhook under a new event id: the order is not fulfilled a second time.
    const providerId = await providerPaymentId(cloud, payment.id);
    const redelivered = await sendWebhook(cloud, {
      id: 'evt_again',
      data: { id: providerId, status: 'succeeded', amount: payment.amount, currency: 'EUR' },
    });
    expect(redelivered.body.outcome).toBe('ignored');
    expect((await plus())[0].expiresAt).toBe(first[0].expiresAt);

    await buy();
    const renewed = await plus();
    expect(renewed).toHaveLength(1);
    expect(renewed[0]).toMatchObject({ id: first[0].id, startedAt: first[0].startedAt });
    expect(Date.parse(renewed[0].expiresAt) - end).toBeGreaterThanOrEqual(28 * DAY);

    // Time is up: the platform's expiry call ends it, and only with the store secret.
    await cloud.context.database.db
      .updateTable('subscriptions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', first[0].id)
      .execute();
    expect((await as(null, 'POST', '/store/subscription/expired?secret=wrong-secret', { users: [user.id] })).status).toBe(403);
    expect((await as(user.token, 'POST', '/store/subscription/expired', { users: [user.id] })).status).toBe(400);
    const expired = await as(null, 'POST', `/store/subscription/expired?secret=${STORE_SECRET}`, { users: [user.id] });
    expect(expired.body).toEqual([
      { userId: user.id, subscription: expect.objectContaining({ id: first[0].id, status: 'expired' }) },
    ]);
    expect((await plus())[0].status).toBe('expired');
    expect((await as(user.token, 'GET', '/store/subscription/restore')).body.subscriptions).toEqual([]);
  });

  it('ends the subscription a refunded order started, takes a refunded renewal off, and refunds once', async () => {
    const user = await subscriber('refunded@hearth.test');
    const buy = async () => {
      await as(user.token, 'POST', '/store/cart', { sku: 'homey_premium_1m', quantity: 1 });
      return checkout(user.token);
    };
    const refund = (payment: Json, id: string) => sendPaymentEvent(cloud, payment, 'refunded', id);
    const premium = async () => Object.values((await me(user.token)).subscriptions) as Json[];

    const first = await buy();
    const renewal = await buy();
    const [twoMonths] = await premium();
    // The renewal is refunded: its month comes off, the subscription runs on.
    expect((await refund(renewal.payment, 'evt_refund_renewal')).body.outcome).toBe('applied');
    const [oneMonth] = await premium();
    expect(oneMonth).toMatchObject({ id: twoMonths.id, status: 'active' });
    const taken = Date.parse(twoMonths.expiresAt) - Date.parse(oneMonth.expiresAt);
    expect(taken).toBeGreaterThanOrEqual(28 * DAY);
    expect(taken).toBeLessThanOrEqual(31 * DAY);
    // The same refund again, under its id or a new one: nothing more comes off.
    expect((await refund(renewal.payment, 'evt_refund_renewal')).body.outcome).toBe('duplicate');
    expect((await refund(renewal.payment, 'evt_refund_renewal_again')).body.outcome).toBe('ignored');
    expect((await premium())[0].expiresAt).toBe(oneMonth.expiresAt);

    // The first order is refunded too: the subscription it started ends, and unlocks nothing any more.
    expect((await refund(first.payment, 'evt_refund_first')).body.outcome).toBe('applied');
    expect(await premium()).toEqual([expect.objectContaining({ id: twoMonths.id, status: 'canceled' })]);
    expect((await as(user.token, 'GET', '/store/subscription/restore')).body.subscriptions).toEqual([]);
    const orders = (await as(user.token, 'GET', '/store/user/order')).body as Json[];
    expect(orders.map((order) => order.status)).toEqual(['refunded', 'refunded']);
  });

  it('grants the subscription of a coupon applied at checkout once the order is paid, beside the discount', async () => {
    const user = await subscriber('coupon-buyer@hearth.test');
    const coupon = {
      couponCode: 'PREMIUM-PLUS',
      discountPercent: 10,
      subscriptionType: 'homey_plus',
      subscriptionDuration: 'P1M',
      subscriptionQuantity: 3,
    };
    expect((await as(null, 'POST', `/store/coupon?secret=${STORE_SECRET}`, coupon)).status).toBe(201);
    await as(user.token, 'POST', '/store/cart', { sku: 'homey_premium_12m', quantity: 1 });
    const applied = await as(user.token, 'PUT', '/store/coupon', { code: 'premium-plus' });
    expect(applied.body.coupon).toEqual({ code: 'PREMIUM-PLUS', discountPercent: 10, subscriptionType: 'homey_plus' });
    const subscriptions = async () =>
      Object.fromEntries((Object.values((await me(user.token)).subscriptions) as Json[]).map((s) => [s.type, s]));
    expect(await subscriptions()).toEqual({});
    const before = Date.now();
    const { order, payment } = await checkout(user.token);
    // A year of Premium, 49.00 less 10 %.
    expect(order).toMatchObject({ subtotal: 4_900, discount: 490, total: 4_410, couponCode: 'PREMIUM-PLUS' });
    const granted = await subscriptions();
    expect(granted).toMatchObject({ homey_premium: { status: 'active' }, homey_plus: { status: 'active' } });
    const plusDays = (Date.parse(granted.homey_plus.expiresAt) - before) / DAY;
    expect(plusDays).toBeGreaterThanOrEqual(88);
    expect(plusDays).toBeLessThan(93);
    // Refunded, the order takes back both.
    await sendPaymentEvent(cloud, payment, 'refunded', 'evt_refund_coupon');
    expect(await subscriptions()).toMatchObject({ homey_premium: { status: 'canceled' }, homey_plus: { status: 'canceled' } });
  });

  it('defers a subscription for internal callers only', async () => {
    const user = await createUser(cloud, 'deferred@hearth.test');
    await verify(user.token, await store.sign(transaction({ expiresDate: Date.now() + 10 * DAY })));
    const body = { sku: 'homey_premium_1m', athomId: user.id, duration: 'P1M', quantity: 2 };
    const refused = await as(user.token, 'POST', '/store/subscription/defer', body);
    expect([refused.status, refused.body.error]).toEqual([403, 'private_operation']);
    const deferred = await as(await internalToken(cloud), 'POST', '/store/subscription/defer', body);
    expect(deferred.status).toBe(200);
    expect(Date.parse(deferred.body.expiresAt) - Date.now()).toBeGreaterThan(65 * DAY);
    const other = await createUser(cloud, 'not-subscribed@hearth.test');
    expect(
      (await as(await internalToken(cloud), 'POST', '/store/subscription/defer', { ...body, athomId: other.id })).status,
    ).toBe(404);
  });
});
