import { prepareRequest } from '../client/index';
import type { AnyOperation } from '../operation';

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
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: Schema;
  minItems?: number;
  maxJsonLength?: number;
}

/** Text of common id and name shapes, tried in turn against a string schema's pattern. */
const SAMPLE_TEXTS = [
  '00000000-0000-4000-8000-000000000000',
  '0123456789abcdef01234567',
  // A SHA-256 in hexadecimal (of nothing).
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'com.example.sample',
  'sample',
  '1.0.0',
  '1',
];
const SAMPLE_FORMATS: Record<string, string> = {
  email: 'sample@hearth.test',
  'date-time': '2024-01-01T00:00:00.000Z',
  date: '2024-01-01',
  uri: 'http://hearth.test/sample',
};

/** Text a string schema takes: of its format, or the first sample its pattern and length allow. */
function dummyText(schema: Schema): string {
  const short = 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  const format = schema.format === undefined ? undefined : SAMPLE_FORMATS[schema.format];
  if (format) return format;
  if (!schema.pattern) return short;
  const pattern = new RegExp(schema.pattern, 'u');
  const fits = (text: string) =>
    pattern.test(text) && text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
  return SAMPLE_TEXTS.find(fits) ?? short;
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
      return dummyText(schema);
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
