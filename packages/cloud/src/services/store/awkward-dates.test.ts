import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, describeOnDatabases, readJson, signIn, startTestCloud } from '../../testing';
import { buy, type PaymentAnswer, sendPaymentEvent } from './test-helpers';

// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

const DAY = 86_400_000;
const STORE_SECRET = 'store-secret-for-awkward-dates-0123';

/**
 * The days calendar arithmetic goes wrong on: month ends (a month later has no such day), a leap day, and the nights
 * clocks change in Europe (28 March, 31 October 2027) and in the United States (14 March 2027).
 */
const AWKWARD_DATES = [
  '2027-01-31T12:00:00.000Z',
  '2027-01-30T23:30:00.000Z',
  '2027-02-28T12:00:00.000Z',
  '2028-02-29T12:00:00.000Z',
  '2026-11-29T09:00:00.000Z',
  '2026-11-30T23:59:00.000Z',
  '2027-03-28T01:30:00.000Z',
  '2027-10-31T01:30:00.000Z',
  '2027-03-14T07:30:00.000Z',
];

describeOnDatabases('store: buying, renewing and refunding on awkward dates', (backend) => {
  let cloud: Cloud;

  beforeAll(async () => {
    // Its own embedded database: this suite moves Date, which PostgreSQL inside PGlite arms its timeouts on.
    cloud = await startTestCloud(backend, { store: { secret: STORE_SECRET } }, { ownPglite: true });
  });
  afterAll(() => cloud.stop());
  afterEach(() => {
    vi.useRealTimers();
  });

  const as = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await call(cloud, method, path, token, body);
    return { status: response.status, body: (await readJson(response).catch(() => null)) as Json };
  };
  /** What the user is entitled to now: their running subscriptions, as the store restores them. */
  const entitlements = async (token: string) => {
    const restored = await as(token, 'GET', '/store/subscription/restore');
    expect(restored.status).toBe(200);
    return (restored.body.subscriptions as Json[]).map((s) => ({ id: s.id, type: s.type, expiresAt: s.expiresAt }));
  };

  it.each(AWKWARD_DATES)('ends with exactly the entitlements it started with, from %s', async (start) => {
    // Only the date is faked: timers and the database's own clock run on, and every clock the cloud reads is Date.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(start));
    const email = `awkward-${start.replace(/[^0-9]/g, '')}@hearth.test`;
    const password = 'a-good-password-1';
    await createUser(cloud, email, password);
    /** Moves the clock `days` on and signs in again (an access token lasts less than a day). */
    const later = async (days: number) => {
      vi.setSystemTime(new Date(Date.parse(start) + days * DAY));
      return (await signIn(cloud, email, password)).access_token;
    };
    let token = await later(0);
    expect(await entitlements(token)).toEqual([]);
    expect((await as(null, 'POST', `/store/coupon?secret=${STORE_SECRET}`, plusCoupon(email))).status).toBe(201);

    // A month of Premium today; a renewal three days later; a year of Premium with three months of Plus two days
    // after that.
    const first = await buy(cloud, token, 'homey_premium_1m');
    const afterFirst = await entitlements(token);
    expect(afterFirst).toEqual([expect.objectContaining({ type: 'homey_premium' })]);
    token = await later(3);
    const renewal = await buy(cloud, token, 'homey_premium_1m');
    token = await later(5);
    await as(token, 'POST', '/store/cart', { sku: 'homey_premium_12m', quantity: 1 });
    expect((await as(token, 'PUT', '/store/coupon', { code: couponCode(email) })).status).toBe(200);
    const yearly = await buy(cloud, token, 'homey_premium_1m');
    const all = await entitlements(token);
    expect(all.map((s) => s.type).sort()).toEqual(['homey_plus', 'homey_premium']);
    const premiumEnd = Date.parse(all.find((s) => s.type === 'homey_premium')?.expiresAt);
    // 1 + 1 + 1 (the renewal bought beside the year) months and a year, each at least 28 days.
    expect(premiumEnd - Date.parse(start)).toBeGreaterThanOrEqual((3 * 28 + 365) * DAY);

    // A week on, the last two orders are refunded: what remains is exactly what the first order granted.
    token = await later(7);
    await refund(yearly.payment, `evt_yearly_${start}`);
    await refund(renewal.payment, `evt_renewal_${start}`);
    expect(await entitlements(token)).toEqual(afterFirst);
    // The first is refunded too: nothing is left, as before the first purchase.
    await refund(first.payment, `evt_first_${start}`);
    expect(await entitlements(token)).toEqual([]);
    const orders = (await as(token, 'GET', '/store/user/order')).body as Json[];
    expect(orders.map((order) => order.status)).toEqual(['refunded', 'refunded', 'refunded']);
  });

  const couponCode = (email: string) =>
    `PLUS-${email
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 24)
      .toUpperCase()}`;
  const plusCoupon = (email: string) => ({
    couponCode: couponCode(email),
    discountPercent: 10,
    subscriptionType: 'homey_plus',
    subscriptionDuration: 'P1M',
    subscriptionQuantity: 3,
  });
  const refund = async (payment: PaymentAnswer, eventId: string) => {
    const answer = await sendPaymentEvent(cloud, payment, 'refunded', eventId);
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'applied' } });
  };
});
