import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

interface User {
  id: string;
  name: string;
  role: string;
  athomId: string | null;
  verified: boolean;
  present: boolean;
  asleep: boolean;
  properties: Record<string, unknown>;
  inviteToken?: string;
}

describe('users manager over HTTP', () => {
  let t: TestHub;
  const events: HubEvent[] = [];

  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((event) => events.push(event));
  });
  afterAll(() => t.stop());

  it('answers the caller as me, and changes its name and properties', async () => {
    const me = await t.call<User>('GET', '/users/user/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'owner', enabled: true, present: false, asleep: false, properties: {} });
    const renamed = await t.call<User>('PUT', '/users/user/me', { name: 'Robin' });
    expect(renamed.body.name).toBe('Robin');
    expect((await t.call('PUT', '/users/user/me', { name: 42 })).body).toMatchObject({ error: 'invalid_parameter_type' });

    const withProperty = await t.call<User>('PUT', '/users/user/me/properties/dashboard', { value: { theme: 'dark' } });
    expect(withProperty.body.properties).toEqual({ dashboard: { theme: 'dark' } });
    const missingValue = await t.call('PUT', '/users/user/me/properties/dashboard', {});
    expect(missingValue.body).toMatchObject({ statusCode: 400, error_description: 'Missing Parameter: value' });
    const removed = await t.call<User>('DELETE', '/users/user/me/properties/dashboard');
    expect(removed.body.properties).toEqual({});
    expect((await t.call('DELETE', '/users/user/me/properties/dashboard')).status).toBe(404);
    expect((await t.call('DELETE', '/users/user/me')).status).toBe(403);
  });

  it('invites a user with a role, who accepts once; the owner can hand the hub over', async () => {
    const noRole = await t.call('POST', '/users/user', { name: 'Kim' });
    expect(noRole.body).toMatchObject({ statusCode: 400, error_description: 'Missing Parameter: role' });
    expect((await t.call('POST', '/users/user', { name: 'Kim', role: 'owner' })).status).toBe(400);

    const invited = await t.call<User>('POST', '/users/user', { name: 'Kim', role: 'user' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ name: 'Kim', role: 'user', verified: false, athomId: null });
    expect(invited.body.inviteToken).toMatch(/^[\w-]{20,}$/);
    expect(events.at(-1)).toMatchObject({ uri: 'homey:manager:users', event: 'user.create', scope: 'homey.user.readonly' });
    expect((await t.call<User>('GET', `/users/user/${invited.body.id}`)).body.inviteToken).toBeUndefined();

    const wrong = await t.call('POST', '/users/accept', { inviteToken: 'wrong', athomId: 'cloud-kim' }, null);
    expect(wrong.status).toBe(404);
    const accepted = await t.call<User>(
      'POST',
      '/users/accept',
      { secret: invited.body.inviteToken, athomId: 'cloud-kim', name: 'Kim K' },
      null,
    );
    expect(accepted.body).toMatchObject({ id: invited.body.id, athomId: 'cloud-kim', verified: true, name: 'Kim K' });
    const again = await t.call('POST', '/users/accept', { inviteToken: invited.body.inviteToken, athomId: 'cloud-kim' }, null);
    expect(again.status).toBe(404);

    const users = await t.call<Record<string, User>>('GET', '/users/user');
    expect(Object.keys(users.body)).toHaveLength(2);

    const promoted = await t.call<User>('PUT', `/users/user/${invited.body.id}`, { role: 'manager' });
    expect(promoted.body.role).toBe('manager');
    const owner = t.hub.context.users.owner()!;
    expect((await t.call('PUT', `/users/user/${owner.id}`, { role: 'guest' })).status).toBe(400);
    expect((await t.call('DELETE', `/users/user/${owner.id}`)).status).toBe(403);

    const kimToken = t.hub.context.sessions.create({ type: 'OAUTH', userId: invited.body.id, scopes: null }).token;
    const notOwner = await t.call('POST', '/users/swap-owner', { newOwnerUserId: owner.id }, kimToken);
    expect(notOwner.status).toBe(403);
    expect((await t.call('PUT', `/users/user/${owner.id}`, { name: 'Hijack' }, kimToken)).status).toBe(403);
    const swapped = await t.call<User>('POST', '/users/swap-owner', { newOwnerUserId: invited.body.id });
    expect(swapped.body).toMatchObject({ id: invited.body.id, role: 'owner' });
    expect(t.hub.context.users.get(owner.id)?.role).toBe('manager');
    // Hand it back so the other tests keep their owner.
    await t.call('POST', '/users/swap-owner', { newOwnerUserId: owner.id }, kimToken);
    expect(t.hub.context.users.owner()?.id).toBe(owner.id);
  });

  it('stores presence and asleep flags and publishes them', async () => {
    const owner = t.hub.context.users.owner()!;
    t.hub.context.users.setPresent(owner.id, true);
    t.hub.context.users.setAsleep(owner.id, true);
    expect((await t.call<User>('GET', '/users/user/me')).body).toMatchObject({ present: true, asleep: true });
    expect(events.at(-1)).toMatchObject({ event: 'user.update', data: { id: owner.id, asleep: true } });
  });

  it("shows other users' properties only to owners and managers, and deletes users with their sessions", async () => {
    const guest = t.hub.context.users.create({ name: 'Guest', role: 'guest', properties: { secret: 1 } });
    const guestToken = t.hub.context.sessions.create({ type: 'OAUTH', userId: guest.id, scopes: null }).token;
    const owner = t.hub.context.users.owner()!;
    t.hub.context.users.update(owner.id, { properties: { private: true } });
    const seen = await t.call<User>('GET', `/users/user/${owner.id}`, undefined, guestToken);
    expect(seen.status).toBe(200);
    expect(seen.body.properties).toEqual({});
    expect((await t.call<User>('GET', `/users/user/${guest.id}`)).body.properties).toEqual({ secret: 1 });
    expect((await t.call('DELETE', `/users/user/${guest.id}`, undefined, guestToken)).status).toBe(403);
    expect((await t.call('DELETE', `/users/user/${guest.id}`)).status).toBe(204);
    expect((await t.call('GET', '/users/user/me', undefined, guestToken)).status).toBe(401);
  });

  it('signs in with local credentials', async () => {
    const user = t.hub.context.users.create({ name: 'Local', role: 'user' });
    const userToken = t.hub.context.sessions.create({ type: 'OAUTH', userId: user.id, scopes: null }).token;
    const short = await t.call('PUT', '/users/user/me/local-credentials', { username: 'local', password: 'short' }, userToken);
    expect(short.status).toBe(400);
    expect((short.body as { error_description: string }).error_description).toContain('password');
    const set = await t.call(
      'PUT',
      '/users/user/me/local-credentials',
      { username: 'local', password: 'a long password' },
      userToken,
    );
    expect(set.status).toBe(204);
    const other = t.hub.context.users.create({ name: 'Other', role: 'guest' });
    expect(
      (await t.call('PUT', `/users/user/${other.id}/local-credentials`, { username: 'LOCAL', password: 'another password' }))
        .status,
    ).toBe(409);
    expect(
      (
        await t.call(
          'PUT',
          `/users/user/${other.id}/local-credentials`,
          { username: 'other', password: 'x'.repeat(9) },
          userToken,
        )
      ).status,
    ).toBe(403);

    const login = { username: 'local', password: 'a long password', clientId: 'dash', clientName: 'Dashboard' };
    const token = await t.call<string>('POST', '/users/login-local', login, null);
    expect(token.status).toBe(200);
    expect(typeof token.body).toBe('string');
    const me = await t.call<{ userId: string; clientName: string; type: string }>(
      'GET',
      '/sessions/session/me',
      undefined,
      token.body,
    );
    expect(me.body).toMatchObject({ userId: user.id, clientName: 'Dashboard', type: 'OAUTH' });
    const bad = await t.call('POST', '/users/login-local', { ...login, password: 'wrong password' }, null);
    expect(bad.body).toMatchObject({ statusCode: 401, error: 'invalid_credentials' });

    expect((await t.call('DELETE', `/users/user/${user.id}/local-credentials`)).status).toBe(204);
    expect((await t.call('POST', '/users/login-local', login, null)).status).toBe(401);

    // A user removes their own credentials too.
    expect((await t.call('PUT', '/users/user/me/local-credentials', login, userToken)).status).toBe(204);
    expect((await t.call('POST', '/users/login-local', login, null)).status).toBe(200);
    expect((await t.call('DELETE', '/users/user/me/local-credentials', undefined, userToken)).status).toBe(204);
    expect((await t.call('POST', '/users/login-local', login, null)).status).toBe(401);
  });

  it('answers its state', async () => {
    const state = await t.call('GET', '/users/state');
    expect(state.body).toMatchObject({
      ownerId: t.hub.context.users.owner()!.id,
      installerAccess: { granted: false, grantedAt: null, expiresAt: null },
    });
  });
});
