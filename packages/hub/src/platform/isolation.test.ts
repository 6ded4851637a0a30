import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { untilAppRunning } from '../testing/pairing';
import { ack, connectRealtime } from '../testing/socket';
import type { UserRole } from './identity/users';

/**
 * One member's data stays theirs: through real HTTP, a user, a guest and a manager try to read, change or
 * delete what belongs to another member (sessions, personal access tokens, private properties, presence,
 * read state, pair and devkit sessions) and are answered as if it did not exist, or refused.
 */

interface Member {
  token: string;
  userId: string;
  sessionId: string;
}

interface User {
  id: string;
  role: string;
  name: string;
  enabled: boolean;
  present: boolean;
  properties: Record<string, unknown>;
}

describe('one member never reads, changes or deletes another member’s data', () => {
  let t: TestHub;
  let owner: Member;

  /** A new member of `role` with a session (no scopes set unless given). */
  const member = async (role: UserRole, scopes: string[] | null = null): Promise<Member> => {
    const token = t.sessionFor(role, scopes);
    const me = await t.call<{ id: string; userId: string }>('GET', '/sessions/session/me', undefined, token);
    return { token, userId: me.body.userId, sessionId: me.body.id };
  };
  const status = async (method: string, path: string, body: unknown, token: string) =>
    (await t.call(method, path, body, token)).status;

  beforeAll(async () => {
    t = await startTestHub();
    owner = await member('owner');
  });
  afterAll(() => t.stop());

  describe('sessions', () => {
    it('answers another member’s session as absent to users and guests, and leaves it working', async () => {
      const user = await member('user');
      const guest = await member('guest');
      for (const [caller, other] of [
        [user, guest],
        [guest, user],
        [user, owner],
        [guest, owner],
      ] as const) {
        const listed = await t.call<Record<string, { userId: string }>>('GET', '/sessions/session', undefined, caller.token);
        expect(Object.values(listed.body).map((session) => session.userId)).toEqual([caller.userId]);
        expect(await status('GET', `/sessions/session/${other.sessionId}`, undefined, caller.token)).toBe(404);
        const revoke = await t.call('DELETE', `/sessions/session/${other.sessionId}`, undefined, caller.token);
        expect(revoke.body).toMatchObject({ error: 'not_found', statusCode: 404 });
        expect(await status('GET', '/sessions/session/me', undefined, other.token)).toBe(200);
      }
    });

    it('lets a manager read and revoke a user’s session, but not the owner’s', async () => {
      const manager = await member('manager');
      const user = await member('user');
      expect(await status('GET', `/sessions/session/${owner.sessionId}`, undefined, manager.token)).toBe(200);
      expect(await status('DELETE', `/sessions/session/${owner.sessionId}`, undefined, manager.token)).toBe(404);
      expect(await status('GET', '/sessions/session/me', undefined, owner.token)).toBe(200);
      expect(await status('DELETE', `/sessions/session/${user.sessionId}`, undefined, manager.token)).toBe(204);
      expect(await status('GET', '/sessions/session/me', undefined, user.token)).toBe(401);
    });

    it('lets a manager whose session lacks homey.user read sessions but revoke only its own', async () => {
      const manager = await member('manager', ['homey.user.readonly', 'homey.user.self']);
      const user = await member('user');
      expect(await status('GET', `/sessions/session/${user.sessionId}`, undefined, manager.token)).toBe(200);
      expect(await status('DELETE', `/sessions/session/${user.sessionId}`, undefined, manager.token)).toBe(404);
      expect(await status('GET', '/sessions/session/me', undefined, user.token)).toBe(200);
    });
  });

  describe('personal access tokens', () => {
    it('lists and deletes only the caller’s own tokens, whoever asks', async () => {
      const user = await member('user');
      const guest = await member('guest');
      const manager = await member('manager');
      const created = await t.call<{ id: string; token: string }>(
        'POST',
        '/users/pat',
        { name: 'User tablet', scopes: ['homey.zone.readonly'] },
        user.token,
      );
      expect(created.status).toBe(200);
      for (const other of [guest, manager, owner]) {
        const listed = await t.call<{ id: string }[]>('GET', '/users/pat', undefined, other.token);
        expect(listed.body.map((pat) => pat.id)).not.toContain(created.body.id);
        const deleted = await t.call('DELETE', `/users/pat/${created.body.id}`, undefined, other.token);
        expect(deleted.body).toMatchObject({ error: 'not_found', statusCode: 404 });
      }
      expect(await status('GET', '/zones/zone', undefined, created.body.token)).toBe(200);
      const own = await t.call<{ id: string }[]>('GET', '/users/pat', undefined, user.token);
      expect(own.body.map((pat) => pat.id)).toEqual([created.body.id]);
    });

    it('deletes only personal access tokens through /pat, not sign-in sessions', async () => {
      const user = await member('user');
      expect(await status('DELETE', `/users/pat/${user.sessionId}`, undefined, user.token)).toBe(404);
      expect(await status('GET', '/sessions/session/me', undefined, user.token)).toBe(200);
    });
  });

  describe('private properties', () => {
    it('keeps a member’s properties theirs: hidden from other users and guests, unchanged by them', async () => {
      const user = await member('user');
      const guest = await member('guest');
      const manager = await member('manager');
      const set = await t.call<User>('PUT', '/users/user/me/properties/tablet', { value: { pin: '1234' } }, user.token);
      expect(set.body.properties).toEqual({ tablet: { pin: '1234' } });
      await t.call('PUT', '/users/user/me/properties/tablet', { value: { pin: '0000' } }, guest.token);

      const byGuest = await t.call<Record<string, User>>('GET', '/users/user', undefined, guest.token);
      expect(byGuest.body[user.userId]?.properties).toEqual({});
      expect(byGuest.body[guest.userId]?.properties).toEqual({ tablet: { pin: '0000' } });
      expect((await t.call<User>('GET', `/users/user/${user.userId}`, undefined, guest.token)).body.properties).toEqual({});
      const otherUser = await member('user');
      expect((await t.call<User>('GET', `/users/user/${user.userId}`, undefined, otherUser.token)).body.properties).toEqual({});
      expect((await t.call<User>('GET', `/users/user/${user.userId}`, undefined, manager.token)).body.properties).toEqual({
        tablet: { pin: '1234' },
      });

      const overwrite = await t.call('PUT', `/users/user/${user.userId}`, { properties: {} }, guest.token);
      expect(overwrite.body).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
      expect(await status('PUT', `/users/user/${user.userId}`, { properties: {} }, otherUser.token)).toBe(403);
      expect(await status('DELETE', '/users/user/me/properties/tablet', undefined, otherUser.token)).toBe(404);
      expect(t.hub.context.users.get(user.userId)?.properties).toEqual({ tablet: { pin: '1234' } });
    });
  });

  describe('presence', () => {
    it('lets a member with only presence.self set its own flags, not another’s', async () => {
      const guest = await member('guest');
      const selfOnly = await member('user', ['homey.presence.readonly', 'homey.presence.self']);
      const user = await member('user');
      for (const caller of [guest, selfOnly]) {
        for (const flag of ['present', 'asleep']) {
          const other = await t.call('PUT', `/presence/${user.userId}/${flag}`, { value: true }, caller.token);
          expect(other.body).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
          // The generic route needs homey.presence even for the caller's own id; /me is the way for them.
          expect(await status('PUT', `/presence/${caller.userId}/${flag}`, { value: true }, caller.token)).toBe(403);
          expect((await t.call('PUT', `/presence/me/${flag}`, { value: true }, caller.token)).body).toBe(true);
        }
        expect(t.hub.context.users.get(caller.userId)).toMatchObject({ present: true, asleep: true });
      }
      expect(t.hub.context.users.get(user.userId)).toMatchObject({ present: false, asleep: false });
      // A user holding homey.presence may set a housemate's flags: the household shares who is home.
      expect((await t.call('PUT', `/presence/${guest.userId}/present`, { value: false }, user.token)).body).toBe(false);
    });

    it('lets /me change only the caller', async () => {
      const guest = await member('guest');
      const user = await member('user');
      await t.call('PUT', '/presence/me/present', { value: true }, guest.token);
      expect(t.hub.context.users.get(user.userId)?.present).toBe(false);
      expect(t.hub.context.users.get(owner.userId)?.present).toBe(false);
    });
  });

  describe('users and roles', () => {
    it('refuses users and guests every change to other members, and to their own role', async () => {
      const user = await member('user');
      const guest = await member('guest');
      for (const [caller, target] of [
        [user, guest],
        [guest, user],
        [user, owner],
        [user, user],
      ] as const) {
        expect(await status('PUT', `/users/user/${target.userId}`, { role: 'manager' }, caller.token)).toBe(403);
        expect(await status('PUT', `/users/user/${target.userId}`, { name: 'Renamed' }, caller.token)).toBe(403);
        expect(await status('DELETE', `/users/user/${target.userId}`, undefined, caller.token)).toBe(403);
        const credentials = { username: `taken-${caller.userId.slice(0, 8)}`, password: 'a long password' };
        expect(await status('PUT', `/users/user/${target.userId}/local-credentials`, credentials, caller.token)).toBe(403);
        expect(await status('DELETE', `/users/user/${target.userId}/local-credentials`, undefined, caller.token)).toBe(403);
      }
      expect(await status('POST', '/users/user', { name: 'Friend', role: 'manager' }, user.token)).toBe(403);
      // /user/me changes only the name: a role in the body is not a way up.
      const renamed = await t.call<User>('PUT', '/users/user/me', { name: 'Still a user', role: 'manager' }, user.token);
      expect(renamed.body).toMatchObject({ name: 'Still a user', role: 'user' });
      expect(t.hub.context.users.get(guest.userId)).toMatchObject({ role: 'guest', name: 'A guest' });
      expect(t.hub.context.users.get(owner.userId)?.role).toBe('owner');
    });

    it('lets a manager manage members but never demote, disable, rename or delete the owner', async () => {
      const manager = await member('manager');
      const user = await member('user');
      const changes = [{ role: 'guest' }, { role: 'manager' }, { enabled: false }, { name: 'Hijacked' }];
      for (const change of changes) {
        const answer = await t.call('PUT', `/users/user/${owner.userId}`, change, manager.token);
        expect(answer.body).toMatchObject({ error: 'forbidden', statusCode: 403 });
      }
      expect(await status('DELETE', `/users/user/${owner.userId}`, undefined, manager.token)).toBe(403);
      const credentials = { username: 'owner-takeover', password: 'a long password' };
      expect(await status('PUT', `/users/user/${owner.userId}/local-credentials`, credentials, manager.token)).toBe(403);
      expect(await status('DELETE', `/users/user/${owner.userId}/local-credentials`, undefined, manager.token)).toBe(403);
      expect(t.hub.context.users.get(owner.userId)).toMatchObject({ role: 'owner', enabled: true, name: 'Owner' });
      expect(await status('GET', '/sessions/session/me', undefined, owner.token)).toBe(200);

      const demoted = await t.call<User>('PUT', `/users/user/${user.userId}`, { role: 'guest' }, manager.token);
      expect(demoted.body.role).toBe('guest');
    });

    it('refuses leaving the hub to its owner, and lets others leave only themselves', async () => {
      const user = await member('user');
      const guest = await member('guest');
      expect(await status('DELETE', '/users/user/me', undefined, owner.token)).toBe(403);
      expect(await status('DELETE', '/users/user/me', undefined, guest.token)).toBe(204);
      expect(t.hub.context.users.get(guest.userId)).toBeUndefined();
      expect(t.hub.context.users.get(user.userId)).toBeDefined();
      expect(await status('GET', '/sessions/session/me', undefined, user.token)).toBe(200);
    });
  });

  describe('handing the hub over', () => {
    it('refuses swap-owner and installer access to everyone but the owner', async () => {
      const manager = await member('manager');
      const user = await member('user');
      const guest = await member('guest');
      for (const caller of [manager, user, guest]) {
        for (const target of [manager, user, guest]) {
          const swap = await t.call('POST', '/users/swap-owner', { newOwnerUserId: target.userId }, caller.token);
          // A manager holds homey.user and is refused as not the owner; users and guests lack the scope.
          expect(swap.body).toMatchObject({ error: caller === manager ? 'forbidden' : 'missing_scopes', statusCode: 403 });
        }
        expect(await status('POST', '/users/installer/grant', {}, caller.token)).toBe(403);
        expect(await status('POST', '/users/installer/revoke', {}, caller.token)).toBe(403);
      }
      expect(t.hub.context.users.owner()?.id).toBe(owner.userId);
    });

    it('refuses them to an owner session that does not hold homey.user', async () => {
      const manager = await member('manager');
      const narrow = await member('owner', ['homey.zone.readonly']);
      const swap = await t.call('POST', '/users/swap-owner', { newOwnerUserId: manager.userId }, narrow.token);
      expect(swap.body).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
      expect(await status('POST', '/users/installer/grant', {}, narrow.token)).toBe(403);
      expect(t.hub.context.users.owner()?.id).toBe(owner.userId);
      expect((await t.call('GET', '/users/state')).body).toMatchObject({ installerAccess: { granted: false } });
    });
  });

  describe('invitations', () => {
    it('binds an invitation once, and never to an account another member holds', async () => {
      const invited = await t.call<User & { inviteToken: string }>('POST', '/users/user', { name: 'Sam', role: 'user' });
      const held = t.hub.context.users.create({ name: 'Holder', role: 'guest', athomId: 'cloud-holder' });
      const taken = await t.call(
        'POST',
        '/users/accept',
        { inviteToken: invited.body.inviteToken, athomId: 'cloud-holder' },
        null,
      );
      expect(taken.body).toMatchObject({ error: 'conflict', statusCode: 409 });
      expect(t.hub.context.users.get(held.id)).toMatchObject({ athomId: 'cloud-holder', role: 'guest' });

      const accepted = await t.call<User>(
        'POST',
        '/users/accept',
        { inviteToken: invited.body.inviteToken, athomId: 'cloud-sam' },
        null,
      );
      expect(accepted.body).toMatchObject({ id: invited.body.id, athomId: 'cloud-sam' });
      const reused = await t.call('POST', '/users/accept', { inviteToken: invited.body.inviteToken, athomId: 'cloud-eve' }, null);
      expect(reused.body).toMatchObject({ error: 'not_found', statusCode: 404 });
      expect(t.hub.context.users.get(invited.body.id)?.athomId).toBe('cloud-sam');
    });
  });

  describe('local sign-in', () => {
    it('never lets a member take or change another member’s username', async () => {
      const user = await member('user');
      const guest = await member('guest');
      const credentials = { username: 'isolated-user', password: 'a long password' };
      expect(await status('PUT', '/users/user/me/local-credentials', credentials, user.token)).toBe(204);
      const taken = await t.call(
        'PUT',
        '/users/user/me/local-credentials',
        { username: 'ISOLATED-user', password: 'another password' },
        guest.token,
      );
      expect(taken.body).toMatchObject({ error: 'conflict', statusCode: 409 });
      expect(await status('DELETE', '/users/user/me/local-credentials', undefined, guest.token)).toBe(204);
      const login = await t.call<string>('POST', '/users/login-local', { ...credentials, clientId: 'c', clientName: 'C' }, null);
      const session = await t.call<{ userId: string }>('GET', '/sessions/session/me', undefined, login.body);
      expect(session.body.userId).toBe(user.userId);
    });
  });

  describe('notifications', () => {
    it('keeps read state per member, and hides notifications meant for other roles', async () => {
      const user = await member('user');
      const guest = await member('guest');
      const everyone = t.hub.services.notifications.notify({ ownerUri: 'homey:manager:isolation', excerpt: 'For everyone' })!;
      const managers = t.hub.services.notifications.notify({
        ownerUri: 'homey:manager:isolation',
        excerpt: 'For managers',
        roles: ['manager'],
      })!;
      const read = await t.call<{ readBy: string[] }>('POST', `/notifications/notification/${everyone.id}/read`, {}, user.token);
      expect(read.body.readBy).toEqual([user.userId]);
      for (const other of [guest, owner]) {
        const seen = await t.call<{ readBy: string[] }>(
          'GET',
          `/notifications/notification/${everyone.id}`,
          undefined,
          other.token,
        );
        expect(seen.body.readBy).toEqual([]);
      }
      await t.call('POST', `/notifications/notification/${everyone.id}/read`, {}, owner.token);
      const again = await t.call<{ readBy: string[] }>(
        'GET',
        `/notifications/notification/${everyone.id}`,
        undefined,
        user.token,
      );
      expect(again.body.readBy).toEqual([user.userId]);

      for (const caller of [user, guest]) {
        expect(await status('GET', `/notifications/notification/${managers.id}`, undefined, caller.token)).toBe(404);
        expect(await status('POST', `/notifications/notification/${managers.id}/read`, {}, caller.token)).toBe(404);
      }
      expect(await status('DELETE', `/notifications/notification/${managers.id}`, undefined, user.token)).toBe(404);
      const manager = await member('manager');
      expect(await status('GET', `/notifications/notification/${managers.id}`, undefined, manager.token)).toBe(200);
    });

    it('counts in the mobile summary only the caller’s unread notifications it may see', async () => {
      const guest = await member('guest');
      const user = await member('user');
      const unread = async (token: string) =>
        (await t.call<{ notificationsUnread: number }>('GET', '/mobile/summary', undefined, token)).body.notificationsUnread;
      const guestBefore = await unread(guest.token);
      const userBefore = await unread(user.token);
      const shared = t.hub.services.notifications.notify({ ownerUri: 'homey:manager:isolation', excerpt: 'Shared' })!;
      t.hub.services.notifications.notify({ ownerUri: 'homey:manager:isolation', excerpt: 'Managers only', roles: ['manager'] });
      expect(await unread(guest.token)).toBe(guestBefore + 1);
      await t.call('POST', `/notifications/notification/${shared.id}/read`, {}, user.token);
      expect(await unread(user.token)).toBe(userBefore);
      expect(await unread(guest.token)).toBe(guestBefore + 1);
      const state = await t.call<{ unread: number }>('GET', '/notifications/state', undefined, guest.token);
      expect(await unread(guest.token)).toBe(state.body.unread);
    });
  });

  describe('mobile events', () => {
    it('counts each member’s own events only', async () => {
      const user = await member('user');
      const guest = await member('guest');
      await t.call('POST', '/mobile/event', { event: 'geofence_enter' }, user.token);
      expect((await t.call('GET', '/mobile/state', undefined, user.token)).body).toMatchObject({
        events: 1,
        lastEvent: { event: 'geofence_enter' },
      });
      expect((await t.call('GET', '/mobile/state', undefined, guest.token)).body).toMatchObject({ events: 0, lastEvent: null });
    });
  });

  describe('pair sessions', () => {
    /** A pair session of the built-in virtual socket driver, opened by `pairer`. */
    const openPairSession = (pairer: Member) =>
      t.call<{ id: string }>(
        'POST',
        '/drivers/pairsession',
        { type: 'pair', driverId: 'homey:app:com.hearth.virtual:virtualsocket' },
        pairer.token,
      );

    it('answers another member’s pair session as absent, on every call', async () => {
      await untilAppRunning(t);
      const pairer = await member('user');
      const other = await member('user');
      const created = await openPairSession(pairer);
      expect(created.status).toBe(200);
      const path = `/drivers/pairsession/${created.body.id}`;
      const calls: [string, string, unknown][] = [
        ['GET', path, undefined],
        ['POST', `${path}/heartbeat`, {}],
        ['POST', `${path}/emit`, { event: 'list_devices' }],
        ['POST', `${path}/callback`, { callbackId: 'cb', data: {} }],
        ['POST', `${path}/device`, { name: 'Stolen', data: { id: 'stolen' } }],
        ['DELETE', `${path}/device`, undefined],
        ['DELETE', path, undefined],
      ];
      for (const [method, url, body] of calls) {
        const answer = await t.call(method, url, body, other.token);
        expect({ call: `${method} ${url}`, answer: answer.body }).toMatchObject({
          answer: { error: 'not_found', statusCode: 404 },
        });
      }
      expect(await status('GET', path, undefined, owner.token)).toBe(404);
      expect(await status('GET', path, undefined, pairer.token)).toBe(200);
    });

    it('lets only the member who opened a pair session follow its events over the socket', async () => {
      await untilAppRunning(t);
      const pairer = await member('user');
      const other = await member('user');
      const created = await openPairSession(pairer);
      const uri = `homey:pairsession:${created.body.id}`;
      for (const caller of [other, owner]) {
        const socket = await connectRealtime(t, caller.token);
        try {
          const [refusal] = await ack(socket.api, 'subscribe', uri);
          expect(refusal).toMatchObject({ error: 'not_found', statusCode: 404 });
        } finally {
          socket.close();
        }
      }
      const own = await connectRealtime(t, pairer.token);
      try {
        expect(await ack(own.api, 'subscribe', uri)).toEqual([null]);
        await t.call('DELETE', `/drivers/pairsession/${created.body.id}`, undefined, pairer.token);
        // A session that has ended is gone for its opener too.
        expect((await ack(own.api, 'subscribe', uri))[0]).toMatchObject({ error: 'not_found' });
      } finally {
        own.close();
      }
    });
  });

  describe('devkit sessions', () => {
    it('answers another manager’s devkit session as absent', async () => {
      const developer = await member('manager');
      const other = await member('manager');
      const manifest = {
        id: 'com.example.isolation',
        version: '0.0.1',
        sdk: 3,
        name: { en: 'Isolation example' },
        author: { name: 'Dev Eloper', email: 'dev@example.test' },
        drivers: [],
      };
      const run = await t.call<{ sessionId: string }>('POST', '/devkit/app', { manifest }, developer.token);
      expect(run.status).toBe(200);
      const { sessionId } = run.body;
      for (const [method, url] of [
        ['GET', `/devkit/std/${sessionId}`],
        ['DELETE', `/devkit/${sessionId}`],
        ['DELETE', `/devkit/app/${sessionId}`],
      ] as const) {
        expect(await status(method, url, undefined, other.token)).toBe(404);
      }
      expect(await status('GET', `/devkit/std/${sessionId}`, undefined, developer.token)).toBe(200);
      expect(await status('DELETE', `/devkit/${sessionId}`, undefined, developer.token)).toBe(204);
    });
  });

  describe('the socket api event', () => {
    const call = (api: Parameters<typeof ack>[0], uri: string, operation: string, args: Record<string, unknown> = {}) =>
      ack(api, 'api', { uri: `homey:manager:${uri}`, operation, args });

    it('runs every call as the socket’s own session, whatever the arguments say', async () => {
      const guest = await member('guest');
      const user = await member('user');
      const guestSocket = await connectRealtime(t, guest.token);
      const userSocket = await connectRealtime(t, user.token);
      try {
        // Smuggled credentials are ignored: the call carries the token the socket handshook with.
        const smuggled = { token: owner.token, authorization: `Bearer ${owner.token}`, headers: { authorization: owner.token } };
        const [, guestMe] = await call(guestSocket.api, 'sessions', 'getSessionMe', smuggled);
        expect(guestMe).toMatchObject({ id: guest.sessionId, userId: guest.userId });
        const [, userMe] = await call(userSocket.api, 'users', 'getUserMe', smuggled);
        expect(userMe).toMatchObject({ id: user.userId, role: 'user' });

        const [, listed] = await call(guestSocket.api, 'sessions', 'getSessions');
        expect(Object.keys(listed as object)).toEqual([guest.sessionId]);
        const [hidden] = await call(guestSocket.api, 'sessions', 'getSession', { id: user.sessionId });
        expect(hidden).toMatchObject({ error: 'not_found', statusCode: 404 });
        const [revoke] = await call(userSocket.api, 'sessions', 'deleteSession', { id: owner.sessionId });
        expect(revoke).toMatchObject({ error: 'not_found', statusCode: 404 });
        expect(await status('GET', '/sessions/session/me', undefined, owner.token)).toBe(200);

        const [presence] = await call(guestSocket.api, 'presence', 'setPresent', { id: user.userId, value: true });
        expect(presence).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
        expect(t.hub.context.users.get(user.userId)?.present).toBe(false);
        const [swap] = await call(userSocket.api, 'users', 'swapOwner', { newOwnerUserId: user.userId });
        expect(swap).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
        const pat = await t.call<{ id: string }>(
          'POST',
          '/users/pat',
          { name: 'Mine', scopes: ['homey.zone.readonly'] },
          user.token,
        );
        expect(await call(guestSocket.api, 'users', 'getPersonalAccessTokens')).toEqual([null, []]);
        const [removed] = await call(guestSocket.api, 'users', 'deletePersonalAccessToken', { id: pat.body.id });
        expect(removed).toMatchObject({ error: 'not_found', statusCode: 404 });
      } finally {
        guestSocket.close();
        userSocket.close();
      }
    });
  });
});
