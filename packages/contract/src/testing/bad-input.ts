import { type ErrorBody, errorCatalogue } from '../errors';
import { inputSchema } from '../limits';
import { type AnyOperation, fullPath, operationId } from '../operation';
import { dummy, fillPath, prepare, type Schema } from './operations';

/**
 * Bad input for any declared operation, for the hub's and the cloud's tests that walk every operation over real
 * HTTP: wrong JSON types, bodies that are not JSON objects or not JSON at all, missing required fields, text with
 * NUL, unpaired surrogates and other control characters, numbers that overflow, values nested ten thousand levels
 * and free-form values over their size limit, oversized bodies, odd path and query values, unknown ids. Each probe
 * carries the answer the declared schema and the input rules alone decide, when they do. Variants are sampled per
 * field, not combined, so a whole walk stays a few thousand requests per server.
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
/** Text no store holds: NUL (PostgreSQL text cannot), a UTF-16 surrogate without its pair (no UTF-8 form). */
const NUL_TEXT = 'a\u0000b';
const SURROGATE_TEXT = 'a\ud800b';
/** Odd characters that are text all the same: bell, an escape sequence, a right-to-left override, a byte order mark, an emoji, a newline, a quote and a backslash. */
const ODD_TEXT = 'a\u0007\u001b[31m\u202e\ufeff😀\n"\\b';
/** Odd numbers in a query, among them the largest integer a number holds exactly. */
const ODD_NUMBERS = ['-1', '-0', '9007199254740991', '1e308', '1e400', 'NaN', '-Infinity', '99999999999999999999999', '0x1F', ''];
/** Query values beyond every integer a number holds exactly (`1e400` is Infinity). */
const OVERFLOWING = new Set(['1e308', '1e400', '99999999999999999999999']);
/** Raw JSON numbers: Infinity once parsed, and an integer past the exactly representable ones. */
const INFINITE_JSON = '1e400';
const HUGE_INTEGER_JSON = '99999999999999999999';
const DEEP_LEVELS = 10_000;
const DEEP_OBJECT_JSON = `${'{"a":'.repeat(DEEP_LEVELS)}1${'}'.repeat(DEEP_LEVELS)}`;
const DEEP_ARRAY_JSON = `${'['.repeat(DEEP_LEVELS)}1${']'.repeat(DEEP_LEVELS)}`;
/** A body just over the servers' 1 MiB limit. */
const OVERSIZED_BODY = JSON.stringify({ oversized: 'a'.repeat(1024 * 1024 + 1024) });
/** A path segment whose percent-encoding does not decode. */
const MALFORMED_ESCAPE = '%E0%A4%A';
/** U+D800 encoded as if it were a character: not valid UTF-8. */
const ENCODED_SURROGATE = '%ED%A0%80';
const WRONG_TYPE_REFUSALS = ['invalid_parameter_type', 'invalid_parameter'];
/** Any refusal of the schema: a type, a rule, or a required field the bad value replaced. */
const VALIDATION_REFUSALS = ['invalid_parameter_type', 'invalid_parameter', 'missing_parameter'];
/** Path parameters that name something stored (a mask, a price type or a webhook's event name do not). */
const ID_PARAMETER = /^(id|\w+Id|uri|session)$/;

export interface Expected {
  status: number | readonly number[];
  /** The codes the answer may carry. */
  errors?: readonly string[];
  /** The error description, when the schema alone decides it. */
  description?: string;
}

/** Refusals made before any route is found: a URL over Node's limit, a path parameter over the router's, bad escapes. */
export const OVERSIZED: Expected = { status: 431, errors: ['headers_too_large'] };
export const OVER_PARAMETER_LIMIT: Expected = { status: 414, errors: ['uri_too_long'] };
export const UNDECODABLE: Expected = { status: 400, errors: ['invalid_parameter'] };
export const BEFORE_ROUTING: readonly Expected[] = [OVERSIZED, OVER_PARAMETER_LIMIT, UNDECODABLE];
/** Text that is not text, a number that is not finite, a free-form value over its limits: the input rules' refusal. */
const BROKEN_RULE: Expected = { status: 400, errors: ['invalid_parameter'] };

/** A request to an operation's route, sent as given: the body is raw, the query already split. */
export interface RawRequest {
  /** Path relative to the operation's base (its manager or service), parameters filled in. */
  path: string;
  query?: Record<string, string> | URLSearchParams;
  /** Appended to the query as it is, for values no `URLSearchParams` would encode (bytes that are not UTF-8). */
  rawQuery?: string;
  body?: string | Uint8Array;
  contentType?: string;
}

/** A server's answer; `status` 0 when it did not answer within the timeout. `body` is the parsed JSON, if any. */
export interface RawAnswer {
  status: number;
  text: string;
  body: unknown;
}

