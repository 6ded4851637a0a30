import { expectLimited, type Fetcher, fetchFrom } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../../server';
import {
  call,
  createUser,
  DEMO_USER,
  describeOnDatabases,
  internalToken,
  type Json,
  readJson,
  signIn,
  startTestCloud,
  TEST_PUBLIC_URL,
  tokenRequest,
} from '../../../testing';

const STRONG = 'plum-orbit-cactus-41';

describeOnDatabases('account: sign-up, verification, e-mail change, sign-out, deletion', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  const sink = () => {
    const found = cloud.context.mail.sink;
    if (!found) throw new Error('the test cloud has no SMTP sink');
    return found;
  };
  /** The one-time token of the newest mail to `to` whose text holds a link to `page`. */
  const linkToken = async (to: string, page: string, after = 0) => {
    const mail = await sink().waitFor(
      (m) => m.to.includes(to) && m.receivedAt.getTime() >= after && m.text.includes(`${TEST_PUBLIC_URL}/${page}#token=`),
    );
    return decodeURIComponent(new RegExp(`/${page}#token=([^\\s]+)`).exec(mail.text)?.[1] ?? '');
  };
  const signUp = (body: Json, from: Fetcher = fetch) => call(cloud, 'POST', '/cloud/signup', null, body, from);
  const person = (email: string) => ({ email, password: STRONG, firstname: 'Sam', lastname: 'Signup', acceptTerms: true });

  it('signs a person up, lets them sign in unverified, and verifies the address by the mailed link once', async () => {
    const started = Date.now();
    const answer = await signUp(person('Sam.Signup@Example.test'));
    expect(answer.status).toBe(202);
    expect(await readJson(answer)).toEqual({ email: 'sam.signup@example.test' });
    const token = await linkToken('sam.signup@example.test', 'verify-email', started);
    expect(token.length).toBeGreaterThan(30);

    const tokens = await signIn(cloud, 'sam.signup@example.test', STRONG);
    const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', tokens.access_token));
    expect(me).toMatchObject({
      email: 'sam.signup@example.test',
      firstname: 'Sam',
      emailVerified: false,
      twoFactorEnabled: false,
    });

    // Unverified accounts cannot take hubs.
    const claim = await call(cloud, 'POST', '/cloud/homey/claim', tokens.access_token, { code: 'not-a-real-claim-code' });
    expect(claim.status).toBe(403);
    expect((await readJson(claim)).error_description).toContain('Verify your e-mail address first');

    const verified = await call(cloud, 'POST', '/cloud/user/verify-email', null, { token });
    expect(verified.status).toBe(200);
    expect(await readJson(verified)).toEqual({ email: 'sam.signup@example.test' });
    const again = await call(cloud, 'POST', '/cloud/user/verify-email', null, { token });
    expect(again.status).toBe(410);
    expect(await readJson(again)).toMatchObject({ error: 'gone' });
    const after = await readJson(await call(cloud, 'GET', '/cloud/user/me', tokens.access_token));
    expect(after.emailVerified).toBe(true);
    const resend = await call(cloud, 'POST', '/cloud/user/me/verify-email', tokens.access_token);
    expect(resend.status).toBe(409);
  });

  it('answers a taken address exactly as a new one, and mails its owner instead of creating anything', async () => {
    const started = Date.now();
    const taken = await signUp({ ...person(DEMO_USER.email), firstname: 'Mallory' });
    const fresh = await signUp(person('someone.new@example.test'));
    expect(taken.status).toBe(202);
    expect(fresh.status).toBe(202);
    expect(Object.keys(await readJson(taken))).toEqual(Object.keys(await readJson(fresh)));
    const note = await sink().waitFor((m) => m.to.includes(DEMO_USER.email) && m.receivedAt.getTime() >= started);
    expect(note.subject).toBe('Your Hearth account');
    expect(note.text).toContain('already has an account');
    expect(note.text).not.toContain('#token=');
    // The demo account is untouched: its own password still signs in, the attacker's does not.
    expect((await signIn(cloud)).access_token).toBeTruthy();
    expect((await tokenRequest(cloud, { grant_type: 'password', username: DEMO_USER.email, password: STRONG })).status).toBe(400);
  });

  it('refuses common and weak passwords and incomplete forms with the field named', async () => {
    const common = await signUp({ ...person('weak@example.test'), password: 'password1' });
    expect(common.status).toBe(400);
    expect(await readJson(common)).toMatchObject({
      error: 'invalid_parameter',
      error_description: expect.stringMatching(/^Invalid Parameter: password\. This is one of the most common passwords/),
    });
    const named = await signUp({ ...person('weak@example.test'), password: 'weak@example.test' });
    expect(named.status).toBe(400);
    const terms = await signUp({ ...person('weak@example.test'), acceptTerms: false });
    expect(terms.status).toBe(400);
    const missing = await signUp({ email: 'weak@example.test', password: STRONG, acceptTerms: true });
    expect(missing.status).toBe(400);
    expect((await readJson(missing)).error_description).toContain('firstname');
    const strength = await call(cloud, 'POST', '/cloud/signup/password-strength', null, { password: 'qwerty123' });
    expect(await readJson(strength)).toMatchObject({ score: 0, acceptable: false });
    const good = await readJson(await call(cloud, 'POST', '/cloud/signup/password-strength', null, { password: STRONG }));
    expect(good).toMatchObject({ acceptable: true, warning: '' });
    expect(good.score).toBeGreaterThanOrEqual(3);
  });

  it('limits sign-ups per address and per network, with Retry-After', async () => {
    const from = fetchFrom('127.0.0.21');
    for (let i = 0; i < 3; i++) expect((await signUp(person('popular@example.test'), from)).status).toBe(202);
    await expectLimited(await signUp(person('popular@example.test'), from), { 'sign-up-email': { q: 3, w: 3600 } });

    const network = fetchFrom('127.0.0.22');
    for (let i = 0; i < 10; i++) expect((await signUp(person(`member-${i}@example.test`), network)).status).toBe(202);
    await expectLimited(await signUp(person('member-10@example.test'), network), { 'sign-up-network': { q: 10, w: 3600 } });
    // Another network is not held.
    expect((await signUp(person('member-10@example.test'), fetchFrom('127.0.0.23'))).status).toBe(202);
  });

  it('moves an account to a new address only when the link mailed there is opened, telling the old one', async () => {
    const { id, token } = await createUser(cloud, 'mover@example.test', STRONG);
    const wrong = await call(cloud, 'POST', '/cloud/user/me/email', token, {
      email: 'moved@example.test',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    const direct = await call(cloud, 'PUT', `/cloud/user/${id}`, token, { user: { email: 'moved@example.test' } });
    expect(direct.status).toBe(400);

    const started = Date.now();
    const asked = await call(cloud, 'POST', '/cloud/user/me/email', token, { email: 'Moved@Example.test', password: STRONG });
    expect(asked.status).toBe(202);
    expect(await readJson(asked)).toEqual({ pendingEmail: 'moved@example.test' });
    const told = await sink().waitFor((m) => m.to.includes('mover@example.test') && m.receivedAt.getTime() >= started);
    expect(told.text).toContain('moved@example.test');
    expect((await readJson(await call(cloud, 'GET', '/cloud/user/me', token))).email).toBe('mover@example.test');

    const link = await linkToken('moved@example.test', 'verify-email', started);
    expect((await call(cloud, 'POST', '/cloud/user/verify-email', null, { token: link })).status).toBe(200);
    expect(await readJson(await call(cloud, 'GET', '/cloud/user/me', token))).toMatchObject({
      email: 'moved@example.test',
      emailVerified: true,
    });
    expect((await signIn(cloud, 'moved@example.test', STRONG)).access_token).toBeTruthy();

    // Asking to move to a taken address answers the same; that address's owner is told, nothing moves.
    const takenAt = Date.now();
    const taken = await call(cloud, 'POST', '/cloud/user/me/email', token, { email: DEMO_USER.email, password: STRONG });
    expect(taken.status).toBe(202);
    const note = await sink().waitFor((m) => m.to.includes(DEMO_USER.email) && m.receivedAt.getTime() >= takenAt);
    expect(note.text).not.toContain('#token=');
  });

  it('signs out this session, or every session', async () => {
    const { token } = await createUser(cloud, 'leaver@example.test', STRONG);
    const other = await signIn(cloud, 'leaver@example.test', STRONG);
    expect((await call(cloud, 'POST', '/cloud/user/me/sign-out', token, {})).status).toBe(204);
    expect((await call(cloud, 'GET', '/cloud/user/me', token)).status).toBe(401);
    expect((await call(cloud, 'GET', '/cloud/user/me', other.access_token)).status).toBe(200);
    const third = await signIn(cloud, 'leaver@example.test', STRONG);
    expect((await call(cloud, 'POST', '/cloud/user/me/sign-out', third.access_token, { everywhere: true })).status).toBe(204);
    expect((await call(cloud, 'GET', '/cloud/user/me', other.access_token)).status).toBe(401);
    expect((await call(cloud, 'GET', '/cloud/user/me', third.access_token)).status).toBe(401);
    expect((await call(cloud, 'POST', '/cloud/user/me/sign-out', null, {})).status).toBe(401);
  });

  it('refuses a weak new password, changes a good one and tells the account', async () => {
    const { token } = await createUser(cloud, 'changer@example.test', STRONG);
    const weak = await call(cloud, 'POST', '/cloud/user/me/password', token, { old_password: STRONG, password: '12345678' });
    expect(weak.status).toBe(400);
    const started = Date.now();
    const changed = await call(cloud, 'POST', '/cloud/user/me/password', token, {
      old_password: STRONG,
      password: 'violet-harbour-tram-7',
    });
    expect(changed.status).toBe(204);
    const notice = await sink().waitFor((m) => m.to.includes('changer@example.test') && m.receivedAt.getTime() >= started);
    expect(notice.subject).toBe('Your Hearth password changed');
  });

  describe('deletion', () => {
    it('needs the password, releases owned hubs with their household, removes the data and confirms by mail', async () => {
      const internal = await internalToken(cloud);
      const owner = await createUser(cloud, 'owner-to-go@example.test', STRONG);
      const member = await createUser(cloud, 'stays@example.test', STRONG);
      const registered = await readJson(
        await call(cloud, 'POST', '/cloud/homey/', internal, { data: { name: 'Cabin', model: 'hearth-pro-5q' } }),
      );
      const hubId = registered.homey._id as string;
      expect((await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: registered.claimToken })).status).toBe(200);
      expect(
        (await call(cloud, 'POST', `/cloud/homey/${hubId}/user`, owner.token, { user: member.id, role: 'user' })).status,
      ).toBe(200);

      const missing = await call(cloud, 'DELETE', `/cloud/user/${owner.id}`, owner.token, {});
      expect(missing.status).toBe(400);
      const wrong = await call(cloud, 'DELETE', `/cloud/user/${owner.id}`, owner.token, { password: 'not-it-at-all' });
      expect(wrong.status).toBe(401);
      expect((await call(cloud, 'DELETE', `/cloud/user/${owner.id}`, member.token, { password: STRONG })).status).toBe(403);

      const started = Date.now();
      expect((await call(cloud, 'DELETE', `/cloud/user/${owner.id}`, owner.token, { password: STRONG })).status).toBe(204);
      const confirmation = await sink().waitFor(
        (m) => m.to.includes('owner-to-go@example.test') && m.receivedAt.getTime() >= started,
      );
      expect(confirmation.subject).toBe('Your Hearth account is deleted');
      expect(confirmation.text).toContain('Cabin');

      expect((await call(cloud, 'GET', '/cloud/user/me', owner.token)).status).toBe(401);
      expect(
        (await tokenRequest(cloud, { grant_type: 'password', username: 'owner-to-go@example.test', password: STRONG })).status,
      ).toBe(400);
      const hub = await readJson(await call(cloud, 'GET', `/cloud/homey/${hubId}`, internal));
      expect(hub).toMatchObject({ state: 'released', users: [] });
      const memberView = await readJson(await call(cloud, 'GET', '/cloud/user/me', member.token));
      expect(memberView.homeys).toEqual([]);
      const { db } = cloud.context.database;
      for (const table of ['oauth_tokens', 'user_devices', 'user_addresses', 'subscriptions', 'recovery_codes'] as const)
        expect(await db.selectFrom(table).select('user_id').where('user_id', '=', owner.id).execute()).toEqual([]);
    });
  });
});
