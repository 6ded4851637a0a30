import { expectLimited, type Fetcher, fetchFrom } from '@hearth/contract/testing';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Cloud } from '../../../server';
import {
  call,
  createUser,
  DEMO_CLIENTS,
  describeOnDatabases,
  openSignInPage,
  pkcePair,
  readJson,
  startTestCloud,
  submitSignIn,
  tokenRequest,
} from '../../../testing';

const PASSWORD = 'plum-orbit-cactus-41';

/** The code an authenticator app shows `steps` periods from now. */
const codeAt = (secret: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

describeOnDatabases('two-factor sign-in', (backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());
  afterEach(() => {
    vi.useRealTimers();
  });

  const grant = (email: string, fields: Record<string, string> = {}, via: Fetcher = fetch) =>
    tokenRequest(cloud, { grant_type: 'password', username: email, password: PASSWORD, ...fields }, DEMO_CLIENTS.demo, via);

  it('is set up from a QR code, then asked for by the password grant and the sign-in page, each code once', async () => {
    // The clock stands still in the middle of a 30 s step, so every code the test works out belongs to the step the
    // cloud checks it in (a step ending between the two made the cloud see a code two steps old, now and then).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 30_000) * 30_000 + 15_000);
    const { token } = await createUser(cloud, 'careful@example.test', PASSWORD);
    expect(await readJson(await call(cloud, 'GET', '/cloud/user/me/two-factor', token))).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const setup = await readJson(await call(cloud, 'POST', '/cloud/user/me/two-factor/setup', token));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/Hearth:careful%40example\.test\?/);
    expect(setup.uri).toContain(`secret=${setup.secret}`);
    expect(setup.qrSvg).toMatch(/^<svg[^>]*>/);
    // Nothing changes before a code confirms it.
    expect((await grant('careful@example.test')).status).toBe(200);

    const wrong = await call(cloud, 'POST', '/cloud/user/me/two-factor', token, { code: '000000' });
    expect(wrong.status).toBe(401);
    // Kept, not computed again: a 30 s boundary passing mid-test would make a later codeAt(-1) another, unused code.
    const enabling = codeAt(setup.secret, -1);
    const enabled = await call(cloud, 'POST', '/cloud/user/me/two-factor', token, { code: enabling });
    expect(enabled.status).toBe(200);
    const { recoveryCodes } = await readJson(enabled);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await readJson(await call(cloud, 'GET', '/cloud/user/me/two-factor', token))).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    expect((await readJson(await call(cloud, 'GET', '/cloud/user/me', token))).twoFactorEnabled).toBe(true);
    // Stored hashed: no code appears in the table.
    const stored = await cloud.context.database.db.selectFrom('recovery_codes').select('code_hash').execute();
    for (const code of recoveryCodes) expect(stored.map((row) => row.code_hash)).not.toContain(code);
    expect((await call(cloud, 'POST', '/cloud/user/me/two-factor/setup', token)).status).toBe(409);

    // The password grant: without a code, with a wrong one, with the code already used, then a fresh one.
    const bare = await grant('careful@example.test');
    expect(bare.status).toBe(401);
    expect(await readJson(bare)).toMatchObject({ error: 'two_factor_required' });
    expect((await grant('careful@example.test', { otp: '123456' })).status).toBe(400);
    expect((await grant('careful@example.test', { otp: enabling })).status).toBe(400);
    expect((await grant('careful@example.test', { otp: codeAt(setup.secret, 0) })).status).toBe(200);

    // A recovery code works once.
    expect((await grant('careful@example.test', { otp: recoveryCodes[0].toUpperCase() })).status).toBe(200);
    expect((await grant('careful@example.test', { otp: recoveryCodes[0] })).status).toBe(400);

    // The sign-in page asks for the code after the password.
    const { verifier, challenge } = pkcePair();
    const query = {
      client_id: DEMO_CLIENTS.supportForm.id,
      redirect_uri: `${cloud.context.config.publicUrl}/support/`,
      response_type: 'code',
      state: 'two-factor',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const opened = await openSignInPage(cloud, query);
    const passwordStep = await submitSignIn(cloud, opened.cookie, {
      ...query,
      csrf: opened.csrf,
      email: 'careful@example.test',
      password: PASSWORD,
    });
    expect(passwordStep.status).toBe(200);
    const codePage = await passwordStep.text();
    expect(codePage).toContain('Enter your code');
    expect(codePage).toContain('autocomplete="one-time-code"');
    const step = /name="two_factor" value="([^"]+)"/.exec(codePage)?.[1] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(codePage)?.[1] as string;
    const cookie = (passwordStep.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const wrongCode = await submitSignIn(cloud, cookie, { ...query, csrf, two_factor: step, code: '999999' });
    expect(wrongCode.status).toBe(401);
    const retry = await wrongCode.text();
    expect(retry).toContain('That code is not correct');
    const retryCsrf = /name="csrf" value="([^"]+)"/.exec(retry)?.[1] as string;
    const retryCookie = (wrongCode.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const done = await submitSignIn(cloud, retryCookie, {
      ...query,
      csrf: retryCsrf,
      two_factor: step,
      code: codeAt(setup.secret, 1),
    });
    expect(done.status).toBe(302);
    const code = new URL(done.headers.get('location') as string).searchParams.get('code') as string;
    const exchanged = await tokenRequest(
      cloud,
      { grant_type: 'authorization_code', code, code_verifier: verifier },
      { id: DEMO_CLIENTS.supportForm.id },
    );
    expect(exchanged.status).toBe(200);
    // The step's token worked once.
    const replayed = await submitSignIn(cloud, retryCookie, {
      ...query,
      csrf: retryCsrf,
      two_factor: step,
      code: recoveryCodes[1],
    });
    expect(await replayed.text()).toContain('Your sign-in expired');

    // New recovery codes replace the old ones; turning it off needs the password and a code.
    const regenerated = await call(cloud, 'POST', '/cloud/user/me/two-factor/recovery-codes', token, {
      password: PASSWORD,
      code: recoveryCodes[2],
    });
    expect(regenerated.status).toBe(200);
    const fresh = (await readJson(regenerated)).recoveryCodes as string[];
    expect((await grant('careful@example.test', { otp: recoveryCodes[3] })).status).toBe(400);
    const noPassword = await call(cloud, 'DELETE', '/cloud/user/me/two-factor', token, {
      password: 'wrong-one-1',
      code: fresh[0],
    });
    expect(noPassword.status).toBe(401);
    const noCode = await call(cloud, 'DELETE', '/cloud/user/me/two-factor', token, { password: PASSWORD });
    expect(noCode.status).toBe(400);
    expect((await call(cloud, 'DELETE', '/cloud/user/me/two-factor', token, { password: PASSWORD, code: fresh[0] })).status).toBe(
      204,
    );
    expect(await readJson(await call(cloud, 'GET', '/cloud/user/me/two-factor', token))).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expect((await grant('careful@example.test')).status).toBe(200);
  });

  it('slows guessing of codes', async () => {
    const { token } = await createUser(cloud, 'guessed@example.test', PASSWORD);
    const setup = await readJson(await call(cloud, 'POST', '/cloud/user/me/two-factor/setup', token));
    await call(cloud, 'POST', '/cloud/user/me/two-factor', token, { code: codeAt(setup.secret, 0) });
    const guesser = fetchFrom('127.0.0.31');
    for (let i = 0; i < 5; i++) expect((await grant('guessed@example.test', { otp: `00000${i}` }, guesser)).status).toBe(400);
    await expectLimited(await grant('guessed@example.test', { otp: '000005' }, guesser), {
      'sign-in-account-address': { q: 5, w: 3600 },
    });
  });

  it('asks for the code when deleting an account that has two-factor sign-in', async () => {
    const { id, token } = await createUser(cloud, 'leaving-safely@example.test', PASSWORD);
    const setup = await readJson(await call(cloud, 'POST', '/cloud/user/me/two-factor/setup', token));
    const { recoveryCodes } = await readJson(
      await call(cloud, 'POST', '/cloud/user/me/two-factor', token, { code: codeAt(setup.secret, 0) }),
    );
    const withoutCode = await call(cloud, 'DELETE', `/cloud/user/${id}`, token, { password: PASSWORD });
    expect(withoutCode.status).toBe(401);
    expect(await readJson(withoutCode)).toMatchObject({ error: 'two_factor_required' });
    expect(
      (await call(cloud, 'DELETE', `/cloud/user/${id}`, token, { password: PASSWORD, code: 'aaaa-bbbb-cccc-dddd' })).status,
    ).toBe(401);
    expect((await call(cloud, 'DELETE', `/cloud/user/${id}`, token, { password: PASSWORD, code: recoveryCodes[0] })).status).toBe(
      204,
    );
    expect(
      await cloud.context.database.db.selectFrom('recovery_codes').select('user_id').where('user_id', '=', id).execute(),
    ).toEqual([]);
  });
});
