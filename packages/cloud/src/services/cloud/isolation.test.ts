import { type AnyOperation, cloudOperations, fullPath } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, createUser, DEMO_HUBS, describeOnDatabases, type Json, readJson, signIn, startTestCloud } from '../../testing';

/**
 * Every operation of the cloud and store services, tried by one user against another user's resources. The
 * table must name every operation: a new one fails this test until it says how it is protected.
 *
 * - `owned`: addresses the other user's resource by path; must be refused (403 or 404) and change nothing.
 * - `private`: internal only; a user is refused with `private_operation` whatever the resource.
 * - `self`: acts only on the caller; run as the intruder, the answer must not contain the victim's data.
 * - `public`: no authentication by design (health, token endpoint, delegation key and verification, password
 *   reset request); nothing of a user's is exposed.
 */
type Kind = 'owned' | 'private' | 'self' | 'public';

interface Row {
  kind: Kind;
  body?: unknown;
  query?: string;
}

const ops = { ...cloudOperations.cloud, ...cloudOperations.store } as Record<string, AnyOperation>;

const table: Record<string, Row> = {
  getHealth: { kind: 'public' },
  getAccessToken: { kind: 'public' },
  createDelegationToken: { kind: 'owned', query: `?audience=homey&homeyId=${DEMO_HUBS[0]?.id}`, body: {} },
  verifyDelegationToken: { kind: 'public' },
  getDelegationTokenKey: { kind: 'public' },
  forgotPassword: { kind: 'public' },
  createUser: { kind: 'private' },
  getUser: { kind: 'owned' },
  updateUser: { kind: 'owned', body: { user: { firstname: 'Hacked' } } },
  deleteUser: { kind: 'owned', body: { password: 'whatever-password' } },
  uploadAvatar: { kind: 'owned' },
  createUserDevice: { kind: 'owned', body: { device: { name: 'Spy', platform: 'ios' } } },
  updateUserDevice: { kind: 'owned', body: { device: { name: 'Spy' } } },
  deleteUserDevice: { kind: 'owned' },
  getUserAddresses: { kind: 'owned' },
  addUserAddress: { kind: 'owned', body: { address: { street: 'Spy street' } } },
  updateUserAddress: { kind: 'owned', body: { address: { street: 'Spy street' } } },
  deleteUserAddress: { kind: 'owned' },
  updateUserSubscription: { kind: 'private' },
  deleteUserSubscription: { kind: 'private' },
  addRoleAppDeveloperTrusted: { kind: 'private' },
  removeRoleAppDeveloperTrusted: { kind: 'private' },
  addRoleCertifiedInstaller: { kind: 'private' },
  getAuthenticatedUser: { kind: 'self' },
  getAcceptedInvites: { kind: 'self' },
  getPersonalAccessTokenApps: { kind: 'self' },
  deletePersonalAccessTokenApps: { kind: 'self' },
  updateAuthenticatedUserPassword: { kind: 'self', body: { old_password: 'not-the-password', password: 'new-password-1' } },
  getUserProfile: { kind: 'owned' },
  getUserSessions: { kind: 'owned' },
  deleteUserSession: { kind: 'owned' },
  acceptInvite: { kind: 'owned', body: {} },
  getBridges: { kind: 'private' },
  createBridge: { kind: 'private' },
  getBridge: { kind: 'owned' },
  updateBridge: { kind: 'private' },
  activateBridge: { kind: 'owned', body: { homeyId: DEMO_HUBS[0]?.id } },
  getHomeys: { kind: 'private' },
  createHomey: { kind: 'private' },
  createHomeyClaimCode: { kind: 'private' },
  getHomey: { kind: 'owned' },
  updateHomey: { kind: 'owned', body: { homey: { name: 'Hacked' } } },
  deleteHomey: { kind: 'owned' },
  activateHomey: { kind: 'owned', body: { token: 'guess' } },
  addHomeyLicense: { kind: 'private' },
  createHomeyUser: { kind: 'owned', body: { user: 'SELF', role: 'manager' } },
  deleteHomeyUser: { kind: 'owned' },
  resetHomeyUsers: { kind: 'owned', body: {} },
  getAllHomeyMetadata: { kind: 'owned' },
  getHomeyMetadata: { kind: 'owned' },
  createHomeyMetadata: { kind: 'owned', body: { value: { spy: true } } },
  updateHomeyMetadata: { kind: 'owned', body: { value: { spy: true } } },
  deleteHomeyMetadata: { kind: 'owned' },
  updateHomeySendConnectionNotifications: { kind: 'owned', body: { email: false } },
  sendFormattedEmail: { kind: 'private' },
  subscribeUserToMailChimp: { kind: 'private' },
  upsertUserToMailChimp: { kind: 'private' },
  addTagToMailChimpUser: { kind: 'private' },
  removeTagFromMailChimpUser: { kind: 'private' },
  getAppInstallsStatistics: { kind: 'private' },
  getAppDriversStatistics: { kind: 'private' },
  getAppFlowCardsStatistics: { kind: 'private' },
  getLocationStatistics: { kind: 'private' },
  getVersionStatistics: { kind: 'private' },
  getProductionStatistics: { kind: 'private' },
  getHomeyOwnerContactDetails: { kind: 'private' },
  signUp: { kind: 'public' },
  checkPasswordStrength: { kind: 'public' },
  verifyEmail: { kind: 'public' },
  resendVerificationEmail: { kind: 'self' },
  changeEmail: { kind: 'self', body: { email: 'taken-over@hearth.test', password: 'not-the-password' } },
  getTwoFactor: { kind: 'self' },
  setupTwoFactor: { kind: 'self' },
  enableTwoFactor: { kind: 'self', body: { code: '000000' } },
  disableTwoFactor: { kind: 'self', body: { password: 'not-the-password', code: '000000' } },
  regenerateRecoveryCodes: { kind: 'self', body: { password: 'not-the-password', code: '000000' } },
  claimHomey: { kind: 'self', body: { code: 'guessed-claim-code' } },
  transferHomey: { kind: 'owned', body: { userId: 'SELF' } },
  getHomeyUsers: { kind: 'owned' },
  createHomeyInvite: { kind: 'owned', body: { email: 'intruder@hearth.test', role: 'manager' } },
  getHomeyInvites: { kind: 'owned' },
  deleteHomeyInvite: { kind: 'owned' },
  previewInvite: { kind: 'public', body: { token: 'guessed-invite-token-0123' } },
  getPasskeys: { kind: 'self' },
  startPasskeyRegistration: { kind: 'self', body: {} },
  addPasskey: { kind: 'self', body: { name: 'Spy key', response: {} } },
  renamePasskey: { kind: 'owned', body: { name: 'Hacked' } },
  deletePasskey: { kind: 'owned' },
  getProducts: { kind: 'public' },
  getProduct: { kind: 'public' },
  getCart: { kind: 'self' },
  addToCart: { kind: 'self', body: { sku: 'hearth-pro-mini', quantity: 1 } },
  setCart: { kind: 'self', body: { items: [{ sku: 'hearth-pro-mini', quantity: 2 }] } },
  deleteCart: { kind: 'self' },
  getLocale: { kind: 'self' },
  setLocale: { kind: 'self', body: { country: 'NL' } },
  createGuestCart: { kind: 'public' },
  claimGuestCart: { kind: 'self', body: { token: 'guessed-guest-cart-token-0123' } },
  setUserdata: { kind: 'self', body: { billing_firstname: 'Spy' } },
  setBusiness: { kind: 'self', body: { business_name: 'Spy Ltd' } },
  getVat: { kind: 'self' },
  getZipcode: { kind: 'self', query: '?zipcode=1012AB&number=1' },
  setCoupon: { kind: 'self', body: { code: 'WELCOME10' } },
  setPayment: { kind: 'self', body: { method: 'ideal' } },
  createOrder: { kind: 'self', body: {} },
  payOrder: { kind: 'owned', body: { orderId: 'VICTIM_ORDER' } },
  verifySubscription: { kind: 'self' },
  deferSubscription: { kind: 'private', body: { sku: 'homey_premium_1m', athomId: 'SELF', duration: 'P1M' } },
  // The platform's calls with the store secret (none is set here): refused to anyone without it.
  getExpiredSubscriptions: { kind: 'public' },
  restoreSubscriptions: { kind: 'self' },
  verifyOneTimePurchase: { kind: 'self' },
  getOffers: { kind: 'self' },
  getOffer: { kind: 'owned' },
  redeemReferAFriend: { kind: 'self', body: { inviterId: 'SELF' } },
  redeemOffer: { kind: 'owned', body: {} },
  createOfferCouponApple: { kind: 'public' },
  createOffer: { kind: 'public' },
  createCoupon: { kind: 'public' },
  redeemCoupon: { kind: 'self', body: {} },
  // A hub's own call, by its secret: a user's token with a guessed secret is refused.
  getHomeyEntitlements: { kind: 'owned', query: '?secret=guessed.secret' },
  getOrders: { kind: 'self' },
  getOrder: { kind: 'owned' },
  createStoreSession: { kind: 'self', body: {} },
  deleteStoreSession: { kind: 'self', body: {} },
  createLoginToken: { kind: 'self', body: {} },
  logout: { kind: 'self', body: {} },
  // Last, with logout: it ends the intruder's own session.
  signOut: { kind: 'self', body: {} },
};

