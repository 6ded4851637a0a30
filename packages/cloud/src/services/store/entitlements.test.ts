import { HUB_ENTITLEMENT_LIMITS } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  hubSecretQuery,
  internalToken,
  type Json,
  readJson,
  signIn,
  startTestCloud,
} from '../../testing';
import { buy, sendPaymentEvent } from './test-helpers';

const DAY = 86_400_000;
const STORE_SECRET = 'store-secret-for-tests-0123456789';
/** The demo user's hubs: a Pro with Plus and Premium sold for it, a Pro mini and a cloud hub with nothing. */
const HOME = DEMO_HUBS[0]?.id as string;
const HOLIDAY = DEMO_HUBS[1]?.id as string;
const STUDIO = DEMO_HUBS[2]?.id as string;

describeOnDatabases('store: what subscriptions unlock on the owner’s hubs', (backend) => {
  let cloud: Cloud;
  let demo: string;

  /** What hub `hubId` is told, asking with `secret` (its own unless told). */
  const entitlements = async (hubId: string, secret = hubSecretQuery(hubId)) => {
    const answer = await call(cloud, 'GET', `/store/homey/${hubId}/entitlements?secret=${secret}`, null);
    return { status: answer.status, body: await readJson(answer) };
  };
  const unlocked = async (hubId: string) => {
    const { status, body } = await entitlements(hubId);
    expect(status).toBe(200);
    return { tier: body.tier, backups: body.backups, types: (body.subscriptions as Json[]).map((s) => s.type).sort() };
  };
  /** `createBackup` as the hub asks it; answers the status and error code. */
  const createBackup = async (hubId: string) => {
    const answer = await call(
      cloud,
      'POST',
      `/backup/user/${DEMO_USER.id}/homey/${hubId}?secret=${hubSecretQuery(hubId)}`,
      null,
      {
        version: '12.4.0',
      },
    );
    return { status: answer.status, error: (await readJson(answer)).error as string | undefined };
  };
  const backupsOf = async (hubId: string) =>
    (await cloud.context.database.db.selectFrom('backups').select('id').where('hub_id', '=', hubId).execute()).length;
  /** The demo user's subscription of `type` that is for all their hubs (what the store sells). */
  const accountWide = async (type: string) =>
    (Object.values((await readJson(await call(cloud, 'GET', '/cloud/user/me', demo))).subscriptions) as Json[]).find(
      (s) => s.type === type && !s.homeyId,
    ) as Json;

  beforeAll(async () => {
    cloud = await startTestCloud(backend, { store: { secret: STORE_SECRET } });
    demo = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  it('answers a hub, by its own secret, what its owner’s subscriptions unlock on it', async () => {
    const home = await entitlements(HOME);
    expect(home.status).toBe(200);
    expect(home.body).toMatchObject({ homeyId: HOME, tier: 'premium', backups: true });
    expect(home.body.subscriptions).toEqual([
      { type: 'homey_plus', homeyId: HOME, expiresAt: null },
      { type: 'homey_premium', homeyId: HOME, expiresAt: null },
    ]);
    // Nothing that counts ends: the answer holds for the lease.
    expect(Date.parse(home.body.validUntil) - Date.parse(home.body.checkedAt)).toBe(HUB_ENTITLEMENT_LIMITS.leaseSeconds * 1000);
    // What was sold for the Home hub is not the other hubs'; Developer unlocks nothing on hubs.
    expect(await unlocked(HOLIDAY)).toEqual({ tier: 'free', backups: false, types: [] });
    expect(await unlocked(STUDIO)).toEqual({ tier: 'free', backups: false, types: [] });
  });

  it('tells no one else: another hub’s secret, another account’s hub, a made-up secret, an unknown hub', async () => {
    // A hub of another account, claimed by them.
    const stranger = await createUser(cloud, `entitlements-stranger-${backend}@hearth.test`);
    const internal = await internalToken(cloud);
    const theirHub = 'abcdef0123456789abcdef01';
    const created = await call(cloud, 'POST', '/cloud/homey/', internal, {
      data: { _id: theirHub, name: 'Stranger', model: 'hearth-pro-5q' },
    });
    expect(created.status).toBeLessThan(300);
    expect((await call(cloud, 'POST', `/cloud/homey/${theirHub}/activate`, internal, { userId: stranger.id })).status).toBe(200);
    expect(await unlocked(theirHub)).toEqual({ tier: 'free', backups: false, types: [] });

    const refusals = [
      await entitlements(HOME, hubSecretQuery(theirHub)),
      await entitlements(HOME, hubSecretQuery(HOLIDAY)),
      await entitlements(HOME, `${HOME}.${'A'.repeat(43)}`),
      await entitlements(HOME, 'not-a-secret'),
    ];
    for (const refusal of refusals) {
      expect([refusal.status, refusal.body.error]).toEqual([403, 'forbidden']);
      expect(JSON.stringify(refusal.body)).not.toContain('premium');
    }
    // A user's token is no hub's secret.
    const asUser = await call(cloud, 'GET', `/store/homey/${HOME}/entitlements`, demo);
    expect(asUser.status).toBe(400);
    const unknown = 'abcdefabcdefabcdefabcdef';
    expect((await entitlements(unknown)).status).toBe(404);
  });

  it('unlocks what a bought subscription is for on every hub of the owner, until it is refunded or ends', async () => {
    // Without a subscription that includes them, the cloud keeps no backup of the hub, and stores nothing.
    expect(await createBackup(HOLIDAY)).toEqual({ status: 402, error: 'subscription_required' });
    expect(await backupsOf(HOLIDAY)).toBe(0);

    await buy(cloud, demo, 'homey_plus_1m');
    // Plus is for Pro hubs: the Pro mini has it, the cloud hub not; the Home hub keeps its Premium.
    expect(await unlocked(HOLIDAY)).toEqual({ tier: 'plus', backups: true, types: ['homey_plus'] });
    expect(await unlocked(STUDIO)).toEqual({ tier: 'free', backups: false, types: [] });
    expect((await unlocked(HOME)).tier).toBe('premium');
    // The Home hub's own Plus, which never ends, stayed as it was beside the one bought.
    expect((await entitlements(HOME)).body.subscriptions).toContainEqual({ type: 'homey_plus', homeyId: HOME, expiresAt: null });
    expect((await createBackup(HOLIDAY)).status).toBe(201);
    expect(await createBackup(STUDIO)).toEqual({ status: 402, error: 'subscription_required' });

    const premium = await buy(cloud, demo, 'homey_premium_1m');
    expect(await unlocked(STUDIO)).toEqual({ tier: 'premium', backups: true, types: ['homey_premium'] });
    expect((await createBackup(STUDIO)).status).toBe(201);
    // Refunded, the Premium it started ends: the cloud hub is back to nothing.
    expect((await sendPaymentEvent(cloud, premium.payment, 'refunded', `evt_refund_premium_${backend}`)).body.outcome).toBe(
      'applied',
    );
    expect(await unlocked(STUDIO)).toEqual({ tier: 'free', backups: false, types: [] });
    expect(await createBackup(STUDIO)).toEqual({ status: 402, error: 'subscription_required' });

    // The provider says the Plus ends in two days: the answer holds until then, not for the whole lease.
    const plus = await accountWide('homey_plus');
    const internal = await internalToken(cloud);
    const setEnd = (at: Date) =>
      call(cloud, 'PUT', `/cloud/user/${DEMO_USER.id}/subscription/${plus.id}`, internal, {
        subscription: { expiresAt: at.toISOString() },
      });
    const soon = new Date(Date.now() + 2 * DAY);
    expect((await setEnd(soon)).status).toBe(200);
    expect((await entitlements(HOLIDAY)).body.validUntil).toBe(soon.toISOString());
    // Its time is up: nothing is unlocked any more, before the expiry sweep has marked it and after.
    expect((await setEnd(new Date(Date.now() - 1000))).status).toBe(200);
    expect(await unlocked(HOLIDAY)).toEqual({ tier: 'free', backups: false, types: [] });
    expect(await createBackup(HOLIDAY)).toEqual({ status: 402, error: 'subscription_required' });
    const expired = await call(cloud, 'POST', `/store/subscription/expired?secret=${STORE_SECRET}`, null, {
      users: [DEMO_USER.id],
    });
    expect((await readJson(expired)).map((e: Json) => e.subscription.id)).toContain(plus.id);
    expect(await unlocked(HOLIDAY)).toEqual({ tier: 'free', backups: false, types: [] });
    expect(await backupsOf(HOLIDAY)).toBe(1);
  });
});
