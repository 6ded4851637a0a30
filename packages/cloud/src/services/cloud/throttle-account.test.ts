import { expectLimited, failRepeatedly, fetchFrom } from '@hearth/contract/testing';
import { expect, it } from 'vitest';
import { createUser } from '../../testing';
import { describeSignInThrottle } from './throttle-suite';

// The throttle by account and by account at an address (the address-wide limit is in throttle-address.test.ts).
// Each test plays its clients from addresses of its own (127.0.0.x all reach the cloud on 127.0.0.1), so the
// attacker and the rightful user are told apart the way the cloud tells them apart: by address.

describeSignInThrottle('Sign-in throttle by account', 'password grant', (suite) => {
  const { password, skip } = suite;

  it('keeps the rightful user signing in while their account is guessed from other addresses', async () => {
    await createUser(suite.cloud, 'victim@hearth.test', 'victim-password');
    // Guesses from two addresses, five each (each address's own allowance), then more from a third.
    for (const address of ['127.0.0.5', '127.0.0.6']) {
      const attacker = fetchFrom(address);
      for (let i = 0; i < 5; i++) expect((await password('victim@hearth.test', `guess-${i}`, attacker)).status).toBe(400);
    }
    const third = fetchFrom('127.0.0.7');
    expect(await failRepeatedly(2, (i) => password('victim@hearth.test', `more-${i}`, third), skip)).toBe(2);
    const next = await password('victim@hearth.test', 'guess-next', fetchFrom('127.0.0.8'));
    await expectLimited(next, { 'sign-in-account': { q: 10, w: 3600 } });

    // From where they signed in before, the rightful user is not held by the account's penalty.
    const rightful = await password('victim@hearth.test', 'victim-password', fetch);
    expect(rightful.status).toBe(200);
    // Their sign-in does not forgive the attackers.
    expect((await password('victim@hearth.test', 'guess-again', fetchFrom('127.0.0.8'))).status).toBe(429);
  });

  it('holds an account at one address for seconds after five failures, and a success there clears it', async () => {
    await createUser(suite.cloud, 'typist@hearth.test', 'typist-password');
    const laptop = fetchFrom('127.0.0.9');
    for (let i = 0; i < 5; i++) expect((await password('typist@hearth.test', `typo-${i}`, laptop)).status).toBe(400);
    const held = await password('typist@hearth.test', 'typist-password', laptop);
    expect(await expectLimited(held, { 'sign-in-account-address': { q: 5, w: 3600 } })).toBe(1);

    await skip(1100);
    expect((await password('typist@hearth.test', 'typist-password', laptop)).status).toBe(200);
    // The success cleared this address's penalty: five more typos are free again.
    for (let i = 0; i < 5; i++) expect((await password('typist@hearth.test', `again-${i}`, laptop)).status).toBe(400);
  });
});
