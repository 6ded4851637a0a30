import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Session {
  id: string;
  type: string;
  userId: string;
  scopes: string[] | null;
  intersectedScopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsed: string | null;
}

describe('sessions manager and personal access tokens over HTTP', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('answers the caller its session with intersected scopes and times', async () => {
    const me = await t.call<Session>('GET', '/sessions/session/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ type: 'PAT', scopes: null, intersectedScopes: ['homey'], expiresAt: null });
    expect(Date.parse(me.body.createdAt)).not.toBeNaN();
    expect(Date.parse(me.body.lastUsed ?? '')).not.toBeNaN();
    expect(me.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await t.call('GET', '/sessions/session/me', undefined, null)).status).toBe(401);
    expect((await t.call('GET', '/sessions/session/me', undefined, 'hses_unknown')).body).toMatchObject({
      error: 'invalid_token',
      statusCode: 401,
    });
  });

  it('answers its state: how many sessions are live', async () => {
    const before = (await t.call<{ sessionCount: number }>('GET', '/sessions/state')).body.sessionCount;
    t.sessionFor('owner');
    expect((await t.call<{ sessionCount: number }>('GET', '/sessions/state')).body).toEqual({ sessionCount: before + 1 });
  });

  it('creates personal access tokens capped by the creator, lists and deletes them', async () => {
    const guest = t.sessionFor('guest', null);
    const created = await t.call<{ id: string; token: string; name: string; scopes: string[] }>(
      'POST',
      '/users/pat',
      { name: 'Wall tablet', scopes: ['homey.device', 'homey.zone.readonly', 'homey.system'] },
      guest,
    );
    expect(created.status).toBe(200);
    expect(created.body.name).toBe('Wall tablet');
    expect(typeof created.body.token).toBe('string');
    expect(created.body.scopes.sort()).toEqual([
      'homey.device.control',
      'homey.device.readonly',
      'homey.system.readonly',
      'homey.zone.readonly',
    ]);

    const patMe = await t.call<Session>('GET', '/sessions/session/me', undefined, created.body.token);
    expect(patMe.body).toMatchObject({ id: created.body.id, type: 'PAT' });
    expect(patMe.body.intersectedScopes.sort()).toEqual(created.body.scopes.sort());
    expect((await t.call('GET', '/zones/zone', undefined, created.body.token)).status).toBe(200);
    expect((await t.call('GET', '/users/user', undefined, created.body.token)).status).toBe(403);

    const narrow = await t.call<{ token: string; scopes: string[] }>(
      'POST',
      '/users/pat',
      { name: 'Narrower', scopes: ['homey.zone', 'homey.device.readonly'] },
      created.body.token,
    );
    expect(narrow.body.scopes.sort()).toEqual(['homey.device.readonly', 'homey.zone.readonly']);

    const unknown = await t.call('POST', '/users/pat', { name: 'x', scopes: ['homey.zone', 'root'] }, guest);
    expect(unknown.status).toBe(400);
    expect((unknown.body as { error_description: string }).error_description).toContain('scopes.1');
    expect((await t.call('POST', '/users/pat', { name: 'x' }, guest)).body).toMatchObject({
      error_description: 'Missing Parameter: scopes',
    });

    const list = await t.call<{ id: string; name: string }[]>('GET', '/users/pat', undefined, guest);
    expect(list.body.map((pat) => pat.name).sort()).toEqual(['Narrower', 'Wall tablet']);
    const ownerList = await t.call<{ name: string }[]>('GET', '/users/pat');
    expect(ownerList.body.map((pat) => pat.name)).toEqual(['Owner console']);

    expect((await t.call('DELETE', `/users/pat/${created.body.id}`)).status).toBe(404);
    expect((await t.call('DELETE', `/users/pat/${created.body.id}`, undefined, guest)).status).toBe(204);
    expect((await t.call('GET', '/zones/zone', undefined, created.body.token)).status).toBe(401);
  });

  it("lists everyone's sessions to owners and managers, one's own to others, and revokes them", async () => {
    const userA = t.sessionFor('user', null);
    const userB = t.sessionFor('user', ['homey.zone.readonly', 'homey.user.readonly', 'homey.user.self']);
    const idA = (await t.call<Session>('GET', '/sessions/session/me', undefined, userA)).body.id;
    const meB = (await t.call<Session>('GET', '/sessions/session/me', undefined, userB)).body;

    const all = await t.call<Record<string, Session>>('GET', '/sessions/session');
    expect(Object.keys(all.body)).toEqual(expect.arrayContaining([idA, meB.id]));
    const own = await t.call<Record<string, Session>>('GET', '/sessions/session', undefined, userB);
    expect(Object.keys(own.body)).toEqual([meB.id]);
    expect((await t.call('GET', `/sessions/session/${idA}`, undefined, userB)).status).toBe(404);
    expect((await t.call<Session>('GET', `/sessions/session/${idA}`)).body.id).toBe(idA);

    expect((await t.call('DELETE', `/sessions/session/${idA}`, undefined, userB)).status).toBe(404);
    expect((await t.call('DELETE', `/sessions/session/${idA}`)).status).toBe(204);
    expect((await t.call('GET', '/sessions/session/me', undefined, userA)).status).toBe(401);
    expect((await t.call('DELETE', `/sessions/session/${meB.id}`, undefined, userB)).status).toBe(204);
    expect((await t.call('GET', '/sessions/session/me', undefined, userB)).status).toBe(401);
  });

  it('refuses expired sessions', async () => {
    const expired = t.sessionFor('manager', null, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await t.call('GET', '/sessions/session/me', undefined, expired)).body).toMatchObject({ statusCode: 401 });
  });
});
