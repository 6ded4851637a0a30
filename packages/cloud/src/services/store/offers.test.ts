import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, describeOnDatabases, readJson, startTestCloud } from '../../testing';
import { REFERRAL_CREDITS_PER_INVITER } from './offers';
import { buy } from './test-helpers';

// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = any;

const SECRET = 'store-secret-for-offer-tests-0123';
const MONTH = 28 * 86_400_000;

describeOnDatabases('store: offers, coupons and refer-a-friend', (backend) => {
  let cloud: Cloud;
  const as = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await call(cloud, method, `/store${path}`, token, body);
    return { status: response.status, body: (await readJson(response).catch(() => null)) as Json };
  };
  const secret = `?secret=${SECRET}`;
  const subscriptionsOf = async (token: string) =>
    Object.values((await readJson(await call(cloud, 'GET', '/cloud/user/me', token))).subscriptions) as Json[];
  /** `count` new users, made a few at a time (each one's password is hashed). */
  type User = { id: string; token: string };
  const users = async (prefix: string, count: number): Promise<User[]> => {
    const made: User[] = [];
    for (let i = 0; i < count; i += 10)
      made.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, count - i) }, (_, j) => createUser(cloud, `${prefix}-${i + j}@hearth.test`)),
        )),
      );
    return made;
  };

  beforeAll(async () => {
    cloud = await startTestCloud(backend, { store: { secret: SECRET } });
  });
  afterAll(() => cloud.stop());

  it('creates coupons only with the store secret, each code once', async () => {
    const coupon = { couponCode: 'spring-plus', maxRedeems: 10, subscriptionType: 'homey_plus', subscriptionDuration: 'P1M' };
    expect((await as(null, 'POST', '/coupon?secret=wrong-secret', coupon)).status).toBe(403);
    expect((await as(null, 'POST', '/coupon', coupon)).status).toBe(400);
    const created = await as(null, 'POST', `/coupon${secret}`, coupon);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ couponCode: 'SPRING-PLUS', maxRedeems: 10, redeems: 0, newCustomersOnly: false });
    expect((await as(null, 'POST', `/coupon${secret}`, { ...coupon, couponCode: 'Spring-Plus' })).status).toBe(409);
    expect((await as(null, 'POST', `/coupon${secret}`, { couponCode: 'nothing-given' })).status).toBe(400);
    const past = await as(null, 'POST', `/coupon${secret}`, {
      ...coupon,
      couponCode: 'too-late',
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    const apple = await as(null, 'POST', `/offer/coupon_apple${secret}`, {
      coupon: 'APPLEWINTER',
      subscriptionType: 'homey_premium',
      subscriptionDuration: 'P1M',
      subscriptionQuantity: 3,
      newCustomersOnly: true,
    });
    expect(apple.body).toMatchObject({ couponCode: 'APPLEWINTER', campaignId: 'apple_offer_code', subscriptionQuantity: 3 });
  });

  it('lets exactly maxRedeems of 50 parallel redemptions through, one per user', async () => {
    await as(null, 'POST', `/coupon${secret}`, {
      couponCode: 'RUSH10',
      maxRedeems: 10,
      subscriptionType: 'homey_premium',
      subscriptionDuration: 'P1M',
    });
    const crowd = await users('rush', 50);
    const answers = await Promise.all(crowd.map((user) => as(user.token, 'POST', '/coupon/rush10/redeem', {})));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 410)).toBe(true);
    const coupon = await cloud.context.database.db
      .selectFrom('store_coupons')
      .selectAll()
      .where('code', '=', 'RUSH10')
      .executeTakeFirstOrThrow();
    expect(coupon.redeems).toBe(10);
    const redemptions = await cloud.context.database.db
      .selectFrom('store_coupon_redemptions')
      .select('user_id')
      .where('coupon_code', '=', 'RUSH10')
      .execute();
    expect(redemptions).toHaveLength(10);
    const winner = crowd[statuses.indexOf(200)] as { token: string };
    expect(await subscriptionsOf(winner.token)).toEqual([expect.objectContaining({ type: 'homey_premium', status: 'active' })]);
  });

  it('refuses a second redemption by one user, expired coupons, and old customers where it is for new ones', async () => {
    await as(null, 'POST', `/coupon${secret}`, {
      couponCode: 'ONCE',
      subscriptionType: 'homey_plus',
      subscriptionDuration: 'P1M',
    });
    const [first, second] = (await users('once', 2)) as [User, User];
    expect((await as(first.token, 'POST', '/coupon/ONCE/redeem', {})).status).toBe(200);
    const again = await Promise.all([
      as(first.token, 'POST', '/coupon/ONCE/redeem', {}),
      as(first.token, 'POST', '/coupon/ONCE/redeem', {}),
    ]);
    expect(again.map((a) => a.status)).toEqual([409, 409]);
    expect(await subscriptionsOf(first.token)).toHaveLength(1);
    expect((await as(first.token, 'POST', '/coupon/NO-SUCH-CODE/redeem', {})).status).toBe(404);

    // A customer already (the first user holds a subscription now): refused; a new one: welcome.
    expect((await as(first.token, 'POST', '/coupon/applewinter/redeem', {})).body.error).toBe('conflict');
    const welcome = await as(second.token, 'POST', '/coupon/applewinter/redeem', {});
    expect(welcome.status).toBe(200);
    expect(Date.parse(welcome.body.subscription.expiresAt) - Date.now()).toBeGreaterThan(3 * MONTH);

    await as(null, 'POST', `/coupon${secret}`, {
      couponCode: 'SOON-GONE',
      subscriptionType: 'homey_plus',
      subscriptionDuration: 'P1M',
    });
    await cloud.context.database.db
      .updateTable('store_coupons')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code', '=', 'SOON-GONE')
      .execute();
    expect((await as(second.token, 'POST', '/coupon/SOON-GONE/redeem', {})).status).toBe(410);
    // A discount coupon is for checkout.
    await as(null, 'POST', `/coupon${secret}`, { couponCode: 'TENOFF', discountPercent: 10 });
    const discount = await as(second.token, 'POST', '/coupon/TENOFF/redeem', {});
    expect(discount.status).toBe(409);
    const unused = await cloud.context.database.db
      .selectFrom('store_coupons')
      .select('redeems')
      .where('code', '=', 'TENOFF')
      .executeTakeFirstOrThrow();
    expect(unused.redeems).toBe(0);
  });

  it('makes offers to one user, redeemed once before they expire', async () => {
    const [owner, other] = (await users('offer', 2)) as [User, User];
    const offer = { userId: owner.id, campaignId: 'winback', subscriptionType: 'homey_premium', subscriptionDuration: 'P1M' };
    expect((await as(owner.token, 'POST', '/offer?secret=guess', offer)).status).toBe(403);
    const made = await as(null, 'POST', `/offer${secret}`, offer);
    expect(made.status).toBe(201);
    expect((await as(null, 'POST', `/offer${secret}`, { ...offer, userId: 'no-such-user' })).status).toBe(404);
    expect((await as(owner.token, 'GET', '/offer')).body).toEqual([made.body]);
    expect((await as(other.token, 'GET', '/offer')).body).toEqual([]);
    expect((await as(other.token, 'GET', `/offer/${made.body.id}`)).status).toBe(404);
    expect((await as(other.token, 'POST', `/offer/${made.body.id}/redeem`, {})).status).toBe(404);
    const redeemed = await as(owner.token, 'POST', `/offer/${made.body.id}/redeem`, { paymentProvider: 'store' });
    expect(redeemed.body.subscription).toMatchObject({ type: 'homey_premium', status: 'active' });
    expect((await as(owner.token, 'POST', `/offer/${made.body.id}/redeem`, {})).status).toBe(409);
    expect((await as(owner.token, 'GET', `/offer/${made.body.id}`)).body.redeemedAt).not.toBeNull();

    const late = (await as(null, 'POST', `/offer${secret}`, offer)).body;
    await cloud.context.database.db
      .updateTable('store_offers')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', late.id)
      .execute();
    expect((await as(owner.token, 'POST', `/offer/${late.id}/redeem`, {})).status).toBe(410);
  });

  it('credits the inviter once for each verified new customer, at their first paid order, up to a cap', async () => {
    const [inviter, friend, latecomer, unverified] = (await users('refer', 4)) as [User, User, User, User];
    expect((await as(inviter.token, 'POST', '/offer/refer_a_friend', { inviterId: inviter.id })).status).toBe(409);
    expect((await as(friend.token, 'POST', '/offer/refer_a_friend', { inviterId: 'nobody-at-all' })).status).toBe(404);
    // An account whose address nobody confirmed redeems nothing: sign-ups cost nothing.
    await cloud.context.database.db
      .updateTable('users')
      .set({ email_verified_at: null })
      .where('id', '=', unverified.id)
      .execute();
    const refused = await as(unverified.token, 'POST', '/offer/refer_a_friend', { inviterId: inviter.id });
    expect([refused.status, refused.body.error]).toEqual([403, 'forbidden']);
    expect(await subscriptionsOf(unverified.token)).toEqual([]);

    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => as(friend.token, 'POST', '/offer/refer_a_friend', { inviterId: inviter.id })),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    // The friend has their month; the inviter nothing yet: redeeming is free, a customer is what counts.
    expect(await subscriptionsOf(friend.token)).toEqual([expect.objectContaining({ type: 'homey_premium' })]);
    expect(await subscriptionsOf(inviter.token)).toEqual([]);
    // The friend's first paid order credits the inviter a month; a second order does not.
    const before = Date.now();
    await buy(cloud, friend.token, 'homey_plus_1m');
    const credited = await subscriptionsOf(inviter.token);
    expect(credited).toEqual([expect.objectContaining({ type: 'homey_premium', status: 'active' })]);
    const end = Date.parse(credited[0].expiresAt);
    // A calendar month from the order: 28 to 31 days (February's is 28 exactly).
    expect(end - before).toBeGreaterThanOrEqual(MONTH);
    expect(end - Date.now()).toBeLessThan(32 * 86_400_000);
    await buy(cloud, friend.token, 'homey_plus_1m');
    expect(Date.parse((await subscriptionsOf(inviter.token))[0].expiresAt)).toBe(end);
    // The friend is a customer now: inviting them again credits nobody.
    expect((await as(friend.token, 'POST', '/offer/refer_a_friend', { inviterId: latecomer.id })).status).toBe(409);
    expect(await subscriptionsOf(latecomer.token)).toEqual([]);

    // An inviter who has brought as many customers as the cap allows is credited no more.
    // (Accounts the earlier tests made stand in for the customers already brought: making more trips the rate limit.)
    const { db } = cloud.context.database;
    const others = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'not in', [inviter.id, friend.id, latecomer.id, unverified.id])
      .where('id', 'not in', db.selectFrom('store_referrals').select('invitee_id'))
      .limit(REFERRAL_CREDITS_PER_INVITER - 1)
      .execute();
    expect(others).toHaveLength(REFERRAL_CREDITS_PER_INVITER - 1);
    await db
      .insertInto('store_referrals')
      .values(others.map((other) => ({ invitee_id: other.id, inviter_id: inviter.id, credited_at: new Date() })))
      .execute();
    const [last] = (await users('refer-last', 1)) as [User];
    expect((await as(last.token, 'POST', '/offer/refer_a_friend', { inviterId: inviter.id })).status).toBe(200);
    await buy(cloud, last.token, 'homey_plus_1m');
    expect(Date.parse((await subscriptionsOf(inviter.token))[0].expiresAt)).toBe(end);
  });
});
