import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudOperations } from '../cloud/index';
import { hubOperations } from '../hub/index';
import { listOperations } from '../list';
import { type AnyOperation, fullPath, operationId } from '../operation';
import { createApiServer, registerOperations } from './index';

type Groups = Record<string, Record<string, AnyOperation>>;
const hub = listOperations(hubOperations as unknown as Groups);
const cloud = listOperations(cloudOperations as unknown as Groups);
const withExamples = (operations: AnyOperation[]) => operations.filter((operation) => operation.examples);

/** The calls people reach for first: each shows an example in the reference. */
const MOST_USED = [
  'hub:devices.getDevices',
  'hub:devices.getDevice',
  'hub:devices.setCapabilityValue',
  'hub:zones.getZones',
  'hub:zones.getZone',
  'hub:zones.createZone',
  'hub:flow.getFlows',
  'hub:flow.createFlow',
  'hub:flow.triggerFlow',
  'hub:logic.getVariables',
  'hub:logic.createVariable',
  'hub:logic.updateVariable',
  'hub:users.getUsers',
  'hub:users.getUserMe',
  'hub:insights.getLogEntries',
  'cloud:cloud.getAuthenticatedUser',
  'cloud:cloud.getHomey',
  'cloud:apps.getApps',
  'cloud:apps.getApp',
];

// The JSON Schema checks the servers make (formats included), without their input limits, which `registerOperations`
// applies in the round trip below.
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
function problems(schema: unknown, value: unknown): string[] {
  const check = ajv.compile(schema as object);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

describe('example requests and answers', () => {
  it('are declared for the most used calls', () => {
    const declared = withExamples([...hub, ...cloud]).map(operationId);
    expect(MOST_USED.filter((id) => !declared.includes(id))).toEqual([]);
  });

  it.each(withExamples([...hub, ...cloud]).map((operation) => [operationId(operation), operation] as const))(
    '%s: each part validates against its own schema',
    (_id, operation) => {
      const examples = operation.examples ?? {};
      const parts = [
        ['params', operation.params, examples.params],
        ['query', operation.query, examples.query],
        ['body', operation.body, examples.body],
        ['response', operation.response, examples.response],
      ] as const;
      for (const [part, schema, example] of parts) {
        if (example === undefined) continue;
        expect(schema, `${part} has an example but no schema`).toBeDefined();
        expect(problems(schema, example), part).toEqual([]);
      }
      // A call with a body or an answer shows it: an example without them would say little.
      if (operation.body) expect(examples.body, 'body').toBeDefined();
      if (operation.response) expect(examples.response, 'response').toBeDefined();
    },
  );
});

describe.each([
  ['hub', hub],
  ['cloud', cloud],
] as const)('the %s OpenAPI document', (_kind, operations) => {
  const shown = withExamples(operations);
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await createApiServer({ title: 'test', version: '1.0.0', description: 'examples test' });
    // Each route answers its example, so the round trip checks what the reference promises a caller gets.
    const implementations = shown.map((operation) => ({ operation, handler: () => operation.examples?.response }));
    registerOperations(app, implementations, () => ({ scopes: null, internal: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('carries each example request and answer', async () => {
    type Media = { content?: Record<string, { example?: unknown }> };
    type Parameter = { name: string; in: string; example?: unknown };
    type PathItem = { parameters?: Parameter[]; requestBody?: Media; responses?: Record<string, Media> };
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, PathItem>>;
    };
    for (const operation of shown) {
      const examples = operation.examples ?? {};
      const path = fullPath(operation).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
      const item = document.paths[path]?.[operation.method.toLowerCase()];
      expect(item, operationId(operation)).toBeDefined();
      const parameters = item?.parameters ?? [];
      for (const [location, values] of [
        ['path', examples.params],
        ['query', examples.query],
      ] as const) {
        for (const [name, value] of Object.entries(values ?? {})) {
          expect(
            parameters.find((p) => p.in === location && p.name === name)?.example,
            `${operationId(operation)} ${name}`,
          ).toEqual(value);
        }
      }
      if (examples.body !== undefined)
        expect(item?.requestBody?.content?.['application/json']?.example, operationId(operation)).toEqual(examples.body);
      if (examples.response !== undefined) {
        const answer = item?.responses?.[String(operation.successStatus)]?.content?.['application/json']?.example;
        expect(answer, operationId(operation)).toEqual(examples.response);
      }
    }
  });

  it.each(shown.map((operation) => [operationId(operation), operation] as const))(
    '%s: the example request is accepted and its answer sent whole',
    async (_id, operation) => {
      const examples = operation.examples ?? {};
      const params = (examples.params ?? {}) as Record<string, unknown>;
      const path = fullPath(operation).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) =>
        encodeURIComponent(String(params[name])),
      );
      const query = new URLSearchParams(
        Object.entries(examples.query ?? {}).map(([name, value]) => [name, String(value)] as [string, string]),
      ).toString();
      const answer = await app.inject({
        method: operation.method,
        url: query ? `${path}?${query}` : path,
        ...(examples.body !== undefined ? { payload: examples.body as object } : {}),
      });
      expect(answer.statusCode, answer.body).toBeLessThan(300);
      if (examples.response !== undefined) expect(answer.json()).toEqual(examples.response);
    },
  );
});
