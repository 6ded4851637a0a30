import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import { hubScopes, intersectedScopes, roleScopes } from './roles';

describe('role scope caps', () => {
  it('gives every role only scopes of the table, and the owner everything', () => {
    for (const scopes of Object.values(roleScopes)) {
      for (const scope of scopes) expect(hubScopes).toContain(scope);
    }
    expect(intersectedScopes(null, 'owner')).toEqual(['homey']);
    expect(intersectedScopes(['homey.zone', 'homey.device.control'], 'guest').sort()).toEqual([
      'homey.device.control',
      'homey.zone.readonly',
    ]);
    expect(intersectedScopes(['homey.flow.start'], 'user')).toEqual(['homey.flow.start']);
    expect(intersectedScopes(null, 'guest')).toEqual([...roleScopes.guest]);
  });
});

describe('scope checks use the intersected scopes', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  const rootId = async () => (await t.call<{ rootZoneId: string }>('GET', '/zones/state')).body.rootZoneId;

  it('caps a guest session without scopes to the guest role', async () => {
    const guest = t.sessionFor('guest', null);
    const me = await t.call<{ scopes: null; intersectedScopes: string[] }>('GET', '/sessions/session/me', undefined, guest);
    expect(me.body.scopes).toBeNull();
    expect(me.body.intersectedScopes.sort()).toEqual([...roleScopes.guest].sort());
    expect((await t.call('GET', '/zones/zone', undefined, guest)).status).toBe(200);
    const create = await t.call('POST', '/zones/zone', { name: 'Den', icon: 'den', parent: await rootId() }, guest);
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ error: 'missing_scopes', statusCode: 403 });
  });

  it('caps requested scopes a role may not hold, even when requested explicitly', async () => {
    const user = t.sessionFor('user', ['homey.zone', 'homey.user']);
    const me = await t.call<{ intersectedScopes: string[] }>('GET', '/sessions/session/me', undefined, user);
    expect(me.body.intersectedScopes.sort()).toEqual(['homey.user.readonly', 'homey.user.self', 'homey.zone.readonly']);
    expect((await t.call('POST', '/users/user', { role: 'guest' }, user)).status).toBe(403);
    expect((await t.call('POST', '/zones/zone', { name: 'Den', icon: 'den', parent: await rootId() }, user)).status).toBe(403);
  });

  it('follows a change of role at once', async () => {
    const token = t.sessionFor('guest', null);
    const session = t.hub.context.sessions.findByToken(token)!;
    t.hub.context.users.update(session.userId, { role: 'manager' });
    const create = await t.call('POST', '/zones/zone', { name: 'Den', icon: 'den', parent: await rootId() }, token);
    expect(create.status).toBe(200);
  });
});
