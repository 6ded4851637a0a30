import { expectLimited, failRepeatedly, fetchFrom } from '@hearth/contract/testing';
import { expect, it } from 'vitest';
import { createUser, DEMO_CLIENTS, openSignInPage, pkcePair, readJson, submitSignIn, TEST_PUBLIC_URL } from '../../testing';
import { describeSignInThrottle } from './throttle-suite';

// The throttle by address (the account-side limits are in throttle-account.test.ts): credential stuffing from an
// address many people share must not lock out those who know their password.
// Each test plays its clients from addresses of its own (127.0.0.x all reach the cloud on 127.0.0.1), so the
// attacker and the rightful user are told apart the way the cloud tells them apart: by address.

describeSignInThrottle('Sign-in throttle by address', 'password grant and sign-in page', (suite) => {
  const { password, skip } = suite;

  it('lets the rightful user in where others were guessed from the same address, and slows new accounts there', async () => {
    const shared = fetchFrom('127.0.0.3');
    await createUser(suite.cloud, 'regular@hearth.test', 'regular-password');
    await createUser(suite.cloud, 'newcomer@hearth.test', 'newcomer-password');
    expect((await password('regular@hearth.test', 'regular-password', shared)).status).toBe(200);

    // Credential stuffing from the address everyone shares: 22 accounts, unknown ones among them.
    const held = await failRepeatedly(22, (i) => password(`stuffed-${i}@hearth.test`, 'leaked-password', shared), skip);
    expect(held).toBeGreaterThan(0);

    const rightful = await password('regular@hearth.test', 'regular-password', shared);
    expect(rightful.status).toBe(200);
    expect(await readJson(rightful)).toMatchObject({ access_token: expect.any(String) });

    const newcomer = await password('newcomer@hearth.test', 'newcomer-password', shared);
    await expectLimited(newcomer, { 'sign-in-address': { q: 20, w: 3600 } });
    // Elsewhere the newcomer is not held at all.
    expect((await password('newcomer@hearth.test', 'newcomer-password', fetchFrom('127.0.0.4'))).status).toBe(200);
  });

  it('signs the rightful user in on the sign-in page after others were guessed from the same address', async () => {
    const office = fetchFrom('127.0.0.10');
    const query = {
      client_id: DEMO_CLIENTS.supportForm.id,
      redirect_uri: `${TEST_PUBLIC_URL}/support/`,
      response_type: 'code',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    };
    const onPage = async (email: string, secret: string) => {
      const { cookie, csrf } = await openSignInPage(suite.cloud, query, office);
      return submitSignIn(suite.cloud, cookie, { ...query, csrf, email, password: secret }, office);
    };
    await createUser(suite.cloud, 'page@hearth.test', 'page-password');
    await createUser(suite.cloud, 'page-newcomer@hearth.test', 'newcomer-password');
    expect((await onPage('page@hearth.test', 'page-password')).status).toBe(302);

    await failRepeatedly(22, (i) => onPage(`page-stuffed-${i}@hearth.test`, 'leaked-password'), skip);

    const rightful = await onPage('page@hearth.test', 'page-password');
    expect(rightful.status).toBe(302);
    expect(rightful.headers.get('location')).toMatch(/^http:\/\/hearth-cloud\.test\/support\/\?code=/);

    const newcomer = await onPage('page-newcomer@hearth.test', 'newcomer-password');
    await expectLimited(newcomer, { 'sign-in-address': { q: 20, w: 3600 } });
    expect(await newcomer.text()).toContain('Too many failed sign-ins. Try again in');
  });
});
