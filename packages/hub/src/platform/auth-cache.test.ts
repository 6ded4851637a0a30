import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';

// A token's caller is resolved once and kept; these show that no change to its session or user is missed.
let t: TestHub;
beforeAll(async () => {
  t = await startTestHub();
});
afterAll(() => t.stop());

const me = (token: string) => t.call<{ role?: string; error?: string }>('GET', '/users/user/me', undefined, token);

it('refuses a token at once after its session is revoked', async () => {
  const token = t.sessionFor('user');
  expect((await me(token)).status).toBe(200);
  const session = t.hub.context.sessions.findByToken(token);
  t.hub.context.sessions.delete(session?.id as string);
  expect((await me(token)).body).toMatchObject({ error: 'invalid_token' });
});

it('sees a disabled user and a changed role on the next request', async () => {
  const token = t.sessionFor('guest');
  expect((await me(token)).body.role).toBe('guest');
  const userId = t.hub.context.sessions.findByToken(token)?.userId as string;
  t.hub.context.users.update(userId, { role: 'manager' });
  expect((await me(token)).body.role).toBe('manager');
  // The new role lifts the cap on the session's scopes at once too.
  expect((await t.call('POST', '/zones/zone', { name: 'Den', parent: t.hub.context.users.owner()?.id }, token)).status).not.toBe(
    403,
  );
  t.hub.context.users.update(userId, { enabled: false });
  expect((await me(token)).status).toBe(401);
});

it('refuses a session once it expires, even right after a successful call', async () => {
  const token = t.sessionFor('user', null, { expiresAt: new Date(Date.now() + 300).toISOString() });
  expect((await me(token)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect((await me(token)).status).toBe(401);
});
