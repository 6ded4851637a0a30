import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('presence manager', () => {
  let t: TestHub;
  let ownerId: string;
  const events: HubEvent[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    ownerId = t.hub.context.users.owner()?.id as string;
    t.hub.context.events.on((e) => events.push(e));
  });
  afterAll(() => t.stop());

  it("sets and reads the caller's and another user's flags", async () => {
    expect((await t.call('GET', `/presence/${ownerId}/present`)).body).toBe(false);
    expect((await t.call('PUT', '/presence/me/present', { value: true })).body).toBe(true);
    expect((await t.call('GET', `/presence/${ownerId}/present`)).body).toBe(true);
    expect(t.hub.context.users.get(ownerId)?.present).toBe(true);
    expect(events.find((e) => e.event === 'presence.update')?.data).toMatchObject({
      id: ownerId,
      present: true,
      changed: 'present',
    });
    expect(events.some((e) => e.event === 'user.update' && e.uri === 'homey:manager:users')).toBe(true);

    const guest = t.hub.context.users.create({ name: 'Guest', role: 'guest' });
    expect((await t.call('PUT', `/presence/${guest.id}/asleep`, { value: true })).body).toBe(true);
    expect((await t.call('GET', `/presence/${guest.id}/asleep`)).body).toBe(true);
    expect((await t.call('PUT', `/presence/${guest.id}/present`, { value: true })).body).toBe(true);
    expect((await t.call('PUT', '/presence/me/asleep', { value: false })).body).toBe(false);
    expect((await t.call('GET', '/presence/state')).body).toMatchObject({ present: 2, asleep: 1 });
  });

  it('publishes an unchanged value only when forced', async () => {
    const before = events.filter((e) => e.event === 'presence.update').length;
    await t.call('PUT', '/presence/me/present', { value: true });
    expect(events.filter((e) => e.event === 'presence.update').length).toBe(before);
    await t.call('PUT', '/presence/me/present', { value: true, opts: { forceFlowTrigger: true } });
    expect(events.filter((e) => e.event === 'presence.update').length).toBe(before + 1);
  });

  it('validates the value and answers 404 for unknown users', async () => {
    const wrong = await t.call<{ error_description: string }>('PUT', '/presence/me/present', { value: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain('value');
    expect((await t.call<{ error_description: string }>('PUT', '/presence/me/asleep', {})).body.error_description).toBe(
      'Missing Parameter: value',
    );
    expect((await t.call('GET', '/presence/nobody/present')).status).toBe(404);
    expect((await t.call('PUT', '/presence/nobody/asleep', { value: true })).status).toBe(404);
    expect((await t.call('GET', '/presence/nobody/asleep')).status).toBe(404);
  });
});