export interface Probe {
  label: string;
  request: RawRequest;
  /** The answer the declared schema alone decides, when it does. */
  expected?: Expected;
}

export interface ProbeOptions {
  /** The answer an unknown id in the path gets (a cloud may answer 403 for what might be someone else's). */
  unknownId: Expected;
  /** Operations whose id path parameter names a key they set, not one they look up. */
  setsByKey?: readonly string[];
  /**
   * A path parameter's value for the probes that are not about ids, so they reach what a real id reaches (its
   * store); `undefined` leaves it unknown. The probe of unknown ids always sends unknown ones.
   */
  knownValue?: (operation: AnyOperation, name: string) => string | undefined;
}

const asSchema = (schema: unknown) => schema as Schema | undefined;
const kindOf = (value: unknown): Kind => (Array.isArray(value) ? 'array' : value === null ? 'null' : (typeof value as Kind));
const typesOf = (schema: Schema | undefined) => (Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : []);

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
  return new Set(typesOf(schema).map((type) => (type === 'integer' ? 'number' : type) as Kind));
}

const accepts = (schema: Schema | undefined, kind: Kind) => acceptedKinds(schema)?.has(kind) ?? true;

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
const unknownValue = (schema: Schema | undefined): string => String(dummy(schema));

function pathWith(
  operation: AnyOperation,
  overrides: Record<string, string> = {},
  known: ProbeOptions['knownValue'] = () => undefined,
): string {
  const params = asSchema(operation.params)?.properties ?? {};
  return fillPath(
    operation,
    (name) => overrides[name] ?? encodeURIComponent(known(operation, name) ?? unknownValue(params[name])),
  );
}

type JsonBody = Pick<RawRequest, 'body' | 'contentType'>;

const json = (body: unknown): JsonBody => ({
  body: JSON.stringify(body),
  contentType: 'application/json',
});

const RAW_MARK = '@@raw-json-value@@';

/** `base` with `name` set to JSON text no JavaScript value serializes to (Infinity, ten thousand levels). */
const jsonWithRaw = (base: Record<string, unknown>, name: string, raw: string): JsonBody => ({
  body: JSON.stringify({ ...base, [name]: RAW_MARK }).replace(`"${RAW_MARK}"`, () => raw),
  contentType: 'application/json',
});

/** The probes of a whole JSON body: not JSON, not an object, too large, an undeclared field nested too deep. */
function wholeBodyProbes(operation: AnyOperation, path: string, query: Record<string, string>): Probe[] {
  const schema = asSchema(operation.body);
  const { body: base } = baseOf(operation);
  const probes: Probe[] = [
    {
      label: 'a body that is not JSON',
      request: { path, query, body: '{"unterminated": ', contentType: 'application/json' },
      expected: { status: 400, errors: ['invalid_body'] },
    },
    { label: 'a body over 1 MiB', request: { path, query, body: OVERSIZED_BODY, contentType: 'application/json' } },
    {
      label: 'a JSON body with bytes that are not UTF-8',
      request: {
        path,
        query,
        body: Uint8Array.from('{"x": "\xff\xfe"}', (c) => c.charCodeAt(0)),
        contentType: 'application/json',
      },
    },
  ];
  if (!schema) return probes;
  probes.push({
    label: 'a text/plain body',
    request: { path, query, body: 'plain text', contentType: 'text/plain' },
    expected: { status: [400, 415] },
  });
  if (accepts(schema, 'object') && !acceptedKinds(schema)?.has('array')) {
    for (const whole of [['a JSON array'], 'a JSON string', null, 7]) {
      probes.push({
        label: `${JSON.stringify(whole)} as the whole body`,
        request: { path, query, ...json(whole) },
        expected: { status: 400, errors: ['invalid_parameter_type'] },
      });
    }
    for (const [what, raw] of [
      ['object', DEEP_OBJECT_JSON],
      ['array', DEEP_ARRAY_JSON],
    ]) {
      probes.push({
        label: `an undeclared body field, an ${what} nested ${DEEP_LEVELS} levels`,
        request: { path, query, ...jsonWithRaw(base, 'undeclared', raw as string) },
        expected: { status: 400, errors: VALIDATION_REFUSALS },
      });
    }
  }
  return probes;
}

