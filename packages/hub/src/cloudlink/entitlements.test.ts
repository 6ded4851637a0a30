import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cloud } from '@hearth/cloud';
import { HUB_ENTITLEMENT_LIMITS } from '@hearth/contract';
import { hubSecret } from '@hearth/contract/hub-secret';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock';
import { buyInStore, cloudCall, cloudToken, signInWithPassword, startEmbeddedCloud } from '../testing/cloud';
import { startTestHub, type TestHub } from '../testing/hub';
import { until } from '../testing/until';
import { ENTITLEMENTS_REFRESH_MS } from './entitlements';

const SECRET = 'hub-entitlements-test-internal-secret';
const STORE_SECRET = 'hub-entitlements-test-store-secret';
const OWNER = { email: 'subscriber@hearth.test', password: 'a-good-password-1' };
/** No cloud answers here: the hub is offline. */
const UNREACHABLE = 'http://127.0.0.1:9';

interface Archive {
  cloudBackupId: string | null;
  cloudError: string | null;
  size: number;
}

describe('what the owner’s subscriptions unlock on the hub: its tier and cloud backups', () => {
  let cloud: Cloud;
  let provider: string;
  let userId: string;
  let ownerToken: string;
  const root = mkdtempSync(join(tmpdir(), 'hearth-entitlements-'));
  const id = randomBytes(12).toString('hex');
  let hub: TestHub | null = null;
  let clock: FakeClock;

  /** Starts the hub (again) on its data directory, linked to `cloudUrl`, its clock at the real time. */
  async function start(cloudUrl: string, tier?: string) {
    clock = new FakeClock(Date.now());
    hub = await startTestHub(
      { id, name: 'Subscriber', dataDir: root, cloudUrl, cloudClientSecret: SECRET, ...(tier ? { tier } : {}) },
      { clock },
    );
    return hub;
  }
  const tierOf = async (t: TestHub) => (await t.call('GET', '/system/ping', undefined, null)).headers.get('x-homey-tier');
  /** What the hub's system facts say it may use (the local API's view of the same answer). */
  const infoOf = async (t: TestHub) => {
    const { tier, cloudBackups } = (await t.call('GET', '/system/')).body as { tier: string; cloudBackups: boolean };
    return { tier, cloudBackups };
  };
  const untilTier = async (t: TestHub, tier: string) =>
    until(
      () => tierOf(t),
      (value) => value === tier,
      10_000,
    );
  const backUp = async (t: TestHub) => {
    // An archive is named by the time it is made: the clock that does not move by itself moves a second.
    await clock.advance(1000);
    const answer = await t.call<Archive>('POST', '/backup/backup');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const cloudBackups = async () =>
    (await cloud.context.database.db.selectFrom('backups').select('id').where('hub_id', '=', id).execute()).length;

  beforeAll(async () => {
    // The demo world (without hubs) brings the app client the owner signs in to the store with.
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET, demoHubs: [], store: { secret: STORE_SECRET } });
    provider = await cloudToken(cloud, { grant_type: 'client_credentials' }, `hearth-internal:${SECRET}`);
    const created = await cloudCall(cloud, 'POST', '/cloud/user', provider, {
      user: { ...OWNER, firstname: 'Ada', lastname: 'Subscriber' },
    });
    userId = created.body._id;
    ownerToken = await signInWithPassword(cloud, OWNER.email, OWNER.password);
  });
  afterAll(async () => {
    await hub?.stop();
    await cloud?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('starts free and keeps backups on the hub only; a bought Plus raises the tier at the next ask and backs up to the cloud; offline the hub keeps it for its lease; an ended subscription takes both back', async () => {
    let t = await start(cloud.url);
    expect(await t.hub.cloudRegistration).toBe(true);
    // Nightly backups stay out of the way of the clock the test moves.
    expect((await t.call('PUT', '/backup/option/automaticBackupsEnabled', { value: false })).status).toBe(200);
    expect((await cloudCall(cloud, 'POST', `/cloud/homey/${id}/activate`, provider, { userId })).status).toBe(200);

    // No subscription: the free tier, and a backup that is kept on the hub, saying why the cloud has none.
    expect(await tierOf(t)).toBe('free');
    expect(await infoOf(t)).toEqual({ tier: 'free', cloudBackups: false });
    const local = await backUp(t);
    expect(local.cloudBackupId).toBeNull();
    expect(local.cloudError).toMatch(/not included in the subscriptions of this hub’s owner \(tier free\)/);
    expect(local.size).toBeGreaterThan(0);
    expect(await cloudBackups()).toBe(0);
    // The refresh is a durable job of the hub's scheduler.
    expect(t.hub.context.scheduler.list({ kind: 'cloud.entitlements' })).toHaveLength(1);

    // The owner buys Hearth Plus in the store. The hub learns it at its next ask.
    await buyInStore(cloud, ownerToken, 'homey_plus_1m');
    expect(await tierOf(t)).toBe('free');
    await clock.advance(ENTITLEMENTS_REFRESH_MS);
    expect(await untilTier(t, 'plus')).toBe('plus');
    expect(await infoOf(t)).toEqual({ tier: 'plus', cloudBackups: true });
    const inCloud = await backUp(t);
    expect(inCloud.cloudError).toBeNull();
    expect(inCloud.cloudBackupId).toMatch(/^[0-9a-f]{24}$/);
    expect(await cloudBackups()).toBe(1);

    // Restarted without its cloud, the hub keeps what it was told until the lease runs out, then is free. (It was
    // told six hours into the last clock, which started about when this one did.)
    await t.stop();
    t = await start(UNREACHABLE);
    expect(await tierOf(t)).toBe('plus');
    await clock.advance(HUB_ENTITLEMENT_LIMITS.leaseSeconds * 1000);
    expect(await tierOf(t)).toBe('plus');
    await clock.advance(ENTITLEMENTS_REFRESH_MS + 60_000);
    expect(await tierOf(t)).toBe('free');
    await t.stop();

    // Back with its cloud, and the subscription's time is up (the payment provider says so, the expiry sweep ends it).
    t = await start(cloud.url);
    expect(await t.hub.cloudRegistration).toBe(true);
    expect(await untilTier(t, 'plus')).toBe('plus');
    const me = await cloudCall(cloud, 'GET', '/cloud/user/me', ownerToken);
    const plus = Object.values(me.body.subscriptions as Record<string, { id: string; type: string }>).find(
      (s) => s.type === 'homey_plus',
    );
    const ended = await cloudCall(cloud, 'PUT', `/cloud/user/${userId}/subscription/${plus?.id}`, provider, {
      subscription: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(ended.status).toBe(200);
    const swept = await cloudCall(cloud, 'POST', `/store/subscription/expired?secret=${STORE_SECRET}`, null, {
      users: [userId],
    });
    expect(swept.body).toEqual([expect.objectContaining({ userId })]);
    // The hub still believes in it: the cloud refuses the backup (its reason recorded), and the hub asks again.
    const refused = await backUp(t);
    expect(refused.cloudBackupId).toBeNull();
    expect(refused.cloudError).toMatch(/Cloud backups are not included .*Hearth Plus/);
    expect(await untilTier(t, 'free')).toBe('free');
    const skipped = await backUp(t);
    expect(skipped.cloudBackupId).toBeNull();
    expect(skipped.cloudError).toMatch(/\(tier free\): the backup is kept on this hub only/);
    expect(await cloudBackups()).toBe(1);
    // Every backup was kept on the hub all the same.
    const state = await t.call<{ archives: Archive[] }>('GET', '/backup/state');
    expect(state.body.archives.length).toBeGreaterThanOrEqual(4);
  });

  it('never tells this owner’s subscriptions to another hub’s secret', async () => {
    const other = randomBytes(12).toString('hex');
    const asked = await cloudCall(
      cloud,
      'GET',
      `/store/homey/${id}/entitlements?secret=${encodeURIComponent(hubSecret(SECRET, other))}`,
      null,
    );
    expect([asked.status, asked.body.error]).toEqual([403, 'forbidden']);
    const own = await cloudCall(
      cloud,
      'GET',
      `/store/homey/${id}/entitlements?secret=${encodeURIComponent(hubSecret(SECRET, id))}`,
      null,
    );
    expect(own.status).toBe(200);
  });

  it('announces a configured tier whatever the subscriptions give', async () => {
    await hub?.stop();
    const t = await start(cloud.url, 'developer');
    expect(await t.hub.cloudRegistration).toBe(true);
    expect(await tierOf(t)).toBe('developer');
    expect(await infoOf(t)).toEqual({ tier: 'developer', cloudBackups: false });
    expect(t.hub.context.entitlements.current().tier).toBe('free');
  });
});
