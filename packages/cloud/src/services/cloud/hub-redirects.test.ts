import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  type Backend,
  createUser,
  DEMO_HUBS,
  DEMO_USER,
  describeOnDatabases,
  openSignInPage,
  pkcePair,
  startTestCloud,
  submitSignIn,
} from '../../testing';
import { HOME_CLIENT_ID } from './seed';

/**
 * The household web app (`hearth-home`) is sent back to the root of the hub that served it. Hubs register their own
 * addresses, so a hub's owner picks them: only the person's own hubs may receive that person's code.
 */
describeOnDatabases('hub addresses as redirects of the web app', (backend: Backend) => {
  let cloud: Cloud;
  // The demo user's hub: to anyone else, an address its owner chose.
  const hubRoot = `${DEMO_HUBS[0]?.url}/`;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud.stop());

  const signInFor = async (credentials: { email: string; password: string }) => {
    const query = {
      response_type: 'code',
      client_id: HOME_CLIENT_ID,
      redirect_uri: hubRoot,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 'web-app',
    };
    const { cookie, csrf } = await openSignInPage(cloud, query);
    return submitSignIn(cloud, cookie, { ...query, csrf, ...credentials });
  };

  it('sends a member of the hub back to it with a code', async () => {
    const answer = await signInFor({ email: DEMO_USER.email, password: DEMO_USER.password });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') as string);
    expect(`${location.origin}/`).toBe(hubRoot);
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('gives no code, and no redirect, for someone else’s hub', async () => {
    await createUser(cloud, 'not.a.member@example.test', 'heron-basalt-clover-82');
    const answer = await signInFor({ email: 'not.a.member@example.test', password: 'heron-basalt-clover-82' });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toContain('not one of yours');
    const codes = await cloud.context.database.db
      .selectFrom('oauth_codes')
      .select('redirect_uri')
      .where('client_id', '=', HOME_CLIENT_ID)
      .execute();
    expect(codes).toHaveLength(1);
  });
});
