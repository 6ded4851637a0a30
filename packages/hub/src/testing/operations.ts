import { type AnyOperation, fullPath, hubOperations, listOperations } from '@hearth/contract';
import { prepareRequest } from '@hearth/contract/client';
import type { TestHub } from './hub';

/** Every operation the hub declares, for tests that walk them all. */
export const hubOperationList = listOperations(hubOperations as unknown as Record<string, Record<string, AnyOperation>>);

/** The parts of a declared JSON schema that tests read to build values. */
export interface Schema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  minLength?: number;
  pattern?: string;
  items?: Schema;
  minItems?: number;
}

/** A value of the schema's type, good enough to build a request. */
export function dummy(schema: Schema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.anyOf?.length) return dummy(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => dummy(schema.items));
    case 'object':
      return requiredFields(schema);
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** An object of the schema's required properties, each a dummy value. */
export function requiredFields(schema: Schema | undefined): Record<string, unknown> {
  const required = schema?.required ?? [];
  return Object.fromEntries(required.map((name) => [name, dummy(schema?.properties?.[name])]));
}

/** Flat client arguments for `operation`: every path parameter and every required query and body field. */
export function dummyArgs(operation: AnyOperation): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const part of [operation.params, operation.query, operation.bodyRoot ? undefined : operation.body]) {
    const object = part as Schema | undefined;
    for (const [name, property] of Object.entries(object?.properties ?? {})) {
      if (part === operation.params || object?.required?.includes(name)) args[name] = dummy(property);
    }
  }
  if (operation.bodyRoot) args[operation.bodyRoot] = dummy(operation.body as Schema | undefined);
  return args;
}

/** `operation.path` with each `:name` replaced by `fill(name)`, taken as it is (encode it yourself). */
export const fillPath = (operation: AnyOperation, fill: (name: string) => string): string =>
  operation.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => fill(name));

/**
 * The request for `operation` as a client builds it from dummy arguments. Should the client refuse them (its
 * checks are shallower than the schemas), the path is filled in by hand and the body left empty.
 */
export function prepare(operation: AnyOperation) {
  try {
    return prepareRequest(operation, dummyArgs(operation));
  } catch {
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(operation.method);
    return {
      method: operation.method,
      path: fillPath(operation, () => 'x'),
      query: {} as Record<string, string>,
      body: hasBody ? {} : undefined,
    };
  }
}

/** A request to an operation's route, sent as given: the body is raw text, the query already split. */
export interface RawRequest {
  /** Path relative to the operation's base (its manager), parameters filled in. */
  path: string;
  query?: Record<string, string> | URLSearchParams;
  body?: string;
  contentType?: string;
}

/** The hub's answer; `status` 0 when it did not answer within the timeout. `body` is the parsed JSON, if any. */
export interface RawAnswer {
  status: number;
  text: string;
  body: unknown;
}

/** Sends `request` to `operation`'s route over real HTTP with `token` (`null`: none). */
export async function sendRaw(
  t: TestHub,
  operation: AnyOperation,
  request: RawRequest,
  token: string | null,
  timeoutMs = 5000,
): Promise<RawAnswer> {
  const base = fullPath(operation).slice(0, -operation.path.length || undefined);
  const query = new URLSearchParams(request.query ?? {}).toString();
  const headers: Record<string, string> = { 'X-Homey-ID': t.hub.context.config.id };
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.contentType) headers['content-type'] = request.contentType;
  try {
    const response = await fetch(`${t.hub.url}${base}${request.path}${query ? `?${query}` : ''}`, {
      method: operation.method,
      headers,
      body: request.body,
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
