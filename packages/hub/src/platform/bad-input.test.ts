import { type AnyOperation, type ErrorBody, errorCatalogue, operationId } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../testing/hub';
import {
  dummy,
  fillPath,
  hubOperationList,
  prepare,
  type RawAnswer,
  type RawRequest,
  type Schema,
  sendRaw,
} from '../testing/operations';

/**
 * Every operation the hub declares, called by the owner (whose token passes every scope) with bad input over
 * real HTTP: wrong JSON types, bodies that are not JSON objects, missing required fields, absurdly long strings,
 * unknown ids, control characters, odd numbers in query parameters. Whatever the input, the hub answers below
 * 500, every refusal has the uniform error body with a catalogued code, and a refusal changes nothing stored.
 * Where the declared schema alone decides the outcome (a wrong type, a missing field), that outcome is asserted.
 * Variants are sampled per field, not combined, so the whole walk stays a few thousand requests.
 */

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** One value of each JSON type, sent where the schema wants another. */
const VALUE_OF_KIND: Record<Kind, unknown> = {
  string: 'not of this type',
  number: 42,
  boolean: true,
  object: { unexpected: true },
  array: ['unexpected'],
  null: null,
};
const LONG = 'a'.repeat(100_000);
const LONE_SURROGATE = '\ud800';
/** NUL, bell, an escape sequence, a right-to-left override, a byte order mark, an emoji and a lone surrogate. */
const CONTROL = `a\u0000b\u0007\u001b[31m\u202e\ufeff😀${LONE_SURROGATE}\n"\\`;
const ODD_NUMBERS = ['-1', '-0', '1e400', 'NaN', '-Infinity', '99999999999999999999999', '0x1F', ''];
/** A path segment whose percent-encoding does not decode. */
const MALFORMED_ESCAPE = '%E0%A4%A';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const WRONG_TYPE_REFUSALS = ['invalid_parameter_type', 'invalid_parameter'];
/** Path parameters that name something stored (a mask, a price type or a webhook's event name do not). */
const ID_PARAMETER = /^(id|\w+Id|uri|session)$/;
/** Operations whose `:id` is a key they set, not one they look up: an unknown key is created or already unset. */
const SETS_BY_KEY = [
  'hub:users.updateUserMeProperties',
  'hub:users.deleteUserMeProperties',
  'hub:dashboards.setWidgetStoreState',
];

interface Expected {
  status: number;
  /** The codes the answer may carry. */
  errors?: readonly string[];
  /** The error description, when the schema alone decides it. */
  description?: string;
}

/** Refusals made before any route is found: a URL over Node's limit, a path parameter over the router's, bad escapes. */
const OVERSIZED: Expected = { status: 431, errors: ['headers_too_large'] };
const OVER_PARAMETER_LIMIT: Expected = { status: 414, errors: ['uri_too_long'] };
const UNDECODABLE: Expected = { status: 400, errors: ['invalid_parameter'] };
const BEFORE_ROUTING = [OVERSIZED, OVER_PARAMETER_LIMIT, UNDECODABLE];

interface Probe {
  label: string;
  request: RawRequest;
  /** The answer the declared schema alone decides, when it does. */
  expected?: Expected;
}

const asSchema = (schema: unknown) => schema as Schema | undefined;

/** The JSON kinds a schema accepts; `null` when it cannot be told from the schema (any value may do). */
function acceptedKinds(schema: Schema | undefined): Set<Kind> | null {
  if (!schema) return null;
  if (schema.const !== undefined) return new Set([kindOf(schema.const)]);
  if (schema.enum) return new Set(schema.enum.map(kindOf));
  if (schema.anyOf) {
    const branches = schema.anyOf.map(acceptedKinds);
    if (branches.some((branch) => branch === null)) return null;
    return new Set(branches.flatMap((branch) => [...(branch as Set<Kind>)]));
  }
  if (schema.type === undefined) return null;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return new Set(types.map((type) => (type === 'integer' ? 'number' : type) as Kind));
}

const kindOf = (value: unknown): Kind => (Array.isArray(value) ? 'array' : value === null ? 'null' : (typeof value as Kind));

/** A free-form string field: any text is of the right type, so long and odd text reaches the handler. */
const isFreeString = (schema: Schema | undefined) =>
  schema?.type === 'string' && schema.enum === undefined && schema.const === undefined;

const hasBody = (operation: AnyOperation) => operation.method !== 'GET';

/** The dummy request every probe starts from: parameters, required query and body fields filled in. */
function baseOf(operation: AnyOperation) {
  const prepared = prepare(operation);
  const body = (prepared.body ?? {}) as Record<string, unknown>;
  return { query: prepared.query, body };
}

