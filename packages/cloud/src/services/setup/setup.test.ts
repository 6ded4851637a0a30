import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  internalToken,
  type Json,
  readJson,
  signIn,
  startTestCloud,
} from '../../testing';
import { setupStore } from './store';

describeOnDatabases('setup service', (backend) => {
  let cloud: Cloud;
  let userToken: string;
  let provider: string;
  let other: { id: string; token: string };

  beforeAll(async () => {
    cloud = await startTestCloud(backend, { trustProxy: true });
    userToken = (await signIn(cloud)).access_token;
    provider = await internalToken(cloud);
    other = await createUser(cloud, `setup-other-${randomBytes(4).toString('hex')}@hearth.test`);
  });
  afterAll(() => cloud.stop());

  /** Registers a new, unowned hub as a hub does at its first start; answers its id and claim token. */
  async function newHub(): Promise<{ id: string; claimToken: string }> {
    const id = randomBytes(12).toString('hex');
    const answer = await call(cloud, 'POST', '/cloud/homey/', provider, {
      data: { _id: id, name: 'New hub', model: 'hearth-pro-5q', platform: 'local', softwareVersion: '12.4.0', language: 'en' },
    });
    expect(answer.status).toBe(201);
    return { id, claimToken: (await readJson(answer)).claimToken };
  }

  const open = async (token = userToken, body: object = {}) => {
    const answer = await call(cloud, 'POST', '/setup/', token, body);
    expect(answer.status).toBe(201);
    return readJson(answer);
  };
  const delegation = async (token: string) =>
    (await readJson(await call(cloud, 'POST', '/cloud/delegation/token?audience=homey', token, {}))) as unknown as string;
  const expectError = async (answer: Response, status: number, error: string) => {
    const body = await readJson(answer);
    expect({ status: answer.status, error: body.error }, JSON.stringify(body)).toEqual({ status, error });
    return body;
  };

  it('sets a new hub up: the hub joins, runs the app’s commands, is signed in, claimed, named and done', async () => {
    const hub = await newHub();
    const session = await open(userToken, { sn: 'HRT-0001' });
    expect(session).toMatchObject({ state: 'created', sn: 'HRT-0001', userId: DEMO_USER.id, homeyId: null, data: {} });
    expect(session.hubToken).toEqual(expect.any(String));
    expect(new Date(session.expiresAt).getTime() - Date.now()).toBeGreaterThan(3500_000);
    const path = `/setup/${session._id}`;
    const asHub = (method: string, suffix: string, body?: unknown) =>
      call(cloud, method, `${path}${suffix}`, session.hubToken, body);
    const asApp = (method: string, suffix: string, body?: unknown) => call(cloud, method, `${path}${suffix}`, userToken, body);

    // Nothing reaches a hub that has not joined; the app cannot move the session itself.
    await expectError(await asApp('POST', '/command', { manager: 'system', command: 'getInfo' }), 409, 'conflict');
    await expectError(await asApp('PUT', '/state', { data: { state: 'homey_connected', homeyId: hub.id } }), 403, 'forbidden');
    await expectError(await asHub('PUT', '/state', { data: { state: 'homey_connected' } }), 400, 'missing_parameter');
    const joined = await asHub('PUT', '/state', { data: { state: 'homey_connected', homeyId: hub.id } });
    expect(await readJson(joined)).toMatchObject({ state: 'homey_connected', homeyId: hub.id });
    // Joining again (a hub that restarted) changes nothing; another hub cannot take its place.
    expect((await asHub('PUT', '/state', { data: { state: 'homey_connected', homeyId: hub.id } })).status).toBe(200);
    const stranger = randomBytes(12).toString('hex');
    await expectError(await asHub('PUT', '/state', { data: { state: 'homey_connected', homeyId: stranger } }), 409, 'conflict');
    await expectError(await asHub('PUT', '/state', { data: { state: 'configured' } }), 409, 'conflict');
    expect(await readJson(await asApp('GET', '/state'))).toMatchObject({ state: 'homey_connected' });

    // Shared data: merged, a null removes a key.
    await asApp('PUT', '', { data: { language: 'nl', wifi: 'Home' } });
    expect((await readJson(await asHub('PUT', '', { data: { wifi: null, ready: true } }))).data).toEqual({
      language: 'nl',
      ready: true,
    });

    // A command: the app sends it, the hub finds it unanswered and answers once; the app reads the answer.
    const sent = await asApp('POST', '/command', { manager: 'system', command: 'getInfo', args: { verbose: true } });
    expect(sent.status).toBe(201);
    const command = await readJson(sent);
    expect(command).toMatchObject({ manager: 'system', command: 'getInfo', args: { verbose: true }, result: null });
    await asApp('POST', '/command', { manager: 'zones', command: 'getZones' });
    const pending = (await readJson(await asHub('GET', '/command'))) as unknown as Json[];
    expect(pending.map((c) => c.command)).toEqual(['getInfo', 'getZones']);
    await expectError(await asApp('PUT', `/command/${command._id}`, { result: [null, 1] }), 403, 'forbidden');
    const answered = await asHub('PUT', `/command/${command._id}`, { result: [null, { name: 'New hub' }] });
    expect(await readJson(answered)).toMatchObject({ result: [null, { name: 'New hub' }], answeredAt: expect.any(String) });
    await expectError(await asHub('PUT', `/command/${command._id}`, { result: [null, 2] }), 409, 'conflict');
    await expectError(await asHub('PUT', `/command/${randomBytes(12).toString('hex')}`, { result: [] }), 404, 'not_found');
    const read = (await readJson(await asApp('GET', '/command'))) as unknown as Json[];
    expect(read.map((c) => c.result)).toEqual([[null, { name: 'New hub' }], null]);

    // Sign-in: only the account's own delegation token for hubs; the hub alone reads it.
    await expectError(await asApp('POST', '/reset', { data: { name: 'Too early' } }), 409, 'conflict');
    await expectError(await asApp('POST', '/login-token', { data: { token: await delegation(other.token) } }), 403, 'forbidden');
    await expectError(await asApp('POST', '/login-token', { data: { token: 'not.a.token' } }), 403, 'forbidden');
    const token = await delegation(userToken);
    expect(await readJson(await asApp('POST', '/login-token', { data: { token } }))).toMatchObject({ state: 'signed_in' });
    expect((await readJson(await asApp('GET', ''))).delegationToken).toBeUndefined();
    expect((await readJson(await asHub('GET', ''))).delegationToken).toBe(token);
    await expectError(await asApp('POST', '/login-token', { data: { token } }), 409, 'conflict');

    // The reset claims the hub with its claim token, names it, and says what the hub is to become.
    await expectError(await asApp('POST', '/reset', { data: { name: 'Living' } }), 400, 'missing_parameter');
    await expectError(await asApp('POST', '/reset', { data: { token: 'wrong' } }), 403, 'forbidden');
    await expectError(await asHub('POST', '/reset', { data: { token: hub.claimToken } }), 403, 'forbidden');
    // What the hub would act on is checked before anything is claimed: a time zone and a language it can keep.
    const zone = { token: hub.claimToken, extraProperties: { timezone: 'Mars/Olympus_Mons' } };
    await expectError(await asApp('POST', '/reset', { data: zone }), 400, 'invalid_parameter');
    const language = { token: hub.claimToken, extraProperties: { language: 'Dutch' } };
    expect((await asApp('POST', '/reset', { data: language })).status).toBe(400);
    expect((await readJson(await asApp('GET', '/state'))).state).toBe('signed_in');
    const configured = await asApp('POST', '/reset', {
      data: {
        factoryreset: true,
        name: 'Living room hub',
        token: hub.claimToken,
        extraProperties: { timezone: 'Europe/Amsterdam' },
      },
    });
    expect(await readJson(configured)).toMatchObject({
      state: 'configured',
      reset: { factoryreset: true, name: 'Living room hub', extraProperties: { timezone: 'Europe/Amsterdam' } },
    });
    const record = await readJson(await call(cloud, 'GET', `/cloud/homey/${hub.id}`, userToken));
    expect(record).toMatchObject({ name: 'Living room hub', state: 'activated' });
    expect(record.users).toEqual([expect.objectContaining({ _id: DEMO_USER.id, role: 'owner' })]);

    // The hub reports the reset applied; the session takes no more commands.
    await expectError(await asApp('PUT', '/state', { data: { state: 'signed_in' } }), 409, 'conflict');
    expect(await readJson(await asHub('PUT', '/state', { data: { state: 'done' } }))).toMatchObject({ state: 'done' });
    expect((await readJson(await asHub('GET', ''))).delegationToken).toBeUndefined();
    await expectError(await asApp('POST', '/command', { manager: 'system', command: 'getInfo' }), 409, 'conflict');
    expect((await asApp('DELETE', '')).status).toBe(204);
    await expectError(await asApp('GET', ''), 404, 'not_found');
  });

  it('shows a session to its account and its hub only', async () => {
    const session = await open();
    const path = `/setup/${session._id}`;
    for (const suffix of ['', '/state', '/command', '/backup', '/voice?language=en'])
      await expectError(await call(cloud, 'GET', `${path}${suffix}`, other.token), 404, 'not_found');
    await expectError(await call(cloud, 'DELETE', path, other.token), 404, 'not_found');
    await expectError(await call(cloud, 'PUT', path, other.token, { data: { x: 1 } }), 404, 'not_found');
    await expectError(await call(cloud, 'GET', path, null), 401, 'missing_token');
    await expectError(await call(cloud, 'GET', path, 'someone-elses-hub-token'), 401, 'invalid_token');
    // Another session's hub token opens only that session.
    const second = await open(other.token);
    await expectError(await call(cloud, 'GET', path, second.hubToken), 401, 'invalid_token');
    // The provider's internal client is no account: it only opens sessions for hubs.
    await expectError(await call(cloud, 'GET', path, provider), 401, 'invalid_token');
    await expectError(await call(cloud, 'POST', '/setup/', userToken, { homeyId: DEMO_HUBS[0]?.id }), 403, 'forbidden');
  });

  it('lets a hub open a session for itself, which the first account to open it by id takes', async () => {
    const hub = await newHub();
    await expectError(await call(cloud, 'POST', '/setup/', provider, {}), 400, 'missing_parameter');
    const session = await open(provider, { homeyId: hub.id });
    expect(session).toMatchObject({ state: 'homey_connected', userId: null, homeyId: hub.id });
    await expectError(await call(cloud, 'GET', `/setup/${session._id}/backup`, session.hubToken), 409, 'conflict');
    const taken = await readJson(await call(cloud, 'GET', `/setup/${session._id}`, other.token));
    expect(taken.userId).toBe(other.id);
    await expectError(await call(cloud, 'GET', `/setup/${session._id}`, userToken), 404, 'not_found');
    expect(await readJson(await call(cloud, 'GET', `/setup/${session._id}/backup`, session.hubToken))).toEqual([]);
  });

  it('answers 410 once a session expired, and the sweep removes it a day later', async () => {
    const session = await open();
    const { db } = cloud.context.database;
    await db
      .updateTable('setup_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', session._id)
      .execute();
    await expectError(await call(cloud, 'GET', `/setup/${session._id}`, userToken), 410, 'gone');
    await expectError(await call(cloud, 'GET', `/setup/${session._id}/state`, session.hubToken), 410, 'gone');
    const store = setupStore(cloud.context);
    await store.sweepExpired();
    await expectError(await call(cloud, 'GET', `/setup/${session._id}`, userToken), 410, 'gone');
    await db
      .updateTable('setup_sessions')
      .set({ expires_at: new Date(Date.now() - 25 * 3600_000) })
      .where('id', '=', session._id)
      .execute();
    expect(await store.sweepExpired()).toBeGreaterThanOrEqual(1);
    await expectError(await call(cloud, 'GET', `/setup/${session._id}`, userToken), 404, 'not_found');
  });

  it('limits the sessions an account has open', async () => {
    const user = await createUser(cloud, `setup-many-${randomBytes(4).toString('hex')}@hearth.test`);
    for (let i = 0; i < 10; i++) await open(user.token);
    await expectError(await call(cloud, 'POST', '/setup/', user.token, {}), 409, 'conflict');
  });

  it('plays the hub’s voice for a language it speaks', async () => {
    const session = await open();
    const voice = await readJson(await call(cloud, 'GET', `/setup/${session._id}/voice?language=nl`, session.hubToken));
    expect(voice).toMatchObject({ language: 'nl', voice: 'hearth-nl', mimeType: 'audio/wav' });
    expect(voice.text).toContain('Hallo');
    const wav = Buffer.from(voice.audio, 'base64');
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.subarray(8, 12).toString()).toBe('WAVE');
    expect(wav.length).toBeGreaterThan(1000);
    await expectError(await call(cloud, 'GET', `/setup/${session._id}/voice?language=xx`, userToken), 404, 'not_found');
    await expectError(await call(cloud, 'GET', `/setup/${session._id}/voice?language=english`, userToken), 404, 'not_found');
  });

  it('finds the time zone of the caller’s address', async () => {
    const fromAddress = (ip: string) =>
      fetch(`${cloud.url}/setup/timezone`, { headers: { authorization: `Bearer ${userToken}`, 'x-forwarded-for': ip } });
    expect(await readJson(await fromAddress('8.8.8.8'))).toMatchObject({
      timezone: 'America/Los_Angeles',
      source: 'ip',
      country: 'US',
    });
    // The test talks over loopback: a private address has no place, and the hub starts on UTC.
    expect(await readJson(await call(cloud, 'GET', '/setup/timezone', userToken))).toEqual({
      timezone: 'UTC',
      source: 'default',
      country: null,
      city: null,
    });
    await expectError(await call(cloud, 'GET', '/setup/timezone', null), 401, 'missing_token');
  });
});
