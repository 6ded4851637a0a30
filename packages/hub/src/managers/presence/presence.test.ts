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

  it('leaves the flag as it is when the value is omitted, on every setter', async () => {
    const member = t.hub.context.users.create({ name: 'Member', role: 'user' });
    const setters = [
      { path: '/presence/me/present', read: `/presence/${ownerId}/present` },
      { path: '/presence/me/asleep', read: `/presence/${ownerId}/asleep` },
      { path: `/presence/${member.id}/present`, read: `/presence/${member.id}/present` },
      { path: `/presence/${member.id}/asleep`, read: `/presence/${member.id}/asleep` },
    ];
    for (const { path, read } of setters) {
      for (const value of [true, false]) {
        expect((await t.call('PUT', path, { value })).body).toBe(value);
        const before = events.length;
        const omitted = await t.call('PUT', path, {});
        expect(omitted.status).toBe(200);
        expect(omitted.body).toBe(value);
        expect((await t.call('GET', read)).body).toBe(value);
        // Nothing was written, so neither the user store nor the presence manager announces anything.
        expect(events.length).toBe(before);
      }
    }
  });

  it('still fires a forced trigger without a value, keeping the flag', async () => {
    await t.call('PUT', '/presence/me/asleep', { value: true });
    const before = events.filter((e) => e.event === 'presence.update').length;
    const answer = await t.call('PUT', '/presence/me/asleep', { opts: { forceFlowTrigger: true } });
    expect(answer.body).toBe(true);
    const published = events.filter((e) => e.event === 'presence.update');
    expect(published.length).toBe(before + 1);
    expect(published.at(-1)?.data).toMatchObject({ id: ownerId, asleep: true, changed: 'asleep', forced: true });
    expect(t.hub.context.users.get(ownerId)?.asleep).toBe(true);
  });

  it('validates the value and answers 404 for unknown users', async () => {
    const wrong = await t.call<{ error_description: string }>('PUT', '/presence/me/present', { value: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain('value');
    const guest = t.hub.context.users.create({ name: 'Other guest', role: 'guest' });
    for (const path of ['/presence/me/asleep', `/presence/${guest.id}/present`, `/presence/${guest.id}/asleep`]) {
      const invalid = await t.call<{ error_description: string }>('PUT', path, { value: 1 });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error_description).toContain('value');
    }
    expect(t.hub.context.users.get(guest.id)).toMatchObject({ present: false, asleep: false });
    expect((await t.call('GET', '/presence/nobody/present')).status).toBe(404);
    expect((await t.call('PUT', '/presence/nobody/asleep', { value: true })).status).toBe(404);
    expect((await t.call('GET', '/presence/nobody/asleep')).status).toBe(404);
  });
});
