import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../../server';
import {
  accountPagesSignIn,
  type Backend,
  call,
  createUser,
  describeOnDatabases,
  readJson,
  startTestCloud,
} from '../../../testing';

const PASSWORD = 'quill-harbour-fennel-73';

/**
 * Adding a passkey is adding a sign-in that needs no password: only the account pages' own session, with the
 * password proved again, may start it. (The WebAuthn ceremony itself runs in Chromium: `e2e/account/passkeys`.)
 */
describeOnDatabases('adding a passkey', (backend: Backend) => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  it('refuses any token but the account pages’ own, even with the right password', async () => {
    const person = await createUser(cloud, 'third.party@example.test', PASSWORD);
    // A token of another client (here the demo client's password grant, with every scope it asked for).
    const start = await call(cloud, 'POST', '/cloud/user/me/passkeys/registration', person.token, { password: PASSWORD });
    expect(start.status).toBe(403);
    expect((await readJson(start)).error).toBe('forbidden');
    const add = await call(cloud, 'POST', '/cloud/user/me/passkeys', person.token, { name: 'Stolen', response: {} });
    expect(add.status).toBe(403);
  });

  it('needs the password again, from the account pages', async () => {
    await createUser(cloud, 'owner.pages@example.test', PASSWORD);
    const { access_token: token } = await accountPagesSignIn(cloud, 'owner.pages@example.test', PASSWORD);
    const path = '/cloud/user/me/passkeys/registration';
    expect((await call(cloud, 'POST', path, token)).status).toBe(400);
    const wrong = await call(cloud, 'POST', path, token, { password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect((await readJson(wrong)).error).toBe('invalid_credentials');
    const right = await call(cloud, 'POST', path, token, { password: PASSWORD });
    expect(right.status).toBe(200);
    const { options } = await readJson(right);
    expect(typeof options.challenge).toBe('string');
  });

  it('removes the passkeys with a password change or "sign out everywhere" when asked', async () => {
    const person = await createUser(cloud, 'keys.gone@example.test', PASSWORD);
    const store = (id: string) =>
      cloud.context.database.db
        .insertInto('passkeys')
        .values({
          id,
          user_id: person.id,
          name: id,
          public_key: 'AQID',
          counter: 0,
          transports: '[]',
          device_type: 'singleDevice',
          backed_up: false,
        })
        .execute();
    const listed = async (token: string) => (await readJson(await call(cloud, 'GET', '/cloud/user/me/passkeys', token))).length;
    await store('kept-key');
    const newPassword = 'saffron-tundra-violet-29';
    const kept = await call(cloud, 'POST', '/cloud/user/me/password', person.token, {
      old_password: PASSWORD,
      password: newPassword,
    });
    expect(kept.status).toBe(204);
    expect(await listed(person.token)).toBe(1);
    const removed = await call(cloud, 'POST', '/cloud/user/me/password', person.token, {
      old_password: newPassword,
      password: PASSWORD,
      removePasskeys: true,
    });
    expect(removed.status).toBe(204);
    expect(await listed(person.token)).toBe(0);

    await store('second-key');
    const half = await call(cloud, 'POST', '/cloud/user/me/sign-out', person.token, { removePasskeys: true });
    expect(half.status).toBe(400);
    expect(await listed(person.token)).toBe(1);
    const out = await call(cloud, 'POST', '/cloud/user/me/sign-out', person.token, { everywhere: true, removePasskeys: true });
    expect(out.status).toBe(204);
    const rows = await cloud.context.database.db.selectFrom('passkeys').select('id').where('user_id', '=', person.id).execute();
    expect(rows).toEqual([]);
  });
});