/** The probes of one body field: each wrong type, bad text, overflowing numbers, deep and oversized values. */
function fieldProbes(name: string, property: Schema, limited: Schema | undefined, base: Record<string, unknown>) {
  const probes: { label: string; body: JsonBody; expected?: Expected }[] = [];
  const add = (label: string, body: JsonBody, expected?: Expected) =>
    probes.push({ label: `body ${name} ${label}`, body, expected });
  const accepted = acceptedKinds(property);
  for (const kind of Object.keys(VALUE_OF_KIND) as Kind[]) {
    if (!accepted || accepted.has(kind)) continue;
    add(`as ${kind}`, json({ ...base, [name]: VALUE_OF_KIND[kind] }), { status: 400, errors: WRONG_TYPE_REFUSALS });
  }
  const freeForm = limited?.maxJsonLength !== undefined;
  if (accepts(property, 'string')) {
    add('with a NUL character', json({ ...base, [name]: NUL_TEXT }), BROKEN_RULE);
    add('with an unpaired surrogate', json({ ...base, [name]: SURROGATE_TEXT }), BROKEN_RULE);
    add('with control characters', json({ ...base, [name]: ODD_TEXT }));
  }
  if (isFreeString(property)) add('of 100 000 characters', json({ ...base, [name]: LONG }));
  if (accepts(property, 'number')) {
    add(`as ${INFINITE_JSON}`, jsonWithRaw(base, name, INFINITE_JSON), BROKEN_RULE);
    const integer = typesOf(property).includes('integer');
    add(`as ${HUGE_INTEGER_JSON}`, jsonWithRaw(base, name, HUGE_INTEGER_JSON), integer ? BROKEN_RULE : undefined);
  }
  add(
    `nested ${DEEP_LEVELS} levels`,
    jsonWithRaw(base, name, DEEP_OBJECT_JSON),
    freeForm ? BROKEN_RULE : { status: 400, errors: VALIDATION_REFUSALS },
  );
  if (freeForm) {
    const limit = limited?.maxJsonLength as number;
    // A limit as long as a whole body (an app's manifest) is met by the body limit first.
    const tooLong = { status: [400, 413], errors: ['invalid_parameter', 'payload_too_large'] };
    add(`over its ${limit} characters as JSON`, json({ ...base, [name]: { huge: 'a'.repeat(limit) } }), tooLong);
    add('holding a key with a NUL character', json({ ...base, [name]: { 'a\u0000b': 1 } }), BROKEN_RULE);
    add('holding an unpaired surrogate', json({ ...base, [name]: { text: SURROGATE_TEXT } }), BROKEN_RULE);
    add(`holding ${INFINITE_JSON}`, jsonWithRaw(base, name, `{"n":${INFINITE_JSON}}`), BROKEN_RULE);
  }
  if (accepted?.has('array') && property.items) {
    add('with 10 000 items', json({ ...base, [name]: Array.from({ length: 10_000 }, () => dummy(property.items)) }));
  }
  return probes;
}

function bodyProbes(operation: AnyOperation, options: ProbeOptions): Probe[] {
  if (!hasBody(operation)) return [];
  const path = pathWith(operation, {}, options.knownValue);
  const { query, body: base } = baseOf(operation);
  const probes = wholeBodyProbes(operation, path, query);
  const schema = asSchema(operation.body);
  if (!schema) return probes;
  const limited = asSchema(inputSchema(schema));
  for (const name of schema.required ?? []) {
    const { [name]: _missing, ...rest } = base;
    probes.push({
      label: `body without required ${name}`,
      request: { path, query, ...json(rest) },
      expected: { status: 400, errors: ['missing_parameter'], description: `Missing Parameter: ${name}` },
    });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const { label, body, expected } of fieldProbes(name, property, limited?.properties?.[name], base)) {
      probes.push({ label, request: { path, query, ...body }, expected });
    }
  }
  return probes;
}

/** A path or query value that overflows a number parameter: refused by the input rules when the type is numeric. */
const overflowRefusal = (schema: Schema | undefined, value: string): Expected | undefined => {
  const types = typesOf(schema);
  if (types.includes('integer') && OVERFLOWING.has(value)) return BROKEN_RULE;
  if (types.includes('number') && value === '1e400') return BROKEN_RULE;
  return undefined;
};

