import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Notification {
  id: string;
  ownerUri: string;
  excerpt: string;
  readBy: string[];
  priority: string;
}

describe('notifications manager', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((e) => events.push(e));
  });
  afterAll(() => t.stop());

  it('lists notifications, marks them read per user and deletes them', async () => {
    const first = t.hub.services.notifications.notify({ ownerUri: 'homey:app:com.example.clock', excerpt: 'Alarm set' });
    t.hub.services.notifications.notify({ ownerUri: 'homey:manager:updates', excerpt: 'Update ready', priority: 'WARNING' });
    expect(events.some((e) => e.event === 'notification.create')).toBe(true);
    const list = await t.call<Record<string, Notification>>('GET', '/notifications/notification');
    expect(
      Object.values(list.body)
        .map((n) => n.excerpt)
        .sort(),
    ).toEqual(['Alarm set', 'Update ready']);
    const id = first?.id as string;
    expect(list.body[id]?.readBy).toEqual([]);
    const ownerId = t.hub.context.users.owner()?.id as string;
    const read = await t.call<Notification>('POST', `/notifications/notification/${id}/read`, {});
    expect(read.body.readBy).toEqual([ownerId]);
    expect((await t.call<Notification>('GET', `/notifications/notification/${id}`)).body.readBy).toEqual([ownerId]);
    expect((await t.call('GET', '/notifications/state')).body).toMatchObject({ count: 2, unread: 1 });
    expect((await t.call('DELETE', `/notifications/notification/${id}`)).status).toBe(204);
    expect((await t.call('GET', `/notifications/notification/${id}`)).status).toBe(404);
    expect((await t.call('DELETE', '/notifications/notification?ownerUri=homey:manager:updates')).status).toBe(204);
    expect((await t.call('GET', '/notifications/notification')).body).toEqual({});
  });

  it('keeps owners with enabled and push switches; a disabled owner posts nothing', async () => {
    t.hub.services.notifications.notify({ ownerUri: 'homey:app:com.example.noisy', excerpt: 'Hi' });
    const owners = await t.call<Record<string, { enabled: boolean; push: boolean; name: string }>>('GET', '/notifications/owner');
    expect(owners.body['homey:app:com.example.noisy']).toMatchObject({ enabled: true, push: true, name: 'com.example.noisy' });
    const off = await t.call('PUT', '/notifications/owner/homey:app:com.example.noisy/enabled', { enabled: false });
    expect(off.body).toMatchObject({ enabled: false });
    expect(t.hub.services.notifications.notify({ ownerUri: 'homey:app:com.example.noisy', excerpt: 'Again' })).toBeNull();
    const push = await t.call('PUT', '/notifications/owner/homey:app:com.example.noisy/push', { push: false });
    expect(push.body).toMatchObject({ enabled: false, push: false });
    expect((await t.call('PUT', '/notifications/owner/homey:app:unknown/push', { push: false })).status).toBe(404);
    expect((await t.call('PUT', '/notifications/owner/homey:app:unknown/enabled', { enabled: true })).status).toBe(404);
    const bad = await t.call<{ error_description: string }>('PUT', '/notifications/owner/homey:app:com.example.noisy/push', {
      push: 1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toContain('push');
    expect((await t.call('DELETE', '/notifications/notification?ownerUri=homey:app:unknown')).status).toBe(404);
  });

  it('does not list expired notifications, nor ones for other roles', async () => {
    const soon = t.hub.services.notifications.notify({
      ownerUri: 'homey:manager:system',
      excerpt: 'Short-lived',
      dateExpires: new Date(Date.now() + 300).toISOString(),
    });
    t.hub.services.notifications.notify({ ownerUri: 'homey:manager:system', excerpt: 'Guests only', roles: ['guest'] });
    // The owner is a manager too.
    const managers = t.hub.services.notifications.notify({
      ownerUri: 'homey:manager:system',
      excerpt: 'Managers',
      roles: ['manager'],
    });
    expect((await t.call('GET', `/notifications/notification/${managers?.id}`)).status).toBe(200);
    expect((await t.call('GET', `/notifications/notification/${managers?.id}`, undefined, t.sessionFor('user'))).status).toBe(
      404,
    );
    await t.call('DELETE', `/notifications/notification/${managers?.id}`);
    const now = await t.call<Record<string, Notification>>('GET', '/notifications/notification');
    const system = (body: Record<string, Notification>) =>
      Object.values(body)
        .filter((n) => n.ownerUri === 'homey:manager:system')
        .map((n) => n.excerpt);
    expect(system(now.body)).toEqual(['Short-lived']);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(system((await t.call<Record<string, Notification>>('GET', '/notifications/notification')).body)).toEqual([]);
    expect((await t.call('GET', `/notifications/notification/${soon?.id}`)).status).toBe(404);
  });

  it('keeps private creation to internal sessions, and flows can post through their action card', async () => {
    expect((await t.call('POST', '/notifications/notification', { ownerUri: 'homey:app:x', excerpt: 'x' })).status).toBe(403);
    const run = await t.call<{ notificationId: string }>(
      'POST',
      '/flow/flowcardaction/homey:manager:notifications/create_notification/run',
      { args: { text: 'From a flow' } },
    );
    expect(run.status).toBe(200);
    expect((await t.call<Notification>('GET', `/notifications/notification/${run.body.notificationId}`)).body.excerpt).toBe(
      'From a flow',
    );
    const empty = await t.call<{ error_description: string }>(
      'POST',
      '/flow/flowcardaction/homey:manager:notifications/create_notification/run',
      { args: {} },
    );
    expect(empty.status).toBe(400);
    expect(empty.body.error_description).toContain('args.text');
  });
});
