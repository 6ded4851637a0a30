import type { Cloud } from '@hearth/cloud';
import { type AnyOperation, fullPath, operationId } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock';
import { startEmbeddedCloud } from '../testing/cloud';
import { startTestHub, type TestHub } from '../testing/hub';
import { hubOperationList } from '../testing/operations';
import type { UserRole } from './identity/users';
import { roleAllows } from './roles';

/**
 * Every hub operation that asks for no scope, and what a narrowed token (an owner's personal access token holding
 * only `homey.zone.readonly`) and a guest can and cannot do with it, through real HTTP. The table must name every
 * such operation: a new one fails this test until it says what those two may do with it. Below it, the calls the
 * wire lists without a scope that changed state for them, which now ask for one.
 */

interface Actor {
  token: string;
  sessionId: string;
  userId: string;
}

interface World {
  t: TestHub;
  owner: Actor;
  /** An owner's personal access token holding only `homey.zone.readonly`. */
  readonly: Actor;
  guest: Actor;
  /** Makes a fresh actor: a user of `role` (the owner for `owner`) with a session holding `scopes`. */
  actor(role: UserRole, scopes: string[] | null, type?: 'OAUTH' | 'PAT'): Actor;
}

type Check = (world: World) => Promise<void>;

const errorOf = (body: unknown) => (body as { error?: string } | undefined)?.error;

