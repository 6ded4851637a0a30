import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../../server';
import {
  call,
  createUser,
  describeOnDatabases,
  internalToken,
  readJson,
  startTestCloud,
  TEST_PUBLIC_URL,
} from '../../../testing';

describeOnDatabases('hubs and household', (backend) => {
  let cloud: Cloud;
  let internal: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    internal = await internalToken(cloud);
  });
  afterAll(() => cloud.stop());

  /** A hub registering as it does at start; answers its id and the claim code it prints. */
  async function freshHub(name: string) {
    const answer = await readJson(
      await call(cloud, 'POST', '/cloud/homey/', internal, { data: { name, model: 'hearth-pro-mini-6q' } }),
    );
    return { id: answer.homey._id as string, code: answer.claimToken as string };
  }
  const inviteToken = async (to: string, after: number) => {
    const mail = await cloud.context.mail.sink?.waitFor(
      (m) => m.to.includes(to) && m.receivedAt.getTime() >= after && m.text.includes(`${TEST_PUBLIC_URL}/invite#token=`),
    );
    return decodeURIComponent(/\/invite#token=(\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
  };

  it('claims a hub by the code it printed, once, telling nobody which hubs exist', async () => {
    const owner = await createUser(cloud, 'claimer@example.test');
    const other = await createUser(cloud, 'latecomer@example.test');
    const hub = await freshHub('Attic');
    const wrong = await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    // What the account page shows names Hearth's hubs, not the ecosystem's brand.
    expect((await readJson(wrong.clone())).error_description).toBe(
      'This code does not claim any hub. Check it against the one the hub shows now.',
    );
    const claimed = await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: ` ${hub.code} ` });
    expect(claimed.status).toBe(200);
    expect(await readJson(claimed)).toMatchObject({ _id: hub.id, name: 'Attic', role: 'owner', modelName: 'Hearth Pro mini' });
    const again = await call(cloud, 'POST', '/cloud/homey/claim', other.token, { code: hub.code });
    expect(again.status).toBe(403);
    expect((await readJson(again)).error_description).toBe((await readJson(wrong)).error_description);
    const me = await readJson(await call(cloud, 'GET', '/cloud/user/me', owner.token));
    expect(me.homeys.map((h: { _id: string }) => h._id)).toContain(hub.id);
    expect((await call(cloud, 'POST', '/cloud/homey/claim', null, { code: hub.code })).status).toBe(401);
    expect((await call(cloud, 'POST', '/cloud/homey/claim', owner.token, {})).status).toBe(400);
  });

  it('invites by e-mail; the invitee previews and accepts once and shows as a household member', async () => {
    const owner = await createUser(cloud, 'host@example.test');
    const guest = await createUser(cloud, 'invitee@example.test');
    const stranger = await createUser(cloud, 'stranger@example.test');
    const hub = await freshHub('Lake house');
    await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: hub.code });

    expect(
      (await call(cloud, 'POST', `/cloud/homey/${hub.id}/invite`, stranger.token, { email: 'x@example.test', role: 'user' }))
        .status,
    ).toBe(404);
    const bad = await call(cloud, 'POST', `/cloud/homey/${hub.id}/invite`, owner.token, {
      email: 'invitee@example.test',
      role: 'owner',
    });
    expect(bad.status).toBe(400);

    const started = Date.now();
    const created = await call(cloud, 'POST', `/cloud/homey/${hub.id}/invite`, owner.token, {
      email: 'Invitee@Example.test',
      role: 'manager',
    });
    expect(created.status).toBe(201);
    const invite = await readJson(created);
    expect(invite).toMatchObject({ homeyId: hub.id, email: 'invitee@example.test', role: 'manager', inviterId: owner.id });
    const token = await inviteToken('invitee@example.test', started);
    const pending = await readJson(await call(cloud, 'GET', `/cloud/homey/${hub.id}/invite`, owner.token));
    expect(pending.map((i: { _id: string }) => i._id)).toEqual([invite._id]);

    const preview = await call(cloud, 'POST', '/cloud/user/me/invite', guest.token, { token });
    expect(await readJson(preview)).toMatchObject({
      inviterId: owner.id,
      inviterName: 'Test host',
      homeyId: hub.id,
      homeyName: 'Lake house',
      role: 'manager',
    });
    // Someone without an account yet (no sign-in at all) sees the same: the link's token is the proof.
    const signedOut = await call(cloud, 'POST', '/cloud/user/me/invite', null, { token });
    expect(signedOut.status).toBe(200);
    expect(await readJson(signedOut)).toMatchObject({
      inviterName: 'Test host',
      homeyName: 'Lake house',
      role: 'manager',
      email: 'invitee@example.test',
    });
    expect((await call(cloud, 'POST', '/cloud/user/me/invite', null, { token: 'x'.repeat(43) })).status).toBe(410);
    // The token must come from the inviter it names.
    const mismatch = await call(cloud, 'POST', `/cloud/user/${guest.id}/accept_invite/${stranger.id}`, guest.token, { token });
    expect(mismatch.status).toBe(410);
    const accepted = await call(cloud, 'POST', `/cloud/user/${guest.id}/accept_invite/${owner.id}`, guest.token, { token });
    expect(accepted.status).toBe(200);
    expect(await readJson(accepted)).toMatchObject({ inviterId: owner.id, homeyId: hub.id, role: 'manager' });
    expect(
      (await call(cloud, 'POST', `/cloud/user/${stranger.id}/accept_invite/${owner.id}`, stranger.token, { token })).status,
    ).toBe(410);
    expect((await readJson(await call(cloud, 'GET', '/cloud/user/me/accepted_invites', guest.token)))[0]).toMatchObject({
      inviterId: owner.id,
    });

    const members = await readJson(await call(cloud, 'GET', `/cloud/homey/${hub.id}/user`, owner.token));
    expect(members).toEqual([
      expect.objectContaining({ _id: owner.id, role: 'owner', fullname: 'Test host', email: 'host@example.test' }),
      expect.objectContaining({ _id: guest.id, role: 'manager', fullname: 'Test invitee', email: 'invitee@example.test' }),
    ]);
    const guestView = await readJson(await call(cloud, 'GET', '/cloud/user/me', guest.token));
    expect(guestView.homeys).toEqual([expect.objectContaining({ _id: hub.id, role: 'manager' })]);
    expect((await call(cloud, 'GET', `/cloud/homey/${hub.id}/user`, stranger.token)).status).toBe(404);
    expect(await readJson(await call(cloud, 'GET', `/cloud/homey/${hub.id}/invite`, owner.token))).toEqual([]);

    // A manager may invite users but not managers; a withdrawn invitation stops working.
    expect(
      (await call(cloud, 'POST', `/cloud/homey/${hub.id}/invite`, guest.token, { email: 'm@example.test', role: 'manager' }))
        .status,
    ).toBe(403);
    const second = await readJson(
      await call(cloud, 'POST', `/cloud/homey/${hub.id}/invite`, guest.token, { email: 'later@example.test', role: 'guest' }),
    );
    const secondToken = await inviteToken('later@example.test', started);
    expect((await call(cloud, 'DELETE', `/cloud/homey/${hub.id}/invite/${second._id}`, owner.token)).status).toBe(204);
    expect((await call(cloud, 'POST', '/cloud/user/me/invite', stranger.token, { token: secondToken })).status).toBe(410);
    expect((await call(cloud, 'DELETE', `/cloud/homey/${hub.id}/invite/${second._id}`, owner.token)).status).toBe(404);
  });

  it('hands a hub to a member, who becomes its owner while the old owner stays as a manager', async () => {
    const owner = await createUser(cloud, 'giver@example.test');
    const member = await createUser(cloud, 'taker@example.test');
    const outsider = await createUser(cloud, 'outsider@example.test');
    const hub = await freshHub('Studio flat');
    await call(cloud, 'POST', '/cloud/homey/claim', owner.token, { code: hub.code });
    await call(cloud, 'POST', `/cloud/homey/${hub.id}/user`, owner.token, { user: member.id, role: 'user' });

    expect((await call(cloud, 'POST', `/cloud/homey/${hub.id}/transfer`, owner.token, { userId: outsider.id })).status).toBe(400);
    expect((await call(cloud, 'POST', `/cloud/homey/${hub.id}/transfer`, member.token, { userId: member.id })).status).toBe(403);
    const handed = await call(cloud, 'POST', `/cloud/homey/${hub.id}/transfer`, owner.token, { userId: member.id });
    expect(handed.status).toBe(200);
    expect((await readJson(handed)).users).toEqual([
      { _id: member.id, role: 'owner' },
      { _id: owner.id, role: 'manager' },
    ]);
    expect((await readJson(await call(cloud, 'GET', `/cloud/homey/${hub.id}`, member.token))).role).toBe('owner');
  });
});
