import { expectLimited, type Fetcher, failRepeatedly, fetchFrom, skippingClock } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

// Local sign-in follows the cloud's rules (SignInThrottle). Clients play from addresses of their own: every
// 127.x.y.z reaches the hub on 127.0.0.1.

describe('POST /api/manager/users/login-local throttling', () => {
  let t: TestHub;
  // The holds are measured on the hub's clock: the tests move it past them instead of sleeping.
  const { clock, skip } = skippingClock();
  beforeAll(async () => {
    t = await startTestHub({}, { clock });
  });
  afterAll(() => t.stop());

  const login = (username: string, password: string, via: Fetcher) =>
    via(`${t.url}/api/manager/users/login-local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-homey-id': t.hub.context.config.id },
      body: JSON.stringify({ username, password, clientId: 'test', clientName: 'Test' }),
    });

  async function localUser(username: string, password: string) {
    const user = t.hub.context.users.create({ name: username, role: 'user' });
    expect(await t.hub.context.users.setCredentials(user.id, username, password)).toBe('ok');
  }

  it('lets the rightful user in where others were guessed from the same address, and slows new names there', async () => {
    await localUser('resident', 'resident-password');
    await localUser('newcomer', 'newcomer-password');
    const shared = fetchFrom('127.0.0.3');
    expect((await login('resident', 'resident-password', shared)).status).toBe(200);

    const held = await failRepeatedly(22, (i) => login(`guessed-${i}`, 'leaked-password', shared), skip);
    expect(held).toBeGreaterThan(0);

    const rightful = await login('resident', 'resident-password', shared);
    expect(rightful.status).toBe(200);
    expect(typeof (await rightful.json())).toBe('string');

    const newcomer = await login('newcomer', 'newcomer-password', shared);
    await expectLimited(newcomer, { 'sign-in-address': { q: 20, w: 3600 } });
    expect((await login('newcomer', 'newcomer-password', fetchFrom('127.0.0.4'))).status).toBe(200);
  });

  it('keeps the rightful user signing in while their name is guessed from other addresses', async () => {
    await localUser('target', 'target-password');
    expect((await login('target', 'target-password', fetchFrom('127.0.0.5'))).status).toBe(200);
    for (const address of ['127.0.0.6', '127.0.0.7']) {
      const attacker = fetchFrom(address);
      for (let i = 0; i < 5; i++) expect((await login('target', `guess-${i}`, attacker)).status).toBe(401);
    }
    expect(await failRepeatedly(2, (i) => login('target', `more-${i}`, fetchFrom('127.0.0.8')), skip)).toBe(2);
    await expectLimited(await login('target', 'guess-next', fetchFrom('127.0.0.9')), { 'sign-in-account': { q: 10, w: 3600 } });
    expect((await login('target', 'target-password', fetchFrom('127.0.0.5'))).status).toBe(200);
  });

  it('holds a name at one address for seconds after five failures, and a success there clears it', async () => {
    await localUser('typist', 'typist-password');
    const tablet = fetchFrom('127.0.0.10');
    for (let i = 0; i < 5; i++) expect((await login('typist', `typo-${i}`, tablet)).status).toBe(401);
    const held = await login('typist', 'typist-password', tablet);
    expect(await expectLimited(held, { 'sign-in-account-address': { q: 5, w: 3600 } })).toBe(1);
    await skip(1100);
    expect((await login('typist', 'typist-password', tablet)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login('typist', `again-${i}`, tablet)).status).toBe(401);
  });

  it('no longer answers a flood of guesses at full speed', async () => {
    const flood = fetchFrom('127.0.0.11');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login('resident', `flood-${i}`, flood)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
  });
});
