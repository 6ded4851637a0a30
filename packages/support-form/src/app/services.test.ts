import { afterEach, describe, expect, it, vi } from 'vitest';
import { formStore } from '../features/auth/api/session';
import type { TicketPayload } from '../features/ticket/api/createTicket';
import { createHttpServices } from './services';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Call = { method: string; path: string; headers: Record<string, string>; body: string };

/** Answers every request with `answer` and records it. */
function stubFetch(answer: (call: Call) => Response): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const call = {
        method: init.method ?? 'GET',
        path: new URL(url).pathname + new URL(url).search,
        headers: init.headers as Record<string, string>,
        body: String(init.body ?? ''),
      };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const me = { _id: 'u1', firstname: 'Ada', lastname: 'L', email: 'a@b.c', homeys: [], devices: [], subscriptions: {} };
const basic = `Basic ${btoa('hearth-support-form:')}`;
const payload: TicketPayload = {
  subject: 'Hi',
  message: 'My question is long enough.',
  name: 'Ada L',
  email: 'a@b.c',
  tags: ['account', 'account_other'],
  diagnosticReport: '',
  homeyApps: '',
  homeyAppsCount: 0,
  homeyBridges: 0,
  homeyId: '',
  homeyLanguage: '',
  homeyLicenses: '',
  homeyModel: '',
  homeyModelName: '',
  homeyPlatform: '',
  homeyRegion: '',
  homeySoftwareVersion: '',
  homeyUsers: 0,
  underVoltagePercentage: '',
  underVoltageOccured: 'no',
  appId: '',
  driverId: '',
  orderId: '',
  subscriptionId: '',
  subscriptions: '',
  supportFormPath: 'My Account → Other',
  uploadTokens: [],
};

/** The form's services over @hearth/client, as the browser runs them (fetch answered here). */
describe('cloud calls', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
    history.replaceState(null, '', '/');
  });

  it('refresh an expired session once and retry', async () => {
    localStorage.setItem('hearth-support-form:token', JSON.stringify({ access_token: 'old', refresh_token: 'r1' }));
    const calls = stubFetch(({ path, headers, body }) => {
      if (path === '/cloud/oauth2/token') {
        expect(body).toContain('grant_type=refresh_token');
        expect(body).toContain('refresh_token=r1');
        return json(200, { access_token: 'new', refresh_token: 'r2' });
      }
      if (headers.Authorization === 'Bearer old')
        return json(401, { error: 'invalid_token', error_description: 'Invalid or expired token', statusCode: 401 });
      return json(200, me);
    });
    const user = await createHttpServices('http://cloud.test').getUser();
    expect(user).toMatchObject({ id: 'u1', fullname: 'Ada L', hubs: [] });
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers.Authorization}`)).toEqual([
      'GET /cloud/user/me Bearer old',
      `POST /cloud/oauth2/token ${basic}`,
      'GET /cloud/user/me Bearer new',
    ]);
    expect(JSON.parse(localStorage.getItem('hearth-support-form:token') ?? '{}')).toMatchObject({
      access_token: 'new',
      refresh_token: 'r2',
    });
  });

  it('on return from the sign-in page exchange the code with the PKCE verifier and remove it from the address', async () => {
    formStore.set({ codeVerifier: 'verifier-1' });
    sessionStorage.setItem('hearth-support-form:state', 'state-1');
    history.replaceState(null, '', '/support/?code=code-1&state=state-1');
    const calls = stubFetch(() => json(200, { access_token: 'a1', refresh_token: 'r1' }));
    expect(await createHttpServices('http://cloud.test').init()).toBe(true);
    expect(calls).toHaveLength(1);
    const form = new URLSearchParams(calls[0]?.body);
    expect([calls[0]?.path, calls[0]?.headers.Authorization]).toEqual(['/cloud/oauth2/token', basic]);
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'authorization_code', code: 'code-1', code_verifier: 'verifier-1' });
    expect(location.search).toBe('');
    expect(JSON.parse(localStorage.getItem('hearth-support-form:token') ?? '{}')).toMatchObject({ access_token: 'a1' });
    expect(sessionStorage.getItem('hearth-support-form:pkce')).toBeNull();
  });

  it('drop a code whose state this tab did not send, unused', async () => {
    formStore.set({ codeVerifier: 'verifier-1' });
    sessionStorage.setItem('hearth-support-form:state', 'state-1');
    history.replaceState(null, '', '/support/?code=code-1&state=forged');
    const calls = stubFetch(() => json(200, { access_token: 'a1' }));
    expect(await createHttpServices('http://cloud.test').init()).toBe(false);
    expect(calls).toEqual([]);
    expect(location.search).toBe('');
  });

  it('send the ticket with its idempotency key, and read orders and articles through the client', async () => {
    localStorage.setItem('hearth-support-form:token', JSON.stringify({ access_token: 't1' }));
    const calls = stubFetch(({ path }) => {
      if (path === '/store/user/order')
        return json(200, [{ id: 'o1', number: '100231', date: '2025-05-02T10:00:00.000Z', items: [{ name: 'Hearth Pro' }] }]);
      if (path.startsWith('/api/helpdesk/article')) return json(200, { id: 'a', name: 'Article', html_url: 'http://kb/a' });
      return json(200, { ticketCreated: true, id: 'ticket-1' });
    });
    const services = createHttpServices('http://cloud.test');
    expect(await services.getOrders()).toEqual([
      { id: 'o1', number: '100231', date: '2025-05-02T10:00:00.000Z', items: ['Hearth Pro'] },
    ]);
    expect(await services.getArticle('a b')).toEqual({ id: 'a b', name: 'Article', html_url: 'http://kb/a' });
    const result = await services.createTicket(payload, 'key-1');
    expect(result).toEqual({ ticketCreated: true, id: 'ticket-1' });
    const ticket = calls.at(-1);
    expect([ticket?.method, ticket?.path, ticket?.headers['Idempotency-Key'], ticket?.headers.Authorization]).toEqual([
      'POST',
      '/api/helpdesk/ticket',
      'key-1',
      'Bearer t1',
    ]);
    expect(JSON.parse(ticket?.body ?? '')).toEqual(payload);
    expect(calls[1]?.path).toBe('/api/helpdesk/article?id=a%20b');
  });

  it('sign out ends the session on the cloud, then forgets the token and the client state', async () => {
    localStorage.setItem('hearth-support-form:token', JSON.stringify({ access_token: 't1' }));
    const calls = stubFetch(() => new Response(null, { status: 204 }));
    const services = createHttpServices('http://cloud.test');
    expect(await services.init()).toBe(true);
    await services.signOut();
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers.Authorization}`)).toEqual([
      'POST /cloud/user/me/sign-out Bearer t1',
    ]);
    expect(localStorage.getItem('hearth-support-form:token')).toBeNull();
    expect(await services.init()).toBe(false);
  });

  it('sign out forgets the token here even when the cloud cannot be reached', async () => {
    localStorage.setItem('hearth-support-form:token', JSON.stringify({ access_token: 't1' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('fetch failed');
      }),
    );
    const services = createHttpServices('http://cloud.test');
    await services.signOut();
    expect(localStorage.getItem('hearth-support-form:token')).toBeNull();
  });
});
