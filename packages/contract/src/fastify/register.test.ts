import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HearthError } from '../errors';
import { hubManager } from '../operation';
import { createApiServer, implement, type Principal, registerOperations, serializedJson } from './index';

const op = hubManager('things');
const things = {
  getThing: op({
    name: 'getThing',
    method: 'GET',
    path: '/thing/:id',
    scope: 'homey.thing.readonly',
    params: Type.Object({ id: Type.String() }),
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
    response: Type.Object({ id: Type.String(), limit: Type.Number() }),
  }),
  createThing: op({
    name: 'createThing',
    method: 'POST',
    path: '/thing',
    scope: 'homey.thing',
    body: Type.Object({ name: Type.String({ minLength: 1 }), size: Type.Optional(Type.Number()) }),
    response: Type.Object({ name: Type.String() }),
  }),
  explode: op({ name: 'explode', method: 'POST', path: '/explode', scope: null }),
  secret: op({ name: 'secret', method: 'GET', path: '/secret', scope: null, private: true, response: Type.Boolean() }),
  open: op({ name: 'open', method: 'GET', path: '/open', scope: null, auth: false, response: Type.String() }),
  cached: op({
    name: 'cached',
    method: 'GET',
    path: '/cached',
    scope: null,
    response: Type.Object({ list: Type.Array(Type.Number()) }),
  }),
} as const;

const sessions: Record<string, Principal> = {
  full: { scopes: ['homey'], internal: false },
  readonly: { scopes: ['homey.thing.readonly'], internal: false },
  other: { scopes: ['homey.zone'], internal: false },
  unscoped: { scopes: null, internal: false },
  internal: { scopes: null, internal: true },
};

const cachedList = serializedJson({ list: [1, 2, 3] });
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = await createApiServer({ title: 'test', version: '1.0.0', description: 'contract adapter test' });
  registerOperations(
    app,
    implement(things, {
      getThing: ({ params, query }) => ({ id: params.id, limit: query.limit ?? 10 }),
      createThing: ({ body }) => ({ name: body.name }),
      explode: () => {
        throw new Error('database password is hunter2 at /srv/secret.ts:42');
      },
      secret: () => true,
      open: () => 'open',
      cached: () => cachedList,
    }),
    (request) => {
      const header = request.headers.authorization;
      if (!header) return null;
      const session = sessions[header.replace(/^Bearer /, '')];
      if (!session) throw new HearthError('invalid_token');
      return session;
    },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => app.close());

async function call(method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api/manager/things${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
}

describe('registerOperations over real HTTP', () => {
  it('serves a valid call with path and coerced query parameters', async () => {
    const answer = await call('GET', '/thing/abc?limit=3', 'full');
    expect(answer).toMatchObject({ status: 200, body: { id: 'abc', limit: 3 } });
    expect(answer.type).toMatch(/^application\/json/);
  });

  it('answers 400 missing_parameter naming the missing body field', async () => {
    const answer = await call('POST', '/thing', 'full', {});
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'missing_parameter', error_description: 'Missing Parameter: name', statusCode: 400 });
  });

  it('answers 400 invalid_parameter_type naming the field, without coercing JSON bodies', async () => {
    const answer = await call('POST', '/thing', 'full', { name: 'lamp', size: '5' });
    expect(answer.body).toEqual({
      error: 'invalid_parameter_type',
      error_description: 'Invalid Parameter Type: size. Got: string. Expected: number',
      statusCode: 400,
    });
  });

  it('answers 400 for a query value of the wrong type', async () => {
    const answer = await call('GET', '/thing/abc?limit=many', 'full');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_parameter_type');
    expect(answer.body.error_description).toContain('limit');
  });

  it('answers 400 for a value out of bounds, naming the field', async () => {
    const answer = await call('GET', '/thing/abc?limit=0', 'full');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_parameter');
    expect(answer.body.error_description).toContain('limit');
  });

  it('answers 400 invalid_body for malformed JSON', async () => {
    const response = await fetch(`${base}/api/manager/things/thing`, {
      method: 'POST',
      headers: { authorization: 'Bearer full', 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_body');
  });

  it('answers 404 with the uniform body for an unknown route', async () => {
    const answer = await call('GET', '/nothing-here', 'full');
    expect(answer).toMatchObject({ status: 404, body: { error: 'route_not_found', statusCode: 404 } });
  });

  it('answers 401 without a token and 401 invalid_token for an unknown one', async () => {
    expect((await call('GET', '/thing/abc')).body).toEqual({
      error: 'missing_token',
      error_description: 'Missing Token',
      statusCode: 401,
    });
    expect((await call('GET', '/thing/abc', 'forged')).body.error).toBe('invalid_token');
  });

  it('checks authentication before validation', async () => {
    expect((await call('POST', '/thing', undefined, {})).status).toBe(401);
  });

  it('answers 403 when the scope is insufficient and lets readonly scopes read', async () => {
    expect((await call('POST', '/thing', 'readonly', { name: 'x' })).body).toMatchObject({
      error: 'missing_scopes',
      statusCode: 403,
    });
    expect((await call('POST', '/thing', 'other', { name: 'x' })).status).toBe(403);
    expect((await call('GET', '/thing/abc', 'readonly')).status).toBe(200);
    expect((await call('POST', '/thing', 'unscoped', { name: 'x' })).status).toBe(200);
  });

  it('refuses private operations to every non-internal session', async () => {
    expect((await call('GET', '/secret', 'unscoped')).body.error).toBe('private_operation');
    expect((await call('GET', '/secret', 'internal')).body).toBe(true);
  });

  it('serves operations declared without authentication to anyone', async () => {
    expect((await call('GET', '/open')).body).toBe('open');
  });

  it('sends an answer serialized ahead of time as JSON, unchanged', async () => {
    const answer = await call('GET', '/cached', 'full');
    expect(answer).toMatchObject({ status: 200, body: { list: [1, 2, 3] } });
    expect(answer.type).toMatch(/^application\/json/);
  });

  it('never leaks internals of a failing handler', async () => {
    const answer = await call('POST', '/explode', 'full', {});
    expect(answer.body).toEqual({ error: 'internal_error', error_description: 'Internal Server Error', statusCode: 500 });
    expect(JSON.stringify(answer.body)).not.toContain('hunter2');
  });

  it('publishes an OpenAPI 3.1 document and a reference page generated from the declarations', async () => {
    type OpenApi = { openapi: string; paths: Record<string, Record<string, { operationId: string; description: string }>> };
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApi;
    expect(document.openapi).toBe('3.1.0');
    const getThing = document.paths['/api/manager/things/thing/{id}']!.get!;
    expect(getThing.operationId).toBe('hub:things.getThing');
    expect(getThing.description).toContain('homey.thing.readonly');
    expect(document.paths['/api/manager/things/secret']!.get!.description).toContain('Private');
    const page = await fetch(`${base}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('serves Prometheus metrics with request durations by route pattern', async () => {
    await call('GET', '/thing/xyz', 'full');
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('hearth_process_cpu_user_seconds_total');
    expect(text).toMatch(
      /hearth_http_request_duration_seconds_count\{method="GET",route="\/api\/manager\/things\/thing\/:id",status="200"\} [1-9]/,
    );
  });

  it('refuses to register the same route twice', async () => {
    const other = await createApiServer({ title: 't', version: '1', description: 'd' });
    const twice = implement({ open: things.open }, { open: () => 'x' });
    expect(() => registerOperations(other, [...twice, ...twice], () => null)).toThrow(/declared twice/);
    await other.close();
  });
});
