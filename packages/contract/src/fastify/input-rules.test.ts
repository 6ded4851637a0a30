import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FreeFormObject, INPUT_LIMITS, inputProblem, inputSchema } from '../limits';
import { hubManager } from '../operation';
import { createApiServer, implement, registerOperations } from './index';

const op = hubManager('notes');
const notes = {
  createNote: op({
    name: 'createNote',
    method: 'POST',
    path: '/note/:id',
    scope: null,
    params: Type.Object({ id: Type.String() }),
    query: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })), weight: Type.Optional(Type.Number()) }),
    body: Type.Object({
      title: Type.String(),
      count: Type.Optional(Type.Integer()),
      size: Type.Optional(Type.Number()),
      meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
      anything: Type.Optional(Type.Unknown()),
      manifest: Type.Optional(FreeFormObject({ maxDepth: 3, maxJsonLength: 200_000 })),
    }),
    response: Type.Object({ stored: Type.Boolean() }),
  }),
} as const;

let app: FastifyInstance;
let base: string;
const stored: unknown[] = [];

beforeAll(async () => {
  app = await createApiServer({ title: 'test', version: '1.0.0', description: 'input rules test' });
  registerOperations(
    app,
    implement(notes, {
      createNote: ({ body }) => {
        stored.push(body);
        return { stored: true };
      },
    }),
    () => ({ scopes: null, internal: false }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/manager/notes/note`;
});
afterAll(() => app.close());

const deep = (levels: number, leaf = '1') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

async function post(path: string, body: string) {
  const before = stored.length;
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = (await response.json()) as { error?: string; error_description?: string };
  return { status: response.status, ...answer, stored: stored.length > before };
}

const refusal = (description: string) => ({
  status: 400,
  error: 'invalid_parameter',
  error_description: description,
  statusCode: 400,
  stored: false,
});

describe('the input rules every operation gets from the contract', () => {
  it('accepts ordinary input, odd but well-formed text included', async () => {
    const answer = await post('/n1', JSON.stringify({ title: 'a\u0007\u202e😀\n', meta: { a: { b: [1, 'two'] } } }));
    expect(answer).toMatchObject({ status: 200, stored: true });
  });

  it('refuses text with NUL or an unpaired surrogate, in values, keys and the path', async () => {
    const text = 'must be text without NUL or unpaired surrogates';
    expect(await post('/n1', JSON.stringify({ title: 'a\u0000@b.test' }))).toEqual(refusal(`Invalid Parameter: title. ${text}`));
    expect(await post('/n1', JSON.stringify({ title: 'a\ud800b' }))).toEqual(refusal(`Invalid Parameter: title. ${text}`));
    expect(await post('/n1', JSON.stringify({ title: 't', meta: { list: ['\udfff'] } }))).toEqual(
      refusal(`Invalid Parameter: meta.list.0. ${text}`),
    );
    expect(await post('/n1', JSON.stringify({ title: 't', meta: { 'k\u0000': 1 } }))).toEqual(
      refusal('Invalid Parameter: meta.k\u0000. must be named without NUL or unpaired surrogates'),
    );
    expect(await post('/n%00', JSON.stringify({ title: 't' }))).toEqual(refusal(`Invalid Parameter: id. ${text}`));
  });

  it('refuses numbers that are not finite, in the body, inside free-form values and in the query', async () => {
    expect(await post('/n1', '{"title":"t","size":1e400}')).toEqual(refusal('Invalid Parameter: size. must be a finite number'));
    expect(await post('/n1', '{"title":"t","anything":[-1e400]}')).toEqual(
      refusal('Invalid Parameter: anything.0. must be a finite number'),
    );
    expect(await post('/n1?weight=1e400', '{"title":"t"}')).toEqual(
      refusal('Invalid Parameter: weight. must be a finite number'),
    );
  });

  it('bounds integers declared without bounds to the exactly representable ones', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(await post('/n1?page=1e308', '{"title":"t"}')).toEqual(refusal(`Invalid Parameter: page. must be <= ${max}`));
    expect(await post('/n1', '{"title":"t","count":99999999999999999999}')).toEqual(
      refusal(`Invalid Parameter: count. must be <= ${max}`),
    );
    expect(await post(`/n1?page=${max}`, `{"title":"t","count":-${max}}`)).toMatchObject({ status: 200, stored: true });
  });

  it('limits how deep and how long free-form values are, with the declared limits where given', async () => {
    const { maxDepth, maxJsonLength } = INPUT_LIMITS.freeForm;
    expect(await post('/n1', `{"title":"t","meta":${deep(maxDepth)}}`)).toMatchObject({ status: 200, stored: true });
    expect(await post('/n1', `{"title":"t","meta":${deep(10_000)}}`)).toEqual(
      refusal(`Invalid Parameter: meta. must not nest deeper than ${maxDepth} levels`),
    );
    expect(await post('/n1', `{"title":"t","anything":${deep(maxDepth + 1)}}`)).toEqual(
      refusal(`Invalid Parameter: anything. must not nest deeper than ${maxDepth} levels`),
    );
    expect(await post('/n1', JSON.stringify({ title: 't', meta: { text: 'a'.repeat(maxJsonLength) } }))).toEqual(
      refusal(`Invalid Parameter: meta. must be at most ${maxJsonLength} characters as JSON`),
    );
    expect(await post('/n1', JSON.stringify({ title: 't', manifest: { text: 'a'.repeat(100_000) } }))).toMatchObject({
      status: 200,
    });
    expect(await post('/n1', `{"title":"t","manifest":${deep(4)}}`)).toEqual(
      refusal('Invalid Parameter: manifest. must not nest deeper than 3 levels'),
    );
  });

  it('limits the undeclared fields of an open object, and any input past the overall depth', async () => {
    const { maxDepth } = INPUT_LIMITS.freeForm;
    expect(await post('/n1', `{"title":"t","extra":${deep(maxDepth + 1)}}`)).toEqual(
      refusal(`Invalid Parameter: extra. must not nest deeper than ${maxDepth} levels`),
    );
    expect(inputProblem(JSON.parse(deep(INPUT_LIMITS.maxDepth)))).toBeNull();
    expect(inputProblem(JSON.parse(deep(10_000)))).toMatchObject({ keyword: 'maxDepth' });
  });

  it('documents the limits in the OpenAPI document', async () => {
    type Document = {
      info: { description: string };
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    const document = (await (await fetch(`${new URL(base).origin}/openapi.json`)).json()) as Document;
    const body = document.paths['/api/manager/notes/note/{id}']?.post.requestBody.content['application/json']?.schema;
    expect(body).toMatchObject({
      properties: {
        count: { maximum: Number.MAX_SAFE_INTEGER, minimum: Number.MIN_SAFE_INTEGER },
        meta: INPUT_LIMITS.freeForm,
        anything: INPUT_LIMITS.freeForm,
        manifest: { maxDepth: 3, maxJsonLength: 200_000 },
      },
      additionalProperties: INPUT_LIMITS.freeForm,
    });
    expect(document.info.description).toContain('NUL');
    expect(document.info.description).toContain(`deeper than ${INPUT_LIMITS.maxDepth} levels`);
  });

  it('leaves the declarations themselves unchanged', () => {
    const declared = notes.createNote.body as unknown as { properties: { meta: object } };
    expect(declared.properties.meta).not.toHaveProperty('maxDepth');
    expect(inputSchema(declared)).toBe(inputSchema(declared));
  });
});
