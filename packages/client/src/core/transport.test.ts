import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, HubAPI, messages, NotFoundError, ParameterError, Secrets, TimeoutError, Transport } from '../node';
import { type RunningHub, startRealHub, startTinyServer, type TinyServer } from '../testing/servers';
import { errorMessage } from './transport';

let hub: RunningHub;
let tiny: TinyServer;

beforeAll(async () => {
  hub = await startRealHub();
  tiny = await startTinyServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/slow') return; // never answers
    if (url.pathname === '/broken-json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"oops":');
      return;
    }
    if (url.pathname === '/empty') {
      response.writeHead(204).end();
      return;
    }
    if (url.pathname === '/teapot') {
      response.writeHead(418, 'I am a teapot').end();
      return;
    }
    if (url.pathname === '/wrapped') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","result":{"a":1}}');
      return;
    }
    if (url.pathname === '/leak') {
      const auth = request.headers.authorization ?? '';
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `bad header ${auth}` }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
});
afterAll(async () => {
  await tiny.close();
  await hub.stop();
});

const transport = (secrets = new Secrets(), debug?: (line: string) => void) =>
  // Generous, so a loaded machine does not time out ordinary calls; the timeout test sets its own.
  new Transport({ fetch: globalThis.fetch, secrets, debug, timeout: 5000 });

describe('transport', () => {
  it('takes the error message from error_description, error_message, error, message, result, else the status text', () => {
    const all = { error_description: 'a', error_message: 'b', error: 'c', message: 'd', result: 'e' };
    expect(errorMessage(all, 'Status')).toBe('a');
    expect(errorMessage({ ...all, error_description: undefined }, 'Status')).toBe('b');
    expect(errorMessage({ error: 'c', message: 'd', result: 'e' }, 'Status')).toBe('c');
    expect(errorMessage({ message: 'd', result: 'e' }, 'Status')).toBe('d');
    expect(errorMessage({ result: 'e' }, 'Status')).toBe('e');
    expect(errorMessage({}, 'Status')).toBe('Status');
    expect(errorMessage(undefined, '')).toBe('Unknown API Error');
  });

  it('answers 204 with nothing, unwraps {status, result}, reads other types as text', async () => {
    expect(await transport().request({ method: 'GET', url: `${tiny.url}/empty` })).toBeUndefined();
    expect(await transport().request({ method: 'GET', url: `${tiny.url}/wrapped` })).toEqual({ a: 1 });
    expect(await transport().request({ method: 'GET', url: `${tiny.url}/text` })).toBe('hello');
  });

  it("throws 'Invalid response from server' on broken JSON and the status text when no body explains", async () => {
    await expect(transport().request({ method: 'GET', url: `${tiny.url}/broken-json` })).rejects.toThrow(
      messages.invalidResponse,
    );
    const error = await transport()
      .request({ method: 'GET', url: `${tiny.url}/teapot` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ statusCode: 418, message: 'I am a teapot' });
  });

  it('times out each call after its timeout with a 408 TimeoutError', async () => {
    const started = Date.now();
    const error = await transport()
      .request({ method: 'GET', url: `${tiny.url}/slow`, timeout: 200 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ statusCode: 408, message: 'Timeout after 200ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('redacts known secrets and credential patterns from error messages and debug lines', async () => {
    const secrets = new Secrets();
    secrets.add('super-secret-token-value');
    const lines: string[] = [];
    const error = await transport(secrets, (line) => lines.push(line))
      .request({
        method: 'GET',
        url: `${tiny.url}/leak?access_token=super-secret-token-value`,
        headers: { Authorization: 'Bearer super-secret-token-value' },
      })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe('bad header Bearer [redacted]');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain('super-secret-token-value');
    expect(secrets.redact('grant_type=password&password=hunter22&username=a')).toBe(
      'grant_type=password&password=[redacted]&username=a',
    );
    expect(secrets.redact('{"client_secret":"abc","x":1}')).toBe('{"client_secret":"[redacted]","x":1}');
  });
});

describe('hub calls through the derived methods (real hub)', () => {
  it('calls a derived manager method with the PAT', async () => {
    const api = await HubAPI.local({ address: hub.url, token: hub.token });
    expect(api.id).toBe('0123456789abcdef01234567');
    const info = await api.system.getInfo();
    expect(info).toMatchObject({ id: api.id, softwareVersion: '12.4.0' });
  });

  it("throws 'Missing Parameter' and 'Invalid Parameter Type' before any request is made", async () => {
    const lines: string[] = [];
    const api = await HubAPI.local({ address: hub.url, token: hub.token, debug: (line) => lines.push(line) });
    lines.length = 0;
    // @ts-expect-error name is required
    await expect(api.system.setSystemName({})).rejects.toThrow(new ParameterError('Missing Parameter: name'));
    // @ts-expect-error name must be a string
    await expect(api.system.setSystemName({ name: 5 })).rejects.toThrow(
      'Invalid Parameter Type: name. Got: number. Expected: string',
    );
    expect(lines).toEqual([]);
  });

  it("answers the hub's errors as typed errors with its error_description, and never shows the token", async () => {
    const api = await HubAPI.local({ address: hub.url, token: hub.token });
    const wrong = new HubAPI({ id: api.id, baseUrl: hub.url, token: 'not-a-real-token-123' });
    const error = await wrong.system.getInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ statusCode: 401, code: 'invalid_token' });
    expect((error as Error).message).not.toContain('not-a-real-token-123');
    const missing = await api.transport
      .request({ method: 'GET', url: `${hub.url}/api/manager/nothing-here`, headers: { 'X-Homey-ID': api.id } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ statusCode: 404, message: 'Not Found: GET /api/manager/nothing-here' });
  });
});