/** A path parameter's value for an id nothing has: of the declared format, so it passes validation. */
function unknownValue(schema: Schema | undefined): string {
  if (schema?.pattern && new RegExp(schema.pattern).test(UNKNOWN_UUID)) return UNKNOWN_UUID;
  return String(dummy(schema));
}

function pathWith(operation: AnyOperation, overrides: Record<string, string> = {}): string {
  const params = asSchema(operation.params)?.properties ?? {};
  return fillPath(operation, (name) => overrides[name] ?? encodeURIComponent(unknownValue(params[name])));
}

const json = (body: unknown): Pick<RawRequest, 'body' | 'contentType'> => ({
  body: JSON.stringify(body),
  contentType: 'application/json',
});

function bodyProbes(operation: AnyOperation): Probe[] {
  if (!hasBody(operation)) return [];
  const path = pathWith(operation);
  const { query, body: base } = baseOf(operation);
  const probes: Probe[] = [
    {
      label: 'a body that is not JSON',
      request: { path, query, body: '{"unterminated": ', contentType: 'application/json' },
      expected: { status: 400, errors: ['invalid_body'] },
    },
  ];
  const schema = asSchema(operation.body);
  if (!schema) return probes;
  if (acceptedKinds(schema)?.has('object') && !acceptedKinds(schema)?.has('array')) {
    for (const whole of [['a JSON array'], 'a JSON string', null, 7]) {
      probes.push({
        label: `${JSON.stringify(whole)} as the whole body`,
        request: { path, query, ...json(whole) },
        expected: { status: 400, errors: ['invalid_parameter_type'] },
      });
    }
  }
  for (const name of schema.required ?? []) {
    const { [name]: _missing, ...rest } = base;
    probes.push({
      label: `body without required ${name}`,
      request: { path, query, ...json(rest) },
      expected: { status: 400, errors: ['missing_parameter'], description: `Missing Parameter: ${name}` },
    });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const accepted = acceptedKinds(property);
    for (const kind of Object.keys(VALUE_OF_KIND) as Kind[]) {
      if (!accepted || accepted.has(kind)) continue;
      probes.push({
        label: `body ${name} as ${kind}`,
        request: { path, query, ...json({ ...base, [name]: VALUE_OF_KIND[kind] }) },
        expected: { status: 400, errors: WRONG_TYPE_REFUSALS },
      });
    }
    if (isFreeString(property)) {
      probes.push({ label: `body ${name} of 100 000 characters`, request: { path, query, ...json({ ...base, [name]: LONG }) } });
      probes.push({
        label: `body ${name} with control characters`,
        request: { path, query, ...json({ ...base, [name]: CONTROL }) },
      });
    }
  }
  return probes;
}

function paramProbes(operation: AnyOperation): Probe[] {
  const params = asSchema(operation.params)?.properties ?? {};
  const names = Object.keys(params);
  if (names.length === 0) return [];
  const { query, body } = baseOf(operation);
  const withBody = hasBody(operation) ? json(body) : {};
  const probes: Probe[] = [];
  if (names.some((name) => ID_PARAMETER.test(name)) && !SETS_BY_KEY.includes(operationId(operation))) {
    probes.push({
      label: 'unknown ids in the path',
      request: { path: pathWith(operation), query, ...withBody },
      expected: { status: 404, errors: ['not_found'] },
    });
  }
  for (const name of names) {
    const variants: [string, string, Expected | undefined][] = [
      // Over the router's limit on one parameter, and over Node's limit on a request's URL and headers.
      ['of 1 000 characters', 'a'.repeat(1000), OVER_PARAMETER_LIMIT],
      ['of 100 000 characters', LONG, OVERSIZED],
      ['with control characters', encodeURIComponent(CONTROL.replace(LONE_SURROGATE, '')), undefined],
      ['with a malformed escape', MALFORMED_ESCAPE, UNDECODABLE],
    ];
    for (const [what, value, expected] of variants) {
      probes.push({
        label: `path ${name} ${what}`,
        request: { path: pathWith(operation, { [name]: value }), query, ...withBody },
        expected,
      });
    }
  }
  return probes;
}

function queryProbes(operation: AnyOperation): Probe[] {
  const names = Object.keys(asSchema(operation.query)?.properties ?? {});
  const path = pathWith(operation);
  const { query: base, body } = baseOf(operation);
  const withBody = hasBody(operation) ? json(body) : {};
  const probes: Probe[] = [];
  for (const name of names) {
    for (const value of [...ODD_NUMBERS, CONTROL]) {
      probes.push({
        label: `query ${name}=${JSON.stringify(value)}`,
        request: { path, query: { ...base, [name]: value }, ...withBody },
      });
    }
    probes.push({
      label: `query ${name} of 100 000 characters`,
      request: { path, query: { ...base, [name]: LONG }, ...withBody },
      expected: OVERSIZED,
    });
    const repeated = new URLSearchParams(base);
    repeated.append(name, '1');
    repeated.append(name, '2');
    probes.push({ label: `query ${name} given twice`, request: { path, query: repeated, ...withBody } });
  }
  return probes;
}