const table: Record<string, Check> = {
  'hub:sessions.getSessionMe': async ({ t, readonly, guest }) => {
    for (const [actor, scopes] of [
      [readonly, ['homey.zone.readonly']],
      [guest, null],
    ] as const) {
      const me = await t.call<Record<string, unknown>>('GET', '/sessions/session/me', undefined, actor.token);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(actor.sessionId);
      expect(me.body).not.toHaveProperty('token');
      if (scopes) expect(me.body.intersectedScopes).toEqual(scopes);
      else for (const scope of me.body.intersectedScopes as string[]) expect(roleAllows('guest', scope)).toBe(true);
    }
  },

  'hub:system.ping': async ({ t, readonly, guest }) => {
    for (const token of [readonly.token, guest.token, null]) {
      const ping = await t.call('GET', '/system/ping', undefined, token);
      expect(ping.status).toBe(200);
      expect(ping.headers.get('x-homey-id')).toBe(t.hub.context.config.id);
    }
  },

  'hub:cloud.getClaim': async ({ t, readonly, guest }) => {
    // What the hub's web page shows whoever stands in front of it: whether it is owned, and while not, its code.
    for (const token of [readonly.token, guest.token, null]) {
      const claim = await t.call<Record<string, unknown>>('GET', '/cloud/claim', undefined, token);
      expect(claim.status).toBe(200);
      expect(Object.keys(claim.body).sort()).toEqual(['claimQr', 'claimUrl', 'code', 'expiresAt', 'state']);
      expect(['unclaimed', 'claimed', 'no_cloud', 'unavailable']).toContain(claim.body.state);
    }
  },

  'hub:users.login': async ({ t, readonly, guest }) => {
    const before = t.hub.context.sessions.count();
    for (const token of [readonly.token, guest.token]) {
      // The delegation token is the credential; the session the caller holds adds nothing to it.
      const login = await t.call('POST', '/users/login', { token: 'not-a-delegation-token' }, token);
      expect(login.status).toBe(401);
      expect(errorOf(login.body)).toBe('invalid_token');
    }
    expect(t.hub.context.sessions.count()).toBe(before);
  },

  'hub:users.acceptInvite': async ({ t, readonly, guest }) => {
    const invited = await t.call<{ id: string; inviteToken: string }>('POST', '/users/user', { name: 'Invitee', role: 'user' });
    for (const token of [readonly.token, guest.token]) {
      const wrong = await t.call('POST', '/users/accept', { inviteToken: 'not-the-secret', athomId: 'acct-x' }, token);
      expect(wrong.status).toBe(404);
    }
    expect(t.hub.context.users.get(invited.body.id)).toMatchObject({ verified: false, athomId: null });
    // The secret is the credential: with it, the call binds the invited user with the role the owner chose, and
    // nothing of the caller's.
    const right = await t.call(
      'POST',
      '/users/accept',
      { inviteToken: invited.body.inviteToken, athomId: 'acct-y' },
      guest.token,
    );
    expect(right.status).toBe(200);
    expect(t.hub.context.users.get(invited.body.id)).toMatchObject({ verified: true, athomId: 'acct-y', role: 'user' });
    expect(t.hub.context.users.get(guest.userId)?.role).toBe('guest');
  },

  'hub:users.getPersonalAccessTokens': async ({ t, readonly, guest, actor }) => {
    const ownerPat = actor('owner', null, 'PAT');
    const guestPat = await t.call<{ id: string }>(
      'POST',
      '/users/pat',
      { name: 'Guest pad', scopes: ['homey.device.readonly'] },
      guest.token,
    );
    const seenBy = async (token: string) => {
      const listed = await t.call<Record<string, unknown>[]>('GET', '/users/pat', undefined, token);
      expect(listed.status).toBe(200);
      for (const pat of listed.body) expect(pat).not.toHaveProperty('token');
      return listed.body.map((pat) => pat.id);
    };
    // The readonly token is the owner's: it sees the owner's tokens, by name and scopes only.
    expect(await seenBy(readonly.token)).toContain(ownerPat.sessionId);
    const guestSees = await seenBy(guest.token);
    expect(guestSees).toEqual([guestPat.body.id]);
  },

  'hub:users.createPersonalAccessToken': async ({ t, readonly, guest }) => {
    const fromReadonly = await t.call<{ token: string; scopes: string[] }>(
      'POST',
      '/users/pat',
      { name: 'Wider?', scopes: ['homey', 'homey.zone'] },
      readonly.token,
    );
    expect(fromReadonly.status).toBe(200);
    expect(fromReadonly.body.scopes).toEqual(['homey.zone.readonly']);
    expect((await t.call('POST', '/zones/zone', { name: 'Nope' }, fromReadonly.body.token)).status).toBe(403);

    const fromGuest = await t.call<{ token: string; scopes: string[] }>(
      'POST',
      '/users/pat',
      { name: 'Guest wider?', scopes: ['homey.device', 'homey.user', 'homey.system'] },
      guest.token,
    );
    expect(fromGuest.status).toBe(200);
    for (const scope of fromGuest.body.scopes) expect(roleAllows('guest', scope), scope).toBe(true);
    expect(fromGuest.body.scopes).not.toContain('homey.user');
    expect((await t.call('POST', '/users/user', { name: 'Sneaky', role: 'manager' }, fromGuest.body.token)).status).toBe(403);
  },

  'hub:users.deletePersonalAccessToken': async ({ t, owner, readonly, guest, actor }) => {
    const ownerFull = actor('owner', null, 'PAT');
    const ownerNarrow = actor('owner', ['homey.zone.readonly'], 'PAT');
    // The readonly token may not revoke the owner's tokens, not even one as narrow as itself.
    for (const target of [ownerFull, ownerNarrow]) {
      const refused = await t.call('DELETE', `/users/pat/${target.sessionId}`, undefined, readonly.token);
      expect(refused.status, `readonly deleting ${target.sessionId}`).toBe(403);
      expect(errorOf(refused.body)).toBe('missing_scopes');
    }
    expect((await t.call('GET', '/zones/zone', undefined, ownerFull.token)).status).toBe(200);
    // A guest never reaches the owner's tokens.
    expect((await t.call('DELETE', `/users/pat/${ownerFull.sessionId}`, undefined, guest.token)).status).toBe(404);
    // Among its own tokens a guest's narrower one cannot revoke a wider one; the wider one may revoke the narrower.
    const narrow = await t.call<{ id: string; token: string }>(
      'POST',
      '/users/pat',
      { name: 'Read', scopes: ['homey.device.readonly'] },
      guest.token,
    );
    const wide = await t.call<{ id: string; token: string }>(
      'POST',
      '/users/pat',
      { name: 'Switch', scopes: ['homey.device.readonly', 'homey.device.control'] },
      guest.token,
    );
    const upward = await t.call('DELETE', `/users/pat/${wide.body.id}`, undefined, narrow.body.token);
    expect(upward.status).toBe(403);
    expect(errorOf(upward.body)).toBe('forbidden');
    expect((await t.call('DELETE', `/users/pat/${narrow.body.id}`, undefined, wide.body.token)).status).toBe(204);
    // Any token may revoke itself.
    const self = actor('owner', ['homey.zone.readonly'], 'PAT');
    expect((await t.call('DELETE', `/users/pat/${self.sessionId}`, undefined, self.token)).status).toBe(204);
    expect((await t.call('GET', '/zones/zone', undefined, self.token)).status).toBe(401);
    // The owner holding homey.user still revokes its own tokens.
    expect((await t.call('DELETE', `/users/pat/${ownerNarrow.sessionId}`, undefined, owner.token)).status).toBe(204);
  },

  'hub:users.loginLocal': async ({ t, readonly, guest }) => {
    const before = t.hub.context.sessions.count();
    for (const token of [readonly.token, guest.token]) {
      const login = await t.call(
        'POST',
        '/users/login-local',
        { username: 'nobody', password: 'not-it', clientId: 'c', clientName: 'C' },
        token,
      );
      expect(login.status).toBe(401);
      expect(errorOf(login.body)).toBe('invalid_credentials');
    }
    expect(t.hub.context.sessions.count()).toBe(before);
  },

  'hub:users.requestInstallerAccess': async ({ t, readonly, guest }) => {
    const users = t.hub.context.users.count();
    for (const token of [readonly.token, guest.token]) {
      const request = await t.call('POST', '/users/installer/request', { jwt: 'not-a-delegation-token' }, token);
      expect(errorOf(request.body)).toBe('invalid_token');
    }
    expect(t.hub.context.users.count()).toBe(users);
  },

  'hub:users.swapOwnerInstaller': async ({ t, owner, readonly, guest }) => {
    for (const token of [readonly.token, guest.token]) {
      const swap = await t.call(
        'POST',
        '/users/installer/swap-owner',
        { jwt: 'not-a-delegation-token', newOwnerUserId: guest.userId },
        token,
      );
      expect(errorOf(swap.body)).toBe('invalid_token');
    }
    expect(t.hub.context.users.owner()?.id).toBe(owner.userId);
  },

  'hub:ledring.getScreensavers': async ({ t, readonly, guest }) => {
    const settingsBefore = (await t.call('GET', '/ledring/option/screensaver')).body;
    for (const token of [readonly.token, guest.token]) {
      const list = await t.call<unknown[]>('GET', '/ledring/screensaver', undefined, token);
      expect(list.status).toBe(200);
      expect(list.body.length).toBeGreaterThan(0);
      // Reading the list is all: choosing one needs homey.system.
      expect((await t.call('PUT', '/ledring/option/screensaver', { value: 'off' }, token)).status).toBe(403);
    }
    expect((await t.call('GET', '/ledring/option/screensaver')).body).toEqual(settingsBefore);
  },

  'hub:logic.triggerWebhook': async ({ t, readonly, guest }) => {
    for (const token of [readonly.token, guest.token]) {
      const call = await t.call<{ event: string }>('GET', '/logic/webhook/doorbell?tag=front', undefined, token);
      expect(call.status).toBe(200);
      expect(call.body).toMatchObject({ event: 'doorbell' });
      // It starts webhook flows and nothing else: the logic it feeds stays closed to them.
      expect((await t.call('POST', '/logic/variable', { name: 'x', type: 'boolean', value: true }, token)).status).toBe(403);
    }
  },

  'hub:cloud.receiveWebhook': async ({ t, owner, readonly, guest }) => {
    const events = async () =>
      (await t.call<{ webhookEvents: number }>('GET', '/logic/state', undefined, owner.token)).body.webhookEvents;
    const before = await events();
    const delivery = JSON.stringify({
      id: 'x',
      webhookId: 'y',
      homeyId: t.hub.context.config.id,
      data: {},
      query: { event: 'a' },
      headers: {},
    });
    // A session is no credential for it: only the cloud's signature is (this hub has no cloud secret, so none is).
    for (const token of [owner.token, readonly.token, guest.token, null]) {
      const answer = await t.call('POST', '/cloud/webhook', { delivery }, token);
      expect([403, 503]).toContain(answer.status);
    }
    expect(await events()).toBe(before);
  },
};

