import type { TSchema } from 'typebox';
import type { AnyOperation, HttpMethod, OperationArgs, OperationResult } from '../operation';

// Re-exported so clients can build URLs without loading the contract's schemas (and TypeBox) at run time.
export { fullPath } from '../operation';

/** A request ready for a transport: everything the client derived from the declaration and the caller's args. */
export interface PreparedRequest {
  operation: AnyOperation;
  method: HttpMethod;
  /** Path relative to the owner's base, parameters filled in and percent-encoded. */
  path: string;
  query: Record<string, string>;
  /** JSON body for POST/PUT/PATCH (at least `{}`); for a DELETE whose declared body the caller filled; else `undefined`. */
  body: unknown;
}

/** Thrown before any request when the caller's arguments do not match the declaration. */
export class ParameterError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = 'ParameterError';
  }
}

interface PropertySchema {
  type?: string | string[];
  anyOf?: { type?: string }[];
}

interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

const typeName = (value: unknown): string => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/** The JSON types a property accepts; empty when it accepts any (a branch without a type, e.g. an enum). */
function expectedTypes(schema: PropertySchema): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.anyOf?.every((branch) => branch.type !== undefined)) return schema.anyOf.map((branch) => branch.type as string);
  return [];
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

/** Checks required fields and top-level types of `args` against an object schema, as the ecosystem's client does. */
function checkFields(schema: TSchema | undefined, args: Record<string, unknown>, coerceStrings: boolean): void {
  const object = schema as ObjectSchema | undefined;
  if (!object?.properties) return;
  for (const name of object.required ?? []) {
    if (args[name] === undefined) throw new ParameterError(`Missing Parameter: ${name}`);
  }
  for (const [name, property] of Object.entries(object.properties)) {
    const value = args[name];
    if (value === undefined) continue;
    const types = expectedTypes(property);
    if (types.length === 0) continue;
    const ok = types.some((t) => matchesType(value, t) || (coerceStrings && typeof value !== 'object' && t !== 'object'));
    if (!ok) {
      throw new ParameterError(`Invalid Parameter Type: ${name}. Got: ${typeName(value)}. Expected: ${types.join('|')}`);
    }
  }
}

const hasBody = (method: HttpMethod) => method === 'POST' || method === 'PUT' || method === 'PATCH';

/** Splits the caller's flat arguments into path, query and body per the declaration; validates first. */
export function prepareRequest(operation: AnyOperation, rawArgs: object | undefined): PreparedRequest {
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  checkFields(operation.params, args, false);
  checkFields(operation.query, args, true);
  let body: unknown;
  if (operation.bodyRoot) {
    body = args[operation.bodyRoot];
    if (body === undefined && (operation.body as ObjectSchema | undefined) !== undefined) {
      throw new ParameterError(`Missing Parameter: ${operation.bodyRoot}`);
    }
  } else if (operation.body) {
    checkFields(operation.body, args, false);
    const fields = Object.keys((operation.body as ObjectSchema).properties ?? {});
    body = Object.fromEntries(fields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]));
  }
  if (hasBody(operation.method) && body === undefined) body = {};
  // A DELETE carries a body only where its declaration has one and the caller filled it (confirming an account's
  // deletion with the password); the ecosystem's DELETEs otherwise have none.
  const declaredDeleteBody =
    operation.method === 'DELETE' && typeof body === 'object' && body !== null && Object.keys(body).length > 0;
  if (!hasBody(operation.method) && !declaredDeleteBody) body = undefined;
  const path = operation.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const query: Record<string, string> = {};
  for (const name of Object.keys((operation.query as ObjectSchema | undefined)?.properties ?? {})) {
    const value = args[name];
    if (value !== undefined) query[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return { operation, method: operation.method, path, query, body };
}

/** Sends a prepared request and answers the decoded result. Node and browser clients bring their own. */
export type Send = (request: PreparedRequest) => Promise<unknown>;

export type OperationMethods<G extends Record<string, AnyOperation>> = {
  // biome-ignore lint/complexity/noBannedTypes: `{}` extends the args exactly when every argument is optional
  [K in keyof G]: {} extends OperationArgs<G[K]>
    ? (args?: OperationArgs<G[K]>) => Promise<OperationResult<G[K]>>
    : (args: OperationArgs<G[K]>) => Promise<OperationResult<G[K]>>;
};

/** Derives one typed method per declared operation of a group, each validating its arguments then calling `send`. */
export function deriveMethods<G extends Record<string, AnyOperation>>(group: G, send: Send): OperationMethods<G> {
  const methods: Record<string, (args?: object) => Promise<unknown>> = {};
  for (const operation of Object.values(group)) {
    methods[operation.name] = async (args?: object) => send(prepareRequest(operation, args));
  }
  return methods as OperationMethods<G>;
}