function paramProbes(operation: AnyOperation, options: ProbeOptions): Probe[] {
  const params = asSchema(operation.params)?.properties ?? {};
  const names = Object.keys(params);
  if (names.length === 0) return [];
  const { query, body } = baseOf(operation);
  const withBody = hasBody(operation) ? json(body) : {};
  const probes: Probe[] = [];
  if (names.some((name) => ID_PARAMETER.test(name)) && !options.setsByKey?.includes(operationId(operation))) {
    probes.push({
      label: 'unknown ids in the path',
      request: { path: pathWith(operation), query, ...withBody },
      expected: options.unknownId,
    });
  }
  for (const name of names) {
    const variants: [string, string, Expected | undefined][] = [
      // Over the router's limit on one parameter, and over Node's limit on a request's URL and headers.
      ['of 1 000 characters', 'a'.repeat(1000), OVER_PARAMETER_LIMIT],
      ['of 100 000 characters', LONG, OVERSIZED],
      ['with control characters', encodeURIComponent(ODD_TEXT), undefined],
      ['with a NUL character', encodeURIComponent(NUL_TEXT), { status: 400, errors: WRONG_TYPE_REFUSALS }],
      ['with an encoded surrogate', ENCODED_SURROGATE, undefined],
      ['with a malformed escape', MALFORMED_ESCAPE, UNDECODABLE],
      ...['99999999999999999999', '1e400'].map((value): [string, string, Expected | undefined] => [
        `as ${value}`,
        value,
        overflowRefusal(params[name], value),
      ]),
    ];
    for (const [what, value, expected] of variants) {
      probes.push({
        label: `path ${name} ${what}`,
        request: { path: pathWith(operation, { [name]: value }, options.knownValue), query, ...withBody },
        expected,
      });
    }
  }
  return probes;
}

function queryProbes(operation: AnyOperation, options: ProbeOptions): Probe[] {
  const properties = asSchema(operation.query)?.properties ?? {};
  const path = pathWith(operation, {}, options.knownValue);
  const { query: base, body } = baseOf(operation);
  const withBody = hasBody(operation) ? json(body) : {};
  const probes: Probe[] = [];
  for (const [name, property] of Object.entries(properties)) {
    for (const value of [...ODD_NUMBERS, ODD_TEXT]) {
      probes.push({
        label: `query ${name}=${JSON.stringify(value)}`,
        request: { path, query: { ...base, [name]: value }, ...withBody },
        expected: overflowRefusal(property, value),
      });
    }
    probes.push({
      label: `query ${name} with a NUL character`,
      request: { path, query: { ...base, [name]: NUL_TEXT }, ...withBody },
      expected: { status: 400, errors: WRONG_TYPE_REFUSALS },
    });
    probes.push({
      label: `query ${name} with an encoded surrogate`,
      request: { path, query: base, rawQuery: `${encodeURIComponent(name)}=a${ENCODED_SURROGATE}b`, ...withBody },
    });
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
  return [{ label: 'an undeclared query parameter', request: { path: operation.path, query: { unexpected: ODD_TEXT } } }];
}

/** Every probe of `operation`. */
export function badInputProbes(operation: AnyOperation, options: ProbeOptions): Probe[] {
  return [
    ...bodyProbes(operation, options),
    ...paramProbes(operation, options),
    ...queryProbes(operation, options),
    ...undeclaredQueryProbe(operation),
  ];
}

/** The request `operation` gets with dummy input and the ids its probes use: for a plain call before them. */
export function plainRequest(operation: AnyOperation, options?: ProbeOptions): RawRequest {
  const { query, body } = baseOf(operation);
  return { path: pathWith(operation, {}, options?.knownValue), query, ...(hasBody(operation) ? json(body) : {}) };
}

/** What breaks the uniform error body in an answer, or `null`: below 500, and a refusal with a catalogued code. */
export function uniformityProblem(answer: RawAnswer): string | null {
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
export function expectationProblem(answer: RawAnswer, expected: Expected | undefined): string | null {
  if (!expected) return null;
  const statuses = typeof expected.status === 'number' ? [expected.status] : expected.status;
  if (!statuses.includes(answer.status)) return `answered ${answer.status}, expected ${statuses.join(' or ')}`;
  const { error = '', error_description: description } = (answer.body ?? {}) as Partial<ErrorBody>;
  if (expected.errors && !expected.errors.includes(error)) return `answered ${error}, expected ${expected.errors.join(' or ')}`;
  if (expected.description && description !== expected.description) return `expected "${expected.description}"`;
  return null;
}

/** Sends `request` to `operation`'s route on the server at `origin` over real HTTP, with `headers`. */
export async function sendRawRequest(
  origin: string,
  operation: AnyOperation,
  request: RawRequest,
  headers: Record<string, string>,
  timeoutMs = 5000,
): Promise<RawAnswer> {
  const base = fullPath(operation).slice(0, -operation.path.length || undefined);
  const query = [new URLSearchParams(request.query ?? {}).toString(), request.rawQuery ?? ''].filter(Boolean).join('&');
  const all = { ...headers, ...(request.contentType ? { 'content-type': request.contentType } : {}) };
  try {
    const response = await fetch(`${origin}${base}${request.path}${query ? `?${query}` : ''}`, {
      method: operation.method,
      headers: all,
      // Probe bodies are built on ArrayBuffers; the cast says so to DOM's fetch types too (the e2e suites use them).
      body: request.body as string | Uint8Array<ArrayBuffer> | undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, text, body: parseJson(text) };
  } catch {
    return { status: 0, text: '', body: undefined };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