describe('hub operations without a scope', () => {
  let world: World;
  let cloud: Cloud;
  const clock = new FakeClock(Date.now());

  beforeAll(async () => {
    // A cloud, for the releases an update installs.
    cloud = await startEmbeddedCloud();
    const t = await startTestHub({ softwareVersion: '12.4.0', cloudUrl: cloud.url }, { clock });
    const actor: World['actor'] = (role, scopes, type = 'OAUTH') => {
      const { users, sessions } = t.hub.context;
      const user = role === 'owner' ? users.owner()! : users.create({ name: `A ${role}`, role });
      const { session, token } = sessions.create({ type, userId: user.id, scopes });
      return { token, sessionId: session.id, userId: user.id };
    };
    world = {
      t,
      actor,
      owner: actor('owner', null),
      readonly: actor('owner', ['homey.zone.readonly'], 'PAT'),
      guest: actor('guest', null),
    };
  });
  afterAll(async () => {
    await world?.t.stop();
    await cloud?.stop();
  });

  const scopeFree = hubOperationList.filter((operation) => operation.scope === null);

  it('are each in this table, and only they', () => {
    expect(scopeFree.map(operationId).sort()).toEqual(Object.keys(table).sort());
  });

  it('each say in the API reference why they need no scope', async () => {
    const missing = scopeFree.filter((operation: AnyOperation) => operation.description.length < 60).map(operationId);
    expect(missing).toEqual([]);
    const document = (await (await fetch(`${world.t.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    for (const operation of scopeFree) {
      const path = fullPath(operation).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
      const described = document.paths[path]?.[operation.method.toLowerCase()]?.description;
      expect(described, operationId(operation)).toContain(`No scope required. ${operation.description}`);
    }
  });

  it.each(Object.entries(table))('%s', async (_id, check) => {
    await check(world);
  });

  describe('calls the wire lists without a scope that change state now ask for one', () => {
    const refusedBoth = async (method: string, path: string, body?: unknown) => {
      for (const token of [world.readonly.token, world.guest.token]) {
        const answer = await world.t.call(method, path, body, token);
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(errorOf(answer.body)).toBe('missing_scopes');
      }
    };

    it('the lastSuccessfulBackup option: setting and deleting it need homey.system', async () => {
      const { t } = world;
      const stamp = '2026-01-01T03:00:00.000Z';
      expect((await t.call('PUT', '/backup/option/lastSuccessfulBackup', { value: stamp })).status).toBe(200);
      await refusedBoth('PUT', '/backup/option/lastSuccessfulBackup', { value: '2030-01-01T00:00:00.000Z' });
      await refusedBoth('DELETE', '/backup/option/lastSuccessfulBackup');
      expect((await t.call('GET', '/backup/option/lastSuccessfulBackup')).body).toEqual({ value: stamp });
    });

    it('cancelling an update in progress needs homey.updates', async () => {
      const { t } = world;
      const started = await t.call<{ status: string }>('POST', '/updates/update', { silent: true });
      expect(started.body.status).toBe('downloading');
      await refusedBoth('DELETE', '/updates/update');
      await clock.advance(200);
      expect((await t.call<{ status: string }>('GET', '/updates/state')).body.status).toBe('downloading');
      const aborted = await t.call<{ status: string }>('DELETE', '/updates/update');
      expect(aborted.body.status).toBe('aborted');
    });

    it('handing the hub over, installer access and other users’ local credentials need homey.user', async () => {
      const { t, owner, guest } = world;
      await refusedBoth('POST', '/users/swap-owner', { newOwnerUserId: guest.userId });
      await refusedBoth('POST', '/users/installer/grant', {});
      await refusedBoth('POST', '/users/installer/revoke', {});
      await refusedBoth('PUT', `/users/user/${owner.userId}/local-credentials`, { username: 'taken', password: 'over-the-hub' });
      await refusedBoth('DELETE', `/users/user/${owner.userId}/local-credentials`);
      expect(t.hub.context.users.owner()?.id).toBe(owner.userId);
      expect((await t.call('GET', '/users/state')).body).toMatchObject({ installerAccess: { granted: false } });
    });

    it('a mobile event needs homey.presence.self, which a guest holds, and speaks only for its sender', async () => {
      const { t, owner, readonly, guest } = world;
      const eventsOf = async (token: string) =>
        (await t.call<{ events: number }>('GET', '/mobile/state', undefined, token)).body.events;
      const ownerEvents = await eventsOf(owner.token);
      const guestEvents = await eventsOf(guest.token);
      const refused = await t.call('POST', '/mobile/event', { event: 'geofence_enter' }, readonly.token);
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body)).toBe('missing_scopes');
      expect(await eventsOf(owner.token)).toBe(ownerEvents);
      const forOwner = await t.call('POST', '/mobile/event', { event: 'arrived', data: { userId: owner.userId } }, guest.token);
      expect(forOwner.status).toBe(403);
      expect(errorOf(forOwner.body)).toBe('forbidden');
      expect((await t.call('POST', '/mobile/event', { event: 'arrived' }, guest.token)).status).toBe(200);
      expect(await eventsOf(guest.token)).toBe(guestEvents + 1);
      expect(await eventsOf(owner.token)).toBe(ownerEvents);
    });

    it('card autocomplete needs homey.flow.readonly, which a guest holds', async () => {
      const { t, readonly, guest } = world;
      const path = '/flow/flowcardaction/homey:manager:logic/variable_set/autocomplete?name=variable&query=';
      const refused = await t.call('GET', path, undefined, readonly.token);
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body)).toBe('missing_scopes');
      expect((await t.call('GET', path, undefined, guest.token)).status).toBe(200);
    });
  });
});