/** A GET without declared input still gets a query it does not expect, with odd characters. */
function undeclaredQueryProbe(operation: AnyOperation): Probe[] {
  if (operation.method !== 'GET' || operation.params || operation.query) return [];
  return [{ label: 'an undeclared query parameter', request: { path: operation.path, query: { unexpected: CONTROL } } }];
}

/** No session of this hub is internal: a private operation refuses the owner before it reads any input. */
const PRIVATE: Expected = { status: 403, errors: ['private_operation'] };

function probesFor(operation: AnyOperation): Probe[] {
  const probes = [
    ...bodyProbes(operation),
    ...paramProbes(operation),
    ...queryProbes(operation),
    ...undeclaredQueryProbe(operation),
  ];
  if (!operation.private) return probes;
  return probes.map((probe) =>
    probe.expected && BEFORE_ROUTING.includes(probe.expected) ? probe : { ...probe, expected: PRIVATE },
  );
}

/** What breaks the uniform error body in an answer, or `null`: below 500, and a refusal with a catalogued code. */
function uniformityProblem(answer: RawAnswer): string | null {
  if (answer.status === 0) return 'no answer within 5 s';
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.status < 400) return null;
  const body = answer.body as Partial<ErrorBody> | undefined;
  const keys = body && typeof body === 'object' ? Object.keys(body).sort().join(',') : '';
  if (keys !== 'error,error_description,statusCode') return `answered ${answer.status} without the uniform error body`;
  const catalogued = errorCatalogue[body?.error as keyof typeof errorCatalogue];
  if (catalogued?.status !== answer.status || body?.statusCode !== answer.status) {
    return `answered ${answer.status} with an uncatalogued code or a mismatched status`;
  }
  return body?.error_description ? null : 'answered an empty description';
}

/** How an answer differs from the outcome the schema decides, or `null`. */
function expectationProblem(answer: RawAnswer, expected: Expected | undefined): string | null {
  if (!expected) return null;
  if (answer.status !== expected.status) return `answered ${answer.status}, expected ${expected.status}`;
  const { error = '', error_description: description } = (answer.body ?? {}) as Partial<ErrorBody>;
  if (expected.errors && !expected.errors.includes(error)) return `answered ${error}, expected ${expected.errors.join(' or ')}`;
  if (expected.description && description !== expected.description) return `expected "${expected.description}"`;
  return null;
}

describe('bad input to every hub operation', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  /**
   * Rows written so far on the hub's one connection, and when the token was last used: a refusal must not write,
   * but the token's `lastUsed` (refreshed at most once a minute, whatever the call) is the caller's bookkeeping.
   */
  const stored = () => ({
    writes: t.hub.context.db.prepare('SELECT total_changes()').pluck().get() as number,
    lastUsed: t.hub.context.sessions.findByToken(t.token)?.lastUsed,
  });
  const wroteBetween = (before: ReturnType<typeof stored>, after: ReturnType<typeof stored>) =>
    after.writes - before.writes > (after.lastUsed === before.lastUsed ? 0 : 1);

  /**
   * The refusal a GET answers without any bad input when this test hub lacks what it depends on (the cloud, a
   * location): a probe answering the same 503 met the environment, not a failure on its input. Only GETs are
   * sent plain, as they change nothing.
   */
  async function environmentRefusal(operation: AnyOperation): Promise<string | null> {
    if (operation.method !== 'GET') return null;
    const { query } = baseOf(operation);
    const answer = await sendRaw(t, operation, { path: pathWith(operation), query }, t.token);
    return answer.status === 503 ? answer.text : null;
  }

  it.each(hubOperationList.map((operation) => [operationId(operation), operation] as const))('%s', async (_id, operation) => {
    const unavailable = await environmentRefusal(operation);
    const problems: string[] = [];
    for (const probe of probesFor(operation)) {
      const before = stored();
      const answer = await sendRaw(t, operation, probe.request, t.token);
      if (unavailable !== null && answer.text === unavailable) continue;
      const problem =
        uniformityProblem(answer) ??
        expectationProblem(answer, probe.expected) ??
        (answer.status >= 400 && wroteBetween(before, stored()) ? `answered ${answer.status} but changed what is stored` : null);
      if (problem) problems.push(`${probe.label}: ${problem} ${answer.text.slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
  });

  it("leaves the owner's token working", async () => {
    expect((await t.call('GET', '/users/user/me')).status).toBe(200);
  });
});
