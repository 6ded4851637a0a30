import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  describeOnDatabases,
  internalToken,
  type Json,
  readJson,
  signIn,
  startTestCloud,
  tokenRequest,
} from '../../testing';

describeOnDatabases('GET /user/me', (backend) => {
  let cloud: Cloud;
  let internal: string;
  let demo: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    internal = await internalToken(cloud);
    demo = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  const me = async (token: string, query = ''): Promise<Json> => {
    const answer = await call(cloud, 'GET', `/cloud/user/me${query}`, token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return readJson(answer);
  };

  describe('is current after every change, whoever makes it', () => {
    it('shows hubs, devices, subscriptions and profile changes on the next call', async () => {
      const hubId = DEMO_HUBS[2]?.id as string;
      const member = await createUser(cloud, 'member@hearth.test');
      expect((await me(member.token)).homeys).toEqual([]);
      expect((await me(member.token)).homeys).toEqual([]);

      // Another user (the hub's owner) adds them, then renames the hub.
      await call(cloud, 'POST', `/cloud/homey/${hubId}/user`, demo, { user: member.id, role: 'user' });
      const view = await me(member.token);
      expect(view.homeys.map((h: Json) => [h._id, h.role])).toEqual([[hubId, 'user']]);
      expect(view.homeys[0].users).toContainEqual({ _id: member.id, role: 'user' });
      expect((await call(cloud, 'PUT', `/cloud/homey/${hubId}`, demo, { homey: { name: 'Loft' } })).status).toBe(200);
      expect((await me(member.token)).homeys[0].name).toBe('Loft');
      // The owner's own answer lists the new member too.
      const ownerHub = (await me(demo)).homeys.find((h: Json) => h._id === hubId);
      expect(ownerHub.users).toContainEqual({ _id: member.id, role: 'user' });

      const device = await call(cloud, 'POST', `/cloud/user/${member.id}/device`, member.token, {
        device: { name: 'Phone', platform: 'ios' },
      });
      expect(device.status).toBe(201);
      expect((await me(member.token)).devices.map((d: Json) => d.name)).toEqual(['Phone']);

      await call(cloud, 'PUT', `/cloud/user/${member.id}/subscription/homey_plus_me1`, internal, {
        subscription: { startedAt: '2025-05-01T00:00:00.000Z' },
      });
      expect(Object.keys((await me(member.token)).subscriptions)).toEqual(['homey_plus_me1']);

      await call(cloud, 'PUT', `/cloud/user/${member.id}`, member.token, { user: { firstname: 'Renamed' } });
      expect((await me(member.token)).firstname).toBe('Renamed');

      // A write that no route of this process made (another service or cloud node) is seen as well.
      const { db } = cloud.context.database;
      await db.updateTable('hubs').set({ name: 'Written elsewhere' }).where('id', '=', hubId).execute();
      expect((await me(member.token)).homeys[0].name).toBe('Written elsewhere');
      await db.deleteFrom('user_devices').where('user_id', '=', member.id).execute();
      expect((await me(member.token)).devices).toEqual([]);

      expect((await call(cloud, 'DELETE', `/cloud/homey/${hubId}/user/${member.id}`, demo)).status).toBe(204);
      expect((await me(member.token)).homeys).toEqual([]);
      const ownerAfter = (await me(demo)).homeys.find((h: Json) => h._id === hubId);
      expect(ownerAfter.users).not.toContainEqual(expect.objectContaining({ _id: member.id }));
    });

    it('answers 401 invalid_token once the token is revoked or the account is gone', async () => {
      const user = await createUser(cloud, 'leaving@hearth.test');
      const other = await signIn(cloud, 'leaving@hearth.test', 'a-good-password-1');
      expect((await me(user.token))._id).toBe(user.id);
      expect((await me(other.access_token))._id).toBe(user.id);
      const sessions = await readJson(await call(cloud, 'GET', `/cloud/user/${user.id}/session`, user.token));
      const otherSession = sessions.find((s: Json) => !s.current);
      expect((await call(cloud, 'DELETE', `/cloud/user/${user.id}/session/${otherSession._id}`, user.token)).status).toBe(204);
      const revoked = await call(cloud, 'GET', '/cloud/user/me', other.access_token);
      expect(revoked.status).toBe(401);
      expect(await readJson(revoked)).toMatchObject({ error: 'invalid_token' });

      expect((await call(cloud, 'DELETE', `/cloud/user/${user.id}`, internal, {})).status).toBe(204);
      const gone = await call(cloud, 'GET', '/cloud/user/me', user.token);
      expect(gone.status).toBe(401);
      expect(await readJson(gone)).toMatchObject({ error: 'invalid_token' });
    });
  });

  describe('additionalScopes', () => {
    it('reports which extra scopes the sign-in covers and which it lacks, without widening it', async () => {
      const user = await createUser(cloud, 'scoped@hearth.test');
      const narrow = await tokenRequest(cloud, {
        grant_type: 'password',
        username: 'scoped@hearth.test',
        password: 'a-good-password-1',
        scope: 'homey.device.readonly,homey.zone',
      });
      expect(narrow.status).toBe(200);
      const token = (await readJson(narrow)).access_token as string;

      const plain = await me(token);
      expect(plain._id).toBe(user.id);
      expect(plain).not.toHaveProperty('intersectedScopes');
      expect(plain).not.toHaveProperty('missingScopes');

      const asked = 'homey.device.readonly,homey.device, homey.zone.readonly,homey.flow,homey.flow';
      const report = await me(token, `?additionalScopes=${encodeURIComponent(asked)}`);
      expect(report).toMatchObject({ _id: user.id, homeys: [], devices: [] });
      expect(report.intersectedScopes).toEqual(['homey.device.readonly', 'homey.zone.readonly']);
      expect(report.missingScopes).toEqual(['homey.device', 'homey.flow']);
      // Asking changed nothing: the next answer without it is the plain one again, and a delegation token
      // for the hubs still carries only the granted scopes.
      expect(await me(token)).toEqual(plain);
      const jwt = await readJson(await call(cloud, 'POST', '/cloud/delegation/token?audience=homey', token, {}));
      const claims = JSON.parse(Buffer.from(String(jwt).split('.')[1] as string, 'base64url').toString());
      expect(claims.scopes).toEqual(['homey.device.readonly', 'homey.zone']);

      // A sign-in without scopes may do everything.
      const full = await me(user.token, '?additionalScopes=homey.flow,homey.app');
      expect(full.intersectedScopes).toEqual(['homey.flow', 'homey.app']);
      expect(full.missingScopes).toEqual([]);
      // Empty is the same as absent.
      expect(await me(user.token, '?additionalScopes=')).not.toHaveProperty('intersectedScopes');
    });

    it('refuses what is not a scope list', async () => {
      const user = await createUser(cloud, 'badscope@hearth.test');
      const bad = await call(
        cloud,
        'GET',
        `/cloud/user/me?additionalScopes=${encodeURIComponent('homey.device,<x>')}`,
        user.token,
      );
      expect(bad.status).toBe(400);
      expect(await readJson(bad)).toEqual({
        error: 'invalid_parameter',
        error_description: 'Invalid Parameter: additionalScopes. Not a scope: "<x>". Scopes are comma-joined',
        statusCode: 400,
      });
      const many = Array.from({ length: 33 }, (_, i) => `homey.s${i}`).join(',');
      const tooMany = await call(cloud, 'GET', `/cloud/user/me?additionalScopes=${many}`, user.token);
      expect(tooMany.status).toBe(400);
      expect((await readJson(tooMany)).error_description).toBe('Invalid Parameter: additionalScopes. At most 32 scopes');
      expect((await call(cloud, 'GET', '/cloud/user/me?additionalScopes=homey', null)).status).toBe(401);
    });
  });
});
