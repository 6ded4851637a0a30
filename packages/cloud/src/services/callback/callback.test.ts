import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, describeOnDatabases, readJson, signIn, startTestCloud, TEST_PUBLIC_URL } from '../../testing';

describeOnDatabases('OAuth callback', (backend) => {
  let cloud: Cloud;
  let token: string;
  beforeAll(async () => {
    cloud = await startTestCloud(backend);
    token = (await signIn(cloud)).access_token;
  });
  afterAll(() => cloud.stop());

  it('registers a callback address and forwards the provider’s answer to it', async () => {
    const registered = await call(cloud, 'POST', '/callback/oauth2', token, {
      callback_url: 'http://192.168.1.20/oauth2/done?app=weather',
    });
    expect(registered.status).toBe(201);
    const registration = await readJson(registered);
    expect(registration.url).toBe(`${TEST_PUBLIC_URL}/callback/oauth2/${registration._id}`);
    const again = await readJson(
      await call(cloud, 'POST', '/callback/oauth2', token, { callback_url: 'http://192.168.1.20/oauth2/done?app=weather' }),
    );
    expect(again._id).toBe(registration._id);

    const forwarded = await fetch(`${cloud.url}/callback/oauth2/${registration._id}?code=abc&state=xyz`, { redirect: 'manual' });
    expect(forwarded.status).toBe(302);
    expect(forwarded.headers.get('location')).toBe('http://192.168.1.20/oauth2/done?app=weather&code=abc&state=xyz');
    expect((await fetch(`${cloud.url}/callback/oauth2/000000000000000000000000?code=1`, { redirect: 'manual' })).status).toBe(
      404,
    );
  });

  it('refuses addresses that are not http(s) and callers without a token', async () => {
    const bad = await call(cloud, 'POST', '/callback/oauth2', token, { callback_url: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect((await readJson(bad)).error_description).toContain('callback_url');
    expect((await call(cloud, 'POST', '/callback/oauth2', null, { callback_url: 'https://a.test/' })).status).toBe(401);
  });
});
