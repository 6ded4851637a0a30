import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

const noDays = {
  monday: false,
  tuesday: false,
  wednesday: false,
  thursday: false,
  friday: false,
  saturday: false,
  sunday: false,
};

describe('mobile manager', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((e) => events.push(e));
  });
  afterAll(() => t.stop());

  it('summarises the home for the caller', async () => {
    await t.call('PUT', '/presence/me/present', { value: true });
    await t.call('POST', '/alarms/alarm', { name: 'Wake', time: '07:00', repetition: { ...noDays, friday: true } });
    await t.call('POST', '/logic/variable', { name: 'v', type: 'boolean', value: true });
    await t.call('POST', '/flow/flow', {
      name: 'f',
      trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
      conditions: [],
      actions: [],
    });
    const summary = await t.call<Record<string, unknown>>('GET', '/mobile/summary');
    expect(summary.body).toMatchObject({
      name: 'Test hub',
      usersPresent: 1,
      usersAsleep: 0,
      notificationsUnread: 0,
      alarmsEnabled: 1,
      flows: 1,
      variables: 1,
    });
    expect(new Date(summary.body.nextAlarm as string).getDay()).toBe(5);
  });

  it('records mobile events with homey.presence.self alone', async () => {
    const owner = t.hub.context.users.owner();
    const narrow = t.hub.context.sessions.create({
      type: 'PAT',
      userId: owner?.id as string,
      scopes: ['homey.presence.self'],
    }).token;
    const sent = await t.call<{ id: string; event: string }>(
      'POST',
      '/mobile/event',
      { event: 'geofence_enter', data: { radius: 100 } },
      narrow,
    );
    expect(sent.status).toBe(200);
    expect(sent.body.event).toBe('geofence_enter');
    expect(events.find((e) => e.uri === 'homey:manager:mobile')?.data).toMatchObject({
      event: 'geofence_enter',
      data: { radius: 100 },
    });
    expect((await t.call('GET', '/mobile/state')).body).toMatchObject({ events: 1, lastEvent: { event: 'geofence_enter' } });
    expect((await t.call('POST', '/mobile/event', { event: 'x' }, null)).status).toBe(401);
    const bad = await t.call<{ error_description: string }>('POST', '/mobile/event', {});
    expect(bad.body.error_description).toBe('Missing Parameter: event');
  });
});
