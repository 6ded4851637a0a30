import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpServices } from './services';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('cloud calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refresh an expired session once and retry', async () => {
    localStorage.setItem('hearth-support-form:token', JSON.stringify({ access_token: 'old', refresh_token: 'r1' }));
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const auth = (init.headers as Record<string, string>).Authorization ?? '';
        calls.push(`${init.method} ${new URL(url).pathname} ${auth}`);
        if (url.endsWith('/cloud/oauth2/token')) {
          expect(String(init.body)).toContain('grant_type=refresh_token');
          expect(String(init.body)).toContain('client_id=hearth-support-form');
          return json(200, { access_token: 'new', refresh_token: 'r2' });
        }
        if (auth === 'Bearer old')
          return json(401, { error: 'invalid_token', error_description: 'Invalid or expired token', statusCode: 401 });
        return json(200, {
          _id: 'u1',
          firstname: 'Ada',
          lastname: 'L',
          email: 'a@b.c',
          homeys: [],
          devices: [],
          subscriptions: {},
        });
      }),
    );
    const user = await createHttpServices('http://cloud.test').getUser();
    expect(user).toMatchObject({ id: 'u1', fullname: 'Ada L', hubs: [] });
    expect(calls).toEqual(['GET /cloud/user/me Bearer old', 'POST /cloud/oauth2/token ', 'GET /cloud/user/me Bearer new']);
    expect(JSON.parse(localStorage.getItem('hearth-support-form:token') ?? '{}')).toEqual({
      access_token: 'new',
      refresh_token: 'r2',
    });
  });
});
