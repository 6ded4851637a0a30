import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  internalToken,
  readJson,
  signIn,
  startTestCloud,
} from '../../testing';

describeOnDatabases('hubs, bridges, delegation, mail and statistics', (backend) => {
  let cloud: Cloud;
  let internal: string;
  let demo: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    internal = await internalToken(cloud);
    demo = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  describe('hub registry', () => {
    it('registers a hub at start, lets its owner claim it with the claim token, and refreshes it on the next start', async () => {
      const owner = await createUser(cloud, 'owner@hearth.test');
      const data = {
        _id: 'aaaaaaaaaaaaaaaaaaaaaaa1',
        name: 'Attic',
        model: 'hearth-pro-5q',
        softwareVersion: '12.4.0',
        localUrl: 'http://192.168.1.20',
        portHttp: 80,
      };
      const registered = await call(cloud, 'POST', '/cloud/homey/', internal, { data });
      expect(registered.status).toBe(201);
      const { homey, claimToken } = await readJson(registered);
      expect(homey).toMatchObject({ _id: data._id, apiVersion: 3, platform: 'local', state: 'registered', users: [] });
      // The model's name and the region of the cloud it registered in, as the support form's ticket needs them.
      expect(homey).toMatchObject({ model: 'hearth-pro-5q', modelName: 'Hearth Pro (Early 2023)', region: 'eu' });
      expect(claimToken).toEqual(expect.any(String));

      expect((await call(cloud, 'GET', `/cloud/homey/${data._id}`, owner.token)).status).toBe(404);
      const noToken = await call(cloud, 'POST', `/cloud/homey/${data._id}/activate`, owner.token, {});
      expect(noToken.status).toBe(400);
      const wrong = await call(cloud, 'POST', `/cloud/homey/${data._id}/activate`, owner.token, { token: 'guess' });
      expect(wrong.status).toBe(403);
      const claimed = await call(cloud, 'POST', `/cloud/homey/${data._id}/activate`, owner.token, { token: claimToken });
      expect(claimed.status).toBe(200);
      expect(await readJson(claimed)).toMatchObject({
        role: 'owner',
        state: 'activated',
        users: [{ _id: owner.id, role: 'owner' }],
      });
      const someoneElse = await createUser(cloud, 'late@hearth.test');
      const again = await call(cloud, 'POST', `/cloud/homey/${data._id}/activate`, someoneElse.token, { token: claimToken });
      expect(again.status).toBe(403);

      const restart = await call(cloud, 'POST', '/cloud/homey/', internal, {
        data: { _id: data._id, softwareVersion: '12.5.0', localUrl: 'http://192.168.1.21' },
      });
      expect(await readJson(restart)).toMatchObject({
        claimToken: '',
        homey: { softwareVersion: '12.5.0', localUrl: 'http://192.168.1.21' },
      });
      const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', owner.token));
      expect(me.homeys).toEqual([
        expect.objectContaining({
          _id: data._id,
          name: 'Attic',
          softwareVersion: '12.5.0',
          modelName: 'Hearth Pro (Early 2023)',
        }),
      ]);

      const renamed = await call(cloud, 'PUT', `/cloud/homey/${data._id}`, owner.token, { homey: { name: 'Loft' } });
      expect(await readJson(renamed)).toMatchObject({ name: 'Loft' });
      const moved = await call(cloud, 'PUT', `/cloud/homey/${data._id}`, owner.token, {
        homey: { localUrl: 'http://evil.example' },
      });
      expect(moved.status).toBe(400);
      expect((await readJson(moved)).error_description).toContain('homey.localUrl');
      const badUrl = await call(cloud, 'POST', '/cloud/homey/', internal, { data: { _id: data._id, localUrl: 'not a url' } });
      expect(badUrl.status).toBe(400);

      expect((await call(cloud, 'DELETE', `/cloud/homey/${data._id}`, owner.token)).status).toBe(204);
      expect((await call(cloud, 'GET', `/cloud/homey/${data._id}`, owner.token)).status).toBe(404);
      const internalView = await readJson(await call(cloud, 'GET', `/cloud/homey/${data._id}`, internal));
      expect(internalView).toMatchObject({ state: 'released', users: [] });
    });

    it('answers activation the same for an unknown hub id, an unclaimed hub and an owned one (no enumeration)', async () => {
      const prober = await createUser(cloud, 'prober@hearth.test');
      const unclaimed = 'aaaaaaaaaaaaaaaaaaaaaab2';
      const registered = await call(cloud, 'POST', '/cloud/homey/', internal, {
        data: { _id: unclaimed, name: 'Shed', model: 'hearth-pro-5q', softwareVersion: '12.4.0' },
      });
      expect(registered.status).toBe(201);
      const owned = DEMO_HUBS[0]?.id as string;
      const unknown = 'bbbbbbbbbbbbbbbbbbbbbbb9';
      const answer = async (id: string, body: Record<string, unknown>) => {
        const response = await call(cloud, 'POST', `/cloud/homey/${id}/activate`, prober.token, body);
        return { status: response.status, body: await readJson(response) };
      };
      for (const body of [{ token: 'a-guess' }, {}]) {
        const forUnknown = await answer(unknown, body);
        expect(forUnknown.status).toBeGreaterThanOrEqual(400);
        expect(forUnknown.status).toBeLessThan(500);
        expect(await answer(unclaimed, body), `unclaimed hub, ${JSON.stringify(body)}`).toEqual(forUnknown);
        expect(await answer(owned, body), `owned hub, ${JSON.stringify(body)}`).toEqual(forUnknown);
      }
      expect((await answer(unknown, { token: 'a-guess' })).body).toMatchObject({ error: 'forbidden', statusCode: 403 });
      // Nothing changed hands.
      const view = await readJson(await call(cloud, 'GET', `/cloud/homey/${unclaimed}`, internal));
      expect(view).toMatchObject({ state: 'registered', users: [] });
      // The internal caller still learns that an id is unknown.
      expect((await call(cloud, 'POST', `/cloud/homey/${unknown}/activate`, internal, { userId: prober.id })).status).toBe(404);
    });

    it('lists and searches hubs for internal callers only', async () => {
      const all = await readJson(await call(cloud, 'GET', '/cloud/homey/', internal));
      expect(all.length).toBeGreaterThanOrEqual(3);
      const found = await readJson(await call(cloud, 'GET', '/cloud/homey/?search=Holiday', internal));
      expect(found.map((h: { _id: string }) => h._id)).toEqual([DEMO_HUBS[1]?.id]);
      expect((await call(cloud, 'GET', '/cloud/homey/', demo)).status).toBe(403);
    });

    it('adds members who then see the hub, and lets the owner remove them', async () => {
      const hubId = DEMO_HUBS[0]?.id as string;
      const guest = await createUser(cloud, 'guest@hearth.test');
      const added = await call(cloud, 'POST', `/cloud/homey/${hubId}/user`, demo, { user: guest.id, role: 'guest' });
      expect(added.status).toBe(200);
      expect((await readJson(added)).users).toContainEqual({ _id: guest.id, role: 'guest' });
      const guestView = await readJson(await call(cloud, 'GET', `/cloud/homey/${hubId}`, guest.token));
      expect(guestView.role).toBe('guest');
      const guestMe = await readJson(await call(cloud, 'GET', '/cloud/user/me', guest.token));
      expect(guestMe.homeys.map((h: { _id: string }) => h._id)).toEqual([hubId]);
      const guestRename = await call(cloud, 'PUT', `/cloud/homey/${hubId}`, guest.token, { homey: { name: 'Mine now' } });
      expect(guestRename.status).toBe(403);
      const badRole = await call(cloud, 'POST', `/cloud/homey/${hubId}/user`, demo, { user: guest.id, role: 'god' });
      expect(badRole.status).toBe(400);
      expect((await call(cloud, 'DELETE', `/cloud/homey/${hubId}/user/${guest.id}`, demo)).status).toBe(204);
      expect((await call(cloud, 'GET', `/cloud/homey/${hubId}`, guest.token)).status).toBe(404);
      await call(cloud, 'POST', `/cloud/homey/${hubId}/user`, demo, { user: guest.id, role: 'user' });
      const reset = await readJson(await call(cloud, 'POST', `/cloud/homey/${hubId}/user/reset`, demo, {}));
      expect(reset.users).toEqual([{ _id: expect.any(String), role: 'owner' }]);
    });

    it('keeps metadata, licenses and notification settings', async () => {
      const hubId = DEMO_HUBS[1]?.id as string;
      const base = `/cloud/homey/${hubId}/metadata`;
      expect((await call(cloud, 'POST', `${base}/wifi`, demo, { value: { ssid: 'home' } })).status).toBe(201);
      expect((await call(cloud, 'POST', `${base}/wifi`, demo, { value: { ssid: 'home' } })).status).toBe(409);
      expect(await readJson(await call(cloud, 'PUT', `${base}/wifi`, demo, { value: { ssid: 'attic' } }))).toEqual({
        ssid: 'attic',
      });
      expect(await readJson(await call(cloud, 'GET', `${base}/wifi`, demo))).toEqual({ ssid: 'attic' });
      expect(await readJson(await call(cloud, 'GET', base, demo))).toEqual({ wifi: { ssid: 'attic' } });
      expect((await call(cloud, 'DELETE', `${base}/wifi`, demo)).status).toBe(204);
      expect((await call(cloud, 'GET', `${base}/wifi`, demo)).status).toBe(404);

      const licensed = await readJson(await call(cloud, 'POST', `/cloud/homey/${hubId}/license/matter`, internal, {}));
      expect(licensed.licenses).toContain('matter');
      expect((await call(cloud, 'POST', `/cloud/homey/${hubId}/license/matter`, demo, {})).status).toBe(403);

      const notifications = await call(cloud, 'PUT', `/cloud/homey/${hubId}/send-connection-notifications`, demo, {
        email: false,
      });
      expect(await readJson(notifications)).toEqual({ push: true, email: false });
      const wrongType = await call(cloud, 'PUT', `/cloud/homey/${hubId}/send-connection-notifications`, demo, { email: 'no' });
      expect(wrongType.status).toBe(400);
      expect(await readJson(wrongType)).toMatchObject({
        error_description: 'Invalid Parameter Type: email. Got: string. Expected: boolean',
      });
    });
  });

  describe('delegation', () => {
    it('issues an RS512 JWT as a bare JSON string that verifies with the published key', async () => {
      const hubId = DEMO_HUBS[0]?.id as string;
      const response = await call(cloud, 'POST', `/cloud/delegation/token?audience=homey&homeyId=${hubId}`, demo, {});
      expect(response.status).toBe(200);
      const raw = await response.text();
      expect(raw.startsWith('"eyJ')).toBe(true);
      const token = JSON.parse(raw) as string;
      const pem = JSON.parse(await (await fetch(`${cloud.url}/cloud/delegation/key`)).text()) as string;
      expect(pem).toContain('BEGIN PUBLIC KEY');
      const { payload, protectedHeader } = await jwtVerify(token, await importSPKI(pem, 'RS512'), { audience: 'homey' });
      expect(protectedHeader.alg).toBe('RS512');
      const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', demo));
      expect(payload).toMatchObject({
        sub: me._id,
        aud: 'homey',
        homeyId: hubId,
        role: 'owner',
        name: 'Dana Demo',
        email: DEMO_USER.email,
      });
      expect((payload.exp as number) - (payload.iat as number)).toBeLessThanOrEqual(300);

      const verified = await call(
        cloud,
        'GET',
        `/cloud/delegation/verify?token=${encodeURIComponent(token)}&audience=homey`,
        null,
      );
      expect(await readJson(verified)).toMatchObject({ sub: me._id, homeyId: hubId });
      const tampered = await call(
        cloud,
        'GET',
        `/cloud/delegation/verify?token=${encodeURIComponent(`${token.slice(0, -4)}AAAA`)}`,
        null,
      );
      expect(tampered.status).toBe(401);
      const otherAudience = await call(
        cloud,
        'GET',
        `/cloud/delegation/verify?token=${encodeURIComponent(token)}&audience=store`,
        null,
      );
      expect(otherAudience.status).toBe(401);
    });

    it('refuses a token for a hub the user has no part in, and needs a signed-in user', async () => {
      const stranger = await createUser(cloud, 'stranger@hearth.test');
      const refused = await call(
        cloud,
        'POST',
        `/cloud/delegation/token?audience=homey&homeyId=${DEMO_HUBS[0]?.id}`,
        stranger.token,
        {},
      );
      expect(refused.status).toBe(404);
      const plain = await call(cloud, 'POST', '/cloud/delegation/token?audience=homey', stranger.token, {});
      expect(plain.status).toBe(200);
      expect((await call(cloud, 'POST', '/cloud/delegation/token?audience=homey', null, {})).status).toBe(401);
    });

    it('keeps the key pair across restarts of the same database', async () => {
      const first = await (await fetch(`${cloud.url}/cloud/delegation/key`)).text();
      const again = await (await fetch(`${cloud.url}/cloud/delegation/key`)).text();
      expect(again).toBe(first);
      const stored = await cloud.context.database.db.selectFrom('delegation_keys').select('public_pem').execute();
      expect(stored).toHaveLength(1);
      expect(JSON.parse(first)).toBe(stored[0]?.public_pem);
    });
  });

  describe('bridges', () => {
    it('registers (internal), activates into an owned hub and shows the bridge to its owner only', async () => {
      const created = await call(cloud, 'POST', '/cloud/bridge/', internal, {
        bridge: { serial: 'HB123', model: 'hearth-bridge', build: 2 },
      });
      expect(created.status).toBe(201);
      expect(
        (await call(cloud, 'POST', '/cloud/bridge/', internal, { bridge: { serial: 'HB123', model: 'hearth-bridge' } })).status,
      ).toBe(409);
      expect((await call(cloud, 'GET', '/cloud/bridge/HB123', demo)).status).toBe(404);
      const stranger = await createUser(cloud, 'bridgeless@hearth.test');
      const intoForeignHub = await call(cloud, 'POST', '/cloud/bridge/HB123/activate', stranger.token, {
        homeyId: DEMO_HUBS[0]?.id,
      });
      expect(intoForeignHub.status).toBe(404);
      const activated = await call(cloud, 'POST', '/cloud/bridge/HB123/activate', demo, { homeyId: DEMO_HUBS[0]?.id });
      expect(activated.status).toBe(200);
      const bridge = await readJson(activated);
      expect(bridge).toMatchObject({ serial: 'HB123', homeyId: DEMO_HUBS[0]?.id, build: 2 });
      expect(bridge.activationHistory).toHaveLength(1);
      expect((await call(cloud, 'GET', '/cloud/bridge/HB123', demo)).status).toBe(200);
      expect((await call(cloud, 'GET', '/cloud/bridge/HB123', stranger.token)).status).toBe(404);
      const updated = await readJson(await call(cloud, 'PUT', '/cloud/bridge/HB123', internal, { bridge: { build: 3 } }));
      expect(updated.build).toBe(3);
      const listed = await readJson(await call(cloud, 'GET', '/cloud/bridge/?serial=HB123', internal));
      expect(listed).toHaveLength(1);
    });
  });

  describe('mail', () => {
    it('sends a formatted mail (internal only) through SMTP', async () => {
      const sent = await call(cloud, 'POST', '/cloud/mail/formatted', internal, {
        toHomeyOwner: DEMO_HUBS[0]?.id,
        subject: 'Your hub is offline',
        body: 'Hello,\n\nYour hub <Home> went offline.',
        header: { title: 'Offline' },
        button: { text: 'Open', url: 'https://hearth.test/' },
      });
      expect(sent.status).toBe(200);
      expect(await readJson(sent)).toMatchObject({ accepted: [DEMO_USER.email] });
      const mail = await cloud.context.mail.sink?.waitFor((m) => m.subject === 'Your hub is offline');
      expect(mail?.to).toEqual([DEMO_USER.email]);
      expect(mail?.html).toContain('Your hub &lt;Home&gt; went offline.');
      expect((await call(cloud, 'POST', '/cloud/mail/formatted', demo, { to: 'a@b.test', subject: 's', body: 'b' })).status).toBe(
        403,
      );
      const noAddress = await call(cloud, 'POST', '/cloud/mail/formatted', internal, { subject: 's', body: 'b' });
      expect(noAddress.status).toBe(400);
    });

    it('keeps mailing-list membership and tags', async () => {
      const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', demo));
      const joined = await readJson(
        await call(cloud, 'POST', '/cloud/mail/mailchimp', internal, { listId: 'news', userId: me._id, tags: ['a'] }),
      );
      expect(joined.tags).toEqual(['a']);
      const tagged = await readJson(
        await call(cloud, 'POST', '/cloud/mail/mailchimp/tag', internal, { listId: 'news', userId: me._id, tag: 'b' }),
      );
      expect(tagged.tags).toEqual(['a', 'b']);
      expect((await call(cloud, 'DELETE', `/cloud/mail/mailchimp/tag/a/list/news/user/${me._id}`, internal)).status).toBe(204);
      const upserted = await readJson(
        await call(cloud, 'PUT', '/cloud/mail/mailchimp', internal, { listId: 'news', userId: me._id }),
      );
      expect(upserted.tags).toEqual(['b']);
    });
  });

  describe('statistics', () => {
    it('computes versions, locations, production and owners from the registry (internal only)', async () => {
      const versions = await readJson(await call(cloud, 'GET', '/cloud/stats/homey-software-versions', internal));
      expect(versions).toContainEqual({ softwareVersion: '12.4.0', count: expect.any(Number) });
      const locations = await readJson(await call(cloud, 'GET', '/cloud/stats/locations', internal));
      expect(locations).toContainEqual({ country: 'NL', count: expect.any(Number) });
      const production = await readJson(await call(cloud, 'GET', '/cloud/stats/homey-production-speed', internal));
      expect(production.reduce((sum: number, row: { count: number }) => sum + row.count, 0)).toBeGreaterThanOrEqual(3);
      const owners = await readJson(
        await call(cloud, 'GET', `/cloud/stats/homey-owner-data?homeyId=${DEMO_HUBS[0]?.id}`, internal),
      );
      expect(owners).toEqual([expect.objectContaining({ homeyId: DEMO_HUBS[0]?.id, email: DEMO_USER.email })]);
      expect(await readJson(await call(cloud, 'GET', '/cloud/stats/app-installs', internal))).toEqual([]);
      expect((await call(cloud, 'GET', '/cloud/stats/locations', demo)).status).toBe(403);
    });
  });
});
