import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  authorizationCode,
  call,
  createUser,
  DEMO_CLIENTS,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  internalToken,
  type Json,
  pkcePair,
  readJson,
  signIn,
  startTestCloud,
  TEST_PUBLIC_URL,
  tokenRequest,
} from '../../testing';

/** A `width` × `height` image with a gradient, so resizing has something to do. */
function image(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set([i % width, Math.floor(i / width) % 256, 128], i * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

async function animatedGif() {
  const frames = [await image(90, 60).png().toBuffer(), await image(90, 60).negate().png().toBuffer()];
  return sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
}

/** `png` with its header claiming other dimensions (and a matching checksum), as a decompression bomb would. */
function withDimensions(png: Buffer, width: number, height: number) {
  const copy = Buffer.from(png);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
  return copy;
}

function avatarForm(data: Buffer, filename: string, type: string, field = 'avatar') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type }), filename);
  return form;
}

describeOnDatabases('accounts', (backend) => {
  let cloud: Cloud;
  let internal: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    internal = await internalToken(cloud);
  });
  afterAll(() => cloud.stop());

  describe('users', () => {
    it('creates a user (internal only), refuses a taken address and names missing fields', async () => {
      const body = {
        user: { email: 'New.Person@Hearth.test', password: 'long-enough-pw', firstname: 'New', lastname: 'Person' },
      };
      const created = await call(cloud, 'POST', '/cloud/user', internal, body);
      expect(created.status).toBe(201);
      const user = await readJson(created);
      expect(user).toMatchObject({
        email: 'new.person@hearth.test',
        homeys: [],
        devices: [],
        subscriptions: {},
        fullname: 'New Person',
      });
      expect(Object.keys(user)[0]).toBe('_id');
      expect((await call(cloud, 'POST', '/cloud/user', internal, body)).status).toBe(409);
      const missing = await call(cloud, 'POST', '/cloud/user', internal, { user: { email: 'x@hearth.test' } });
      expect(missing.status).toBe(400);
      expect(await readJson(missing)).toMatchObject({
        error: 'missing_parameter',
        error_description: 'Missing Parameter: user.password',
      });
      const short = await call(cloud, 'POST', '/cloud/user', internal, { user: { email: 'y@hearth.test', password: 'short' } });
      expect(short.status).toBe(400);
      expect((await readJson(short)).error_description).toContain('user.password');
      const asUser = await call(cloud, 'POST', '/cloud/user', (await signIn(cloud)).access_token, body);
      expect(asUser.status).toBe(403);
      expect(await readJson(asUser)).toMatchObject({ error: 'private_operation' });
    });

    it('gets and updates oneself', async () => {
      const me = await createUser(cloud, 'self@hearth.test');
      const got = await call(cloud, 'GET', `/cloud/user/${me.id}`, me.token);
      expect(got.status).toBe(200);
      const updated = await call(cloud, 'PUT', `/cloud/user/${me.id}`, me.token, {
        user: { firstname: 'Selma', language: 'nl' },
      });
      expect(updated.status).toBe(200);
      expect(await readJson(updated)).toMatchObject({ firstname: 'Selma', language: 'nl' });
      const password = await call(cloud, 'PUT', `/cloud/user/${me.id}`, me.token, { user: { password: 'another-password' } });
      expect(password.status).toBe(400);
      const unknownField = await call(cloud, 'PUT', `/cloud/user/${me.id}`, me.token, { user: { isAdmin: true } });
      expect(unknownField.status).toBe(400);
      expect((await readJson(unknownField)).error_description).toContain('isAdmin');
    });

    it('manages devices and addresses', async () => {
      const me = await createUser(cloud, 'things@hearth.test');
      const device = await call(cloud, 'POST', `/cloud/user/${me.id}/device`, me.token, {
        device: { name: 'Phone', platform: 'android', appVersion: '10.1.0', devmode: true },
      });
      expect(device.status).toBe(201);
      const created = await readJson(device);
      expect(created).toMatchObject({ name: 'Phone', platform: 'android', devmode: true });
      const user = await readJson(await call(cloud, 'GET', '/cloud/user/me', me.token));
      expect(user.devices).toHaveLength(1);
      const renamed = await call(cloud, 'PUT', `/cloud/user/${me.id}/device/${created._id}`, me.token, {
        device: { name: 'Old phone' },
      });
      expect(await readJson(renamed)).toMatchObject({ name: 'Old phone' });
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/device/${created._id}`, me.token)).status).toBe(204);
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/device/${created._id}`, me.token)).status).toBe(404);

      const address = await readJson(
        await call(cloud, 'POST', `/cloud/user/${me.id}/address`, me.token, {
          address: { street: 'Main street', number: '1', zipcode: '1000 AA', city: 'Amsterdam', country: 'NL' },
        }),
      );
      expect(address).toMatchObject({ street: 'Main street', extra: '' });
      const updated = await readJson(
        await call(cloud, 'PUT', `/cloud/user/${me.id}/address/${address._id}`, me.token, { address: { number: '2' } }),
      );
      expect(updated.number).toBe('2');
      expect(await readJson(await call(cloud, 'GET', `/cloud/user/${me.id}/address`, me.token))).toHaveLength(1);
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/address/${address._id}`, me.token)).status).toBe(204);
    });

    it('uploads an avatar checked by content and serves it resized to medium and large', async () => {
      const me = await createUser(cloud, 'avatar@hearth.test');
      const upload = (form: FormData) =>
        fetch(`${cloud.url}/cloud/user/${me.id}/avatar`, {
          method: 'POST',
          headers: { authorization: `Bearer ${me.token}` },
          body: form,
        });
      const served = async (url: string) => {
        const answer = await fetch(`${cloud.url}${new URL(url).pathname}`);
        expect(answer.status).toBe(200);
        const data = Buffer.from(await answer.arrayBuffer());
        const meta = await sharp(data, { animated: true }).metadata();
        return { type: answer.headers.get('content-type'), meta };
      };
      const uploads = [
        { data: await image(300, 200).png().toBuffer(), name: 'me.png', type: 'image/png', format: 'png' },
        // The declared type and name are ignored: the content decides.
        { data: await image(1000, 700).jpeg().toBuffer(), name: 'me.png', type: 'image/png', format: 'jpeg' },
        { data: await animatedGif(), name: 'anim.gif', type: 'image/gif', format: 'gif' },
      ];
      for (const { data, name, type, format } of uploads) {
        const ok = await upload(avatarForm(data, name, type));
        expect(ok.status).toBe(200);
        const urls = await readJson(ok);
        expect(urls.medium).toContain(`${TEST_PUBLIC_URL}/cloud/user/${me.id}/avatar/medium`);
        expect(urls.large).toContain(`${TEST_PUBLIC_URL}/cloud/user/${me.id}/avatar/large`);
        const user = await readJson(await call(cloud, 'GET', '/cloud/user/me', me.token));
        expect(user.avatar).toEqual(urls);
        for (const [size, side] of [
          ['medium', 128],
          ['large', 512],
        ] as const) {
          const { type: servedType, meta } = await served(urls[size]);
          expect(servedType).toBe(`image/${format}`);
          expect(meta.format).toBe(format);
          expect([meta.width, meta.pageHeight ?? meta.height]).toEqual([side, side]);
          if (format === 'gif') expect(meta.pages).toBe(2);
        }
      }
      expect((await fetch(`${cloud.url}/cloud/user/${me.id}/avatar/small`)).status).toBe(404);

      const fake = await upload(avatarForm(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'evil.png', 'image/png'));
      expect(fake.status).toBe(400);
      expect(await readJson(fake)).toMatchObject({
        error: 'invalid_parameter',
        error_description: 'Invalid Parameter: avatar. Only jpg, png or gif images are accepted',
      });
      const png = await image(40, 40).png().toBuffer();
      const broken = await upload(avatarForm(png.subarray(0, 60), 'cut.png', 'image/png'));
      expect(broken.status).toBe(400);
      expect(await readJson(broken)).toMatchObject({
        error: 'invalid_parameter',
        error_description: 'Invalid Parameter: avatar. The image could not be read',
      });
      const bomb = await upload(avatarForm(withDimensions(png, 20_000, 20_000), 'bomb.png', 'image/png'));
      expect(bomb.status).toBe(400);
      expect(await readJson(bomb)).toMatchObject({
        error: 'invalid_parameter',
        error_description: 'Invalid Parameter: avatar. The image may be at most 40 megapixels',
      });
      const big = await upload(avatarForm(Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 10)]), 'big.png', 'image/png'));
      expect(big.status).toBe(413);
      expect(await readJson(big)).toMatchObject({
        error: 'payload_too_large',
        error_description: 'The avatar may be at most 5 MB',
      });
      const wrongField = await upload(avatarForm(png, 'me.png', 'image/png', 'picture'));
      expect(wrongField.status).toBe(400);
      const json = await call(cloud, 'POST', `/cloud/user/${me.id}/avatar`, me.token, { avatar: 'x' });
      expect(json.status).toBe(415);
      // The refused uploads left the last good avatar in place.
      const { meta } = await served((await readJson(await call(cloud, 'GET', '/cloud/user/me', me.token))).avatar.large);
      expect(meta.format).toBe('gif');
    });

    it('changes the password with the old one and signs out the other sessions', async () => {
      const me = await createUser(cloud, 'pw@hearth.test', 'first-password');
      const other = await signIn(cloud, 'pw@hearth.test', 'first-password');
      const wrong = await call(cloud, 'POST', '/cloud/user/me/password', me.token, {
        old_password: 'nope',
        password: 'second-password',
      });
      expect(wrong.status).toBe(401);
      const missing = await call(cloud, 'POST', '/cloud/user/me/password', me.token, { password: 'second-password' });
      expect(missing.status).toBe(400);
      expect(await readJson(missing)).toMatchObject({ error_description: 'Missing Parameter: old_password' });
      const changed = await call(cloud, 'POST', '/cloud/user/me/password', me.token, {
        old_password: 'first-password',
        password: 'second-password',
      });
      expect(changed.status).toBe(204);
      expect((await call(cloud, 'GET', '/cloud/user/me', me.token)).status).toBe(200);
      expect((await call(cloud, 'GET', '/cloud/user/me', other.access_token)).status).toBe(401);
      await expect(signIn(cloud, 'pw@hearth.test', 'first-password')).rejects.toThrow();
      await signIn(cloud, 'pw@hearth.test', 'second-password');
    });

    it('mails a one-time reset link whose page sets a new password', async () => {
      await createUser(cloud, 'forgot@hearth.test', 'old-password-1');
      const unknown = await call(cloud, 'POST', '/cloud/login/password-forgotten', null, { email: 'nobody@hearth.test' });
      expect(unknown.status).toBe(204);
      const asked = await call(cloud, 'POST', '/cloud/login/password-forgotten', null, { email: 'Forgot@hearth.test' });
      expect(asked.status).toBe(204);
      const sink = cloud.context.mail.sink;
      if (!sink) throw new Error('the test cloud runs an SMTP sink');
      const mail = await sink.waitFor((m) => m.to.includes('forgot@hearth.test'));
      expect(sink.messages.some((m) => m.to.includes('nobody@hearth.test'))).toBe(false);
      expect(mail.subject).toBe('Reset your Hearth password');
      const link = /(http\S+password-reset\?token=\S+)/.exec(mail.text)?.[1] as string;
      expect(link).toBeTruthy();
      const path = new URL(link);
      const page = await fetch(`${cloud.url}${path.pathname}${path.search}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] as string;
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const token = path.searchParams.get('token') as string;
      const post = (fields: Record<string, string>) =>
        fetch(`${cloud.url}/cloud/password-reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          body: new URLSearchParams(fields).toString(),
        });
      expect((await post({ csrf, token, password: 'short' })).status).toBe(400);
      const done = await post({ csrf, token, password: 'brand-new-password' });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('Password changed');
      expect((await post({ csrf, token, password: 'another-new-password' })).status).toBe(400);
      await signIn(cloud, 'forgot@hearth.test', 'brand-new-password');
      expect((await fetch(`${cloud.url}${path.pathname}${path.search}`)).status).toBe(400);
    });

    it('serves the forgotten-password page without JavaScript', async () => {
      const page = await fetch(`${cloud.url}/cloud/password-forgotten`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<form method="post" action="/cloud/password-forgotten">');
      expect(html).toContain('<label for="email">');
    });

    it('lists sessions and revokes one', async () => {
      const me = await createUser(cloud, 'sessions@hearth.test', 'session-password');
      const second = await signIn(cloud, 'sessions@hearth.test', 'session-password');
      const list = await readJson(await call(cloud, 'GET', `/cloud/user/${me.id}/session`, me.token));
      expect(list).toHaveLength(2);
      const current = list.find((s: { current: boolean }) => s.current);
      const other = list.find((s: { current: boolean }) => !s.current);
      expect(current).toMatchObject({ clientId: DEMO_CLIENTS.demo.id, clientName: 'Hearth demo app' });
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/session/${other._id}`, me.token)).status).toBe(204);
      const revoked = await call(cloud, 'GET', '/cloud/user/me', second.access_token);
      expect(revoked.status).toBe(401);
      expect(await readJson(revoked)).toMatchObject({ error: 'invalid_token' });
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/session/${other._id}`, me.token)).status).toBe(404);
      const refresh = await tokenRequest(cloud, { grant_type: 'refresh_token', refresh_token: second.refresh_token as string });
      expect(refresh.status).toBe(400);
    });

    it('lists and revokes third-party apps', async () => {
      const me = await createUser(cloud, 'apps@hearth.test', 'apps-password-1');
      const { verifier, challenge } = pkcePair();
      const query = {
        client_id: DEMO_CLIENTS.supportForm.id,
        redirect_uri: `${TEST_PUBLIC_URL}/support/`,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const code = await authorizationCode(cloud, query, { email: 'apps@hearth.test', password: 'apps-password-1' });
      const formTokens = await readJson(
        await tokenRequest(
          cloud,
          { grant_type: 'authorization_code', code, code_verifier: verifier },
          { id: DEMO_CLIENTS.supportForm.id },
        ),
      );
      const apps = await readJson(await call(cloud, 'GET', '/cloud/user/me/pat/apps', me.token));
      expect(apps).toEqual([expect.objectContaining({ _id: DEMO_CLIENTS.supportForm.id, sessions: 1 })]);
      expect((await call(cloud, 'DELETE', '/cloud/user/me/pat/apps', me.token)).status).toBe(204);
      expect((await call(cloud, 'GET', '/cloud/user/me', formTokens.access_token)).status).toBe(401);
      expect((await call(cloud, 'GET', '/cloud/user/me', me.token)).status).toBe(200);
    });

    it('adds and removes the app_developer_trusted role (internal only)', async () => {
      const me = await createUser(cloud, 'dev@hearth.test');
      const refused = await call(cloud, 'PUT', `/cloud/user/${me.id}/role/app_developer_trusted`, me.token);
      expect(refused.status).toBe(403);
      const added = await readJson(await call(cloud, 'PUT', `/cloud/user/${me.id}/role/app_developer_trusted`, internal));
      expect(added.roleIds).toEqual(['app_developer_trusted']);
      expect(added.roles).toEqual([{ _id: 'app_developer_trusted', name: 'Trusted app developer' }]);
      const removed = await readJson(await call(cloud, 'DELETE', `/cloud/user/${me.id}/role/app_developer_trusted`, internal));
      expect(removed.roleIds).toEqual([]);
    });

    it('records subscriptions (internal) that the user sees with startedAt', async () => {
      const me = await createUser(cloud, 'subs@hearth.test');
      const put = await call(cloud, 'PUT', `/cloud/user/${me.id}/subscription/homey_plus_abc123`, internal, {
        subscription: { startedAt: '2025-05-01T00:00:00.000Z' },
      });
      expect(put.status).toBe(200);
      expect(await readJson(put)).toMatchObject({ _id: 'homey_plus_abc123', type: 'homey_plus', status: 'active' });
      const user = await readJson(await call(cloud, 'GET', '/cloud/user/me', me.token));
      expect(user.subscriptions.homey_plus_abc123.startedAt).toBe('2025-05-01T00:00:00.000Z');
      const unknownType = await call(cloud, 'PUT', `/cloud/user/${me.id}/subscription/mystery`, internal, { subscription: {} });
      expect(unknownType.status).toBe(400);
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/subscription/homey_plus_abc123`, internal)).status).toBe(204);
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}/subscription/homey_plus_abc123`, internal)).status).toBe(404);
    });

    it('accepts an invite and lists it', async () => {
      const inviter = await createUser(cloud, 'inviter@hearth.test');
      const me = await createUser(cloud, 'invitee@hearth.test');
      const accepted = await call(cloud, 'POST', `/cloud/user/${me.id}/accept_invite/${inviter.id}`, me.token, {});
      expect(accepted.status).toBe(200);
      const list = await readJson(await call(cloud, 'GET', '/cloud/user/me/accepted_invites', me.token));
      expect(list).toEqual([expect.objectContaining({ inviterId: inviter.id })]);
      const profile = await readJson(await call(cloud, 'GET', `/cloud/user/${me.id}/profile`, me.token));
      expect(profile).toMatchObject({ _id: me.id, firstname: 'Test' });
    });

    it('deletes an account with its password, taking its data along', async () => {
      const me = await createUser(cloud, 'leaving@hearth.test', 'leaving-password');
      await call(cloud, 'POST', `/cloud/user/${me.id}/device`, me.token, { device: { name: 'Phone', platform: 'ios' } });
      const noPassword = await call(cloud, 'DELETE', `/cloud/user/${me.id}`, me.token, {});
      expect(noPassword.status).toBe(400);
      const wrong = await call(cloud, 'DELETE', `/cloud/user/${me.id}`, me.token, { password: 'nope' });
      expect(wrong.status).toBe(401);
      expect((await call(cloud, 'DELETE', `/cloud/user/${me.id}`, me.token, { password: 'leaving-password' })).status).toBe(204);
      expect((await call(cloud, 'GET', '/cloud/user/me', me.token)).status).toBe(401);
      expect((await call(cloud, 'GET', `/cloud/user/${me.id}`, internal)).status).toBe(404);
      const devices = await cloud.context.database.db
        .selectFrom('user_devices')
        .select('id')
        .where('user_id', '=', me.id)
        .execute();
      expect(devices).toEqual([]);
    });

    it('keeps the demo user as seeded', async () => {
      const tokens = await signIn(cloud, DEMO_USER.email, DEMO_USER.password);
      expect(tokens.access_token).toBeTruthy();
    });
  });

  const userMe = async (token: string, query = ''): Promise<Json> => {
    const answer = await call(cloud, 'GET', `/cloud/user/me${query}`, token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return readJson(answer);
  };

  describe('GET /user/me is current after every change, whoever makes it', () => {
    it('shows hubs, devices, subscriptions and profile changes on the next call', async () => {
      const demo = (await signIn(cloud)).access_token;
      const hubId = DEMO_HUBS[2]?.id as string;
      const member = await createUser(cloud, 'member@hearth.test');
      expect((await userMe(member.token)).homeys).toEqual([]);
      expect((await userMe(member.token)).homeys).toEqual([]);

      // Another user (the hub's owner) adds them, then renames the hub.
      await call(cloud, 'POST', `/cloud/homey/${hubId}/user`, demo, { user: member.id, role: 'user' });
      const view = await userMe(member.token);
      expect(view.homeys.map((h: Json) => [h._id, h.role])).toEqual([[hubId, 'user']]);
      expect(view.homeys[0].users).toContainEqual({ _id: member.id, role: 'user' });
      expect((await call(cloud, 'PUT', `/cloud/homey/${hubId}`, demo, { homey: { name: 'Loft' } })).status).toBe(200);
      expect((await userMe(member.token)).homeys[0].name).toBe('Loft');
      // The owner's own answer lists the new member too.
      const ownerHub = (await userMe(demo)).homeys.find((h: Json) => h._id === hubId);
      expect(ownerHub.users).toContainEqual({ _id: member.id, role: 'user' });

      const device = await call(cloud, 'POST', `/cloud/user/${member.id}/device`, member.token, {
        device: { name: 'Phone', platform: 'ios' },
      });
      expect(device.status).toBe(201);
      expect((await userMe(member.token)).devices.map((d: Json) => d.name)).toEqual(['Phone']);

      await call(cloud, 'PUT', `/cloud/user/${member.id}/subscription/homey_plus_me1`, internal, {
        subscription: { startedAt: '2025-05-01T00:00:00.000Z' },
      });
      expect(Object.keys((await userMe(member.token)).subscriptions)).toEqual(['homey_plus_me1']);

      await call(cloud, 'PUT', `/cloud/user/${member.id}`, member.token, { user: { firstname: 'Renamed' } });
      expect((await userMe(member.token)).firstname).toBe('Renamed');

      // A write that no route of this process made (another service or cloud node) is seen as well.
      const { db } = cloud.context.database;
      await db.updateTable('hubs').set({ name: 'Written elsewhere' }).where('id', '=', hubId).execute();
      expect((await userMe(member.token)).homeys[0].name).toBe('Written elsewhere');
      await db.deleteFrom('user_devices').where('user_id', '=', member.id).execute();
      expect((await userMe(member.token)).devices).toEqual([]);

      expect((await call(cloud, 'DELETE', `/cloud/homey/${hubId}/user/${member.id}`, demo)).status).toBe(204);
      expect((await userMe(member.token)).homeys).toEqual([]);
      const ownerAfter = (await userMe(demo)).homeys.find((h: Json) => h._id === hubId);
      expect(ownerAfter.users).not.toContainEqual(expect.objectContaining({ _id: member.id }));
    });

    it('answers 401 invalid_token as soon as the session is revoked', async () => {
      const user = await createUser(cloud, 'revoked@hearth.test');
      const other = await signIn(cloud, 'revoked@hearth.test', 'a-good-password-1');
      expect((await userMe(user.token))._id).toBe(user.id);
      expect((await userMe(other.access_token))._id).toBe(user.id);
      const sessions = await readJson(await call(cloud, 'GET', `/cloud/user/${user.id}/session`, user.token));
      const otherSession = sessions.find((s: Json) => !s.current);
      expect((await call(cloud, 'DELETE', `/cloud/user/${user.id}/session/${otherSession._id}`, user.token)).status).toBe(204);
      const revoked = await call(cloud, 'GET', '/cloud/user/me', other.access_token);
      expect(revoked.status).toBe(401);
      expect(await readJson(revoked)).toMatchObject({ error: 'invalid_token' });
    });
  });

  describe('GET /user/me?additionalScopes', () => {
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

      const plain = await userMe(token);
      expect(plain._id).toBe(user.id);
      expect(plain).not.toHaveProperty('intersectedScopes');
      expect(plain).not.toHaveProperty('missingScopes');

      const asked = 'homey.device.readonly,homey.device, homey.zone.readonly,homey.flow,homey.flow';
      const report = await userMe(token, `?additionalScopes=${encodeURIComponent(asked)}`);
      expect(report).toMatchObject({ _id: user.id, homeys: [], devices: [] });
      expect(report.intersectedScopes).toEqual(['homey.device.readonly', 'homey.zone.readonly']);
      expect(report.missingScopes).toEqual(['homey.device', 'homey.flow']);
      // Asking changed nothing: the next answer without it is the plain one again, and a delegation token
      // for the hubs still carries only the granted scopes.
      expect(await userMe(token)).toEqual(plain);
      const jwt = await readJson(await call(cloud, 'POST', '/cloud/delegation/token?audience=homey', token, {}));
      const claims = JSON.parse(Buffer.from(String(jwt).split('.')[1] as string, 'base64url').toString());
      expect(claims.scopes).toEqual(['homey.device.readonly', 'homey.zone']);

      // A sign-in without scopes may do everything.
      const full = await userMe(user.token, '?additionalScopes=homey.flow,homey.app');
      expect(full.intersectedScopes).toEqual(['homey.flow', 'homey.app']);
      expect(full.missingScopes).toEqual([]);
      // Empty is the same as absent.
      expect(await userMe(user.token, '?additionalScopes=')).not.toHaveProperty('intersectedScopes');
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
