import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { FakeClock } from './clock';

const START = Date.parse('2031-01-02T03:04:05.000Z');
const HOUR = 3_600_000;

/**
 * The hub reads the time from its context's clock, not the machine's: on a clock set years ahead, what the hub
 * records and answers carries the clock's time, and expiry follows the clock.
 */
describe("the hub's records and expiries follow its clock", () => {
  let t: TestHub;
  const clock = new FakeClock(START);

  beforeAll(async () => {
    t = await startTestHub({}, { clock });
  });
  afterAll(() => t.stop());

  it('stamps what it records with the clock’s time', async () => {
    const event = await t.call<{ receivedAt: string }>('POST', '/mobile/event', { event: 'app_opened' });
    expect(event.body.receivedAt).toBe('2031-01-02T03:04:05.000Z');

    await clock.set(START + 24 * HOUR);
    const flow = await t.call<{ id: string }>('POST', '/flow/flow', {
      name: 'Shared',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions: [],
      actions: [],
    });
    const share = await t.call<{ createdAt: string }>('POST', `/flow/flow/${flow.body.id}/share`);
    expect(share.body.createdAt).toBe('2031-01-03T03:04:05.000Z');

    const notification = t.hub.services.notifications.notify({ ownerUri: 'homey:manager:system', excerpt: 'Clock check' });
    expect(notification?.dateCreated).toBe('2031-01-03T03:04:05.000Z');
  });

  it('ends a session when the clock passes its expiry, whatever the machine’s time', async () => {
    const owner = t.hub.context.users.owner();
    const { token } = t.hub.context.sessions.create({
      type: 'OAUTH',
      userId: owner?.id as string,
      scopes: ['homey'],
      expiresAt: new Date(clock.now() + HOUR).toISOString(),
    });
    expect((await t.call('GET', '/sessions/session/me', undefined, token)).status).toBe(200);
    await clock.set(clock.now() + 2 * HOUR);
    expect((await t.call('GET', '/sessions/session/me', undefined, token)).status).toBe(401);
  });
});