describeOnDatabases('one user never sees or changes another user’s data', (backend) => {
  let cloud: Cloud;
  let victim: { id: string; token: string; email: string };
  let intruder: { id: string; token: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    const demo = await signIn(cloud);
    const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', demo.access_token));
    victim = { id: me._id, token: demo.access_token, email: me.email };
    const device = await readJson(
      await call(cloud, 'POST', `/cloud/user/${victim.id}/device`, victim.token, { device: { name: 'Phone', platform: 'ios' } }),
    );
    const address = await readJson(
      await call(cloud, 'POST', `/cloud/user/${victim.id}/address`, victim.token, { address: { street: 'Home street' } }),
    );
    await call(cloud, 'POST', `/cloud/homey/${DEMO_HUBS[0]?.id}/metadata/wifi`, victim.token, { value: { ssid: 'home' } });
    const sessions = await readJson(await call(cloud, 'GET', `/cloud/user/${victim.id}/session`, victim.token));
    const orders = await readJson(await call(cloud, 'GET', '/store/user/order', victim.token));
    // A passkey of the victim's, stored as registering one leaves it (a browser ceremony cannot run here).
    await cloud.context.database.db
      .insertInto('passkeys')
      .values({
        id: 'victim-passkey-credential',
        user_id: victim.id,
        name: 'Victim key',
        public_key: 'pQECAyYgASFYIA',
        counter: 0,
        transports: JSON.stringify(['internal']),
        device_type: 'multiDevice',
        backed_up: true,
      })
      .execute();
    // An offer made to the victim, as the platform's offer call leaves it.
    await cloud.context.database.db
      .insertInto('store_offers')
      .values({
        id: 'victim-offer',
        user_id: victim.id,
        subscription_type: 'homey_premium',
        subscription_quantity: 1,
        subscription_duration: 'P1M',
      })
      .execute();
    const member = await createUser(cloud, 'member@hearth.test');
    await call(cloud, 'POST', `/cloud/homey/${DEMO_HUBS[0]?.id}/user`, victim.token, { user: member.id, role: 'user' });
    Object.assign(ids, {
      userId: victim.id,
      deviceId: device._id,
      addressId: address._id,
      subscriptionId: Object.keys(me.subscriptions)[0] as string,
      sessionId: sessions[0]._id,
      homeyId: DEMO_HUBS[0]?.id as string,
      hubUserId: member.id,
      key: 'wifi',
      license: 'matter',
      serial: 'HB000000001',
      orderId: orders[0]._id,
      passkeyId: 'victim-passkey-credential',
      offerId: 'victim-offer',
      couponCode: 'NO-SUCH-COUPON',
      tag: 'news',
      listId: 'news',
    });
    const invite = await readJson(
      await call(cloud, 'POST', `/cloud/homey/${DEMO_HUBS[0]?.id}/invite`, victim.token, {
        email: 'friend@hearth.test',
        role: 'user',
      }),
    );
    ids.inviteId = invite._id;
    const other = await createUser(cloud, 'intruder@hearth.test');
    intruder = { id: other.id, token: other.token };
    ids.inviterId = intruder.id;
  });
  afterAll(() => cloud.stop());

  it('has a row for every operation of the cloud and store services', () => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(ops).sort());
  });

  function pathFor(operation: AnyOperation): string {
    const hubRoute = operation.path.startsWith('/homey');
    return fullPath(operation).replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      if (name === 'id') return hubRoute ? ids.homeyId : ids.userId;
      if (name === 'userId' && hubRoute) return ids.hubUserId;
      const value = ids[name];
      if (!value) throw new Error(`No value for :${name} in ${operation.name}`);
      return value;
    }) as string;
  }

  const mentionsVictim = (text: string) => text.includes(victim.id) || text.includes(victim.email);

  it('refuses every owned and private route to another user, and answers self routes with the caller’s data only', async () => {
    const outcomes: string[] = [];
    for (const [name, row] of Object.entries(table)) {
      const operation = ops[name] as AnyOperation;
      if (row.kind === 'public') continue;
      let body = row.body;
      if (body && JSON.stringify(body).includes('SELF')) body = JSON.parse(JSON.stringify(body).replace('SELF', intruder.id));
      // An owned resource a body names (an order to pay): the victim's.
      if (body && JSON.stringify(body).includes('VICTIM_ORDER'))
        body = JSON.parse(JSON.stringify(body).replace('VICTIM_ORDER', ids.orderId as string));
      if (body === undefined && (operation.method === 'POST' || operation.method === 'PUT') && operation.body) body = {};
      const path = `${pathFor(operation)}${row.query ?? ''}`;
      const response = await call(cloud, operation.method, path, intruder.token, body);
      const text = await response.text();
      const error = text ? (JSON.parse(text) as Json).error : undefined;
      if (row.kind === 'private') {
        if (response.status !== 403 || error !== 'private_operation')
          outcomes.push(`${name}: ${response.status} ${text.slice(0, 120)}`);
      } else if (row.kind === 'owned') {
        if (![403, 404].includes(response.status) || mentionsVictim(text))
          outcomes.push(`${name}: ${response.status} ${text.slice(0, 120)}`);
      } else if (response.status >= 500 || mentionsVictim(text))
        outcomes.push(`${name}: ${response.status} ${text.slice(0, 120)}`);
    }
    expect(outcomes).toEqual([]);
  });

  it('left the victim’s account, hub and orders as they were', async () => {
    const me = await call(cloud, 'GET', '/cloud/user/me', victim.token);
    expect(me.status).toBe(200);
    const user = await readJson(me);
    expect(user).toMatchObject({ firstname: 'Dana', devices: [expect.objectContaining({ _id: ids.deviceId, name: 'Phone' })] });
    expect(user.homeys).toHaveLength(3);
    const hub = user.homeys.find((h: Json) => h._id === ids.homeyId);
    expect(hub).toMatchObject({ name: 'Home', notifications: { push: true, email: true } });
    expect(hub.users.map((u: Json) => u._id)).not.toContain(intruder.id);
    const addresses = await readJson(await call(cloud, 'GET', `/cloud/user/${victim.id}/address`, victim.token));
    expect(addresses).toEqual([expect.objectContaining({ street: 'Home street' })]);
    const metadata = await readJson(await call(cloud, 'GET', `/cloud/homey/${ids.homeyId}/metadata`, victim.token));
    expect(metadata).toEqual({ wifi: { ssid: 'home' } });
    expect(await readJson(await call(cloud, 'GET', '/store/user/order', victim.token))).toHaveLength(2);
    const sessions = await readJson(await call(cloud, 'GET', `/cloud/user/${victim.id}/session`, victim.token));
    expect(sessions.map((s: Json) => s._id)).toContain(ids.sessionId);
    const offer = await readJson(await call(cloud, 'GET', '/store/offer/victim-offer', victim.token));
    expect(offer.redeemedAt).toBeNull();
    const passkeys = await readJson(await call(cloud, 'GET', '/cloud/user/me/passkeys', victim.token));
    expect(passkeys).toEqual([expect.objectContaining({ name: 'Victim key' })]);
  });
});
