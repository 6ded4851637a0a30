import { type AnyOperation, type ErrorBody, fullPath, HearthError, isErrorBody } from '@hearth/contract';
import type { FastifyInstance } from 'fastify';
import { managerOperations } from './uris';

/** The payload of the socket's `api` event. */
export interface ApiCall {
  uri: string;
  operation: string;
  args?: Record<string, unknown>;
}

const propertiesOf = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});

const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';

/** Finds the declared operation an `api` call names. */
export function resolveOperation(call: unknown): { operation: AnyOperation; args: Record<string, unknown> } {
  if (typeof call !== 'object' || call === null) throw new HearthError('invalid_parameter', 'Invalid Parameter: api call');
  const { uri, operation: name, args } = call as Partial<ApiCall>;
  if (typeof uri !== 'string') throw new HearthError('missing_parameter', 'Missing Parameter: uri');
  if (typeof name !== 'string') throw new HearthError('missing_parameter', 'Missing Parameter: operation');
  const manager = /^homey:manager:([a-z][a-z0-9-]*)$/.exec(uri)?.[1];
  const operations = manager === undefined ? undefined : managerOperations(manager);
  if (!operations) throw new HearthError('not_found', `Unknown manager URI: ${uri}`);
  const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
  if (!operation) throw new HearthError('not_found', `Unknown operation ${name} of ${uri}`);
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new HearthError('invalid_parameter_type', 'Invalid Parameter Type: args. Expected: object');
  }
  return { operation, args: args ?? {} };
}

/**
 * The HTTP request an `api` call stands for: path parameters by name, query parameters by name, the
 * whole-body parameter under its name or body fields by name; other keys (`$validate`, `$timeout`, …) are
 * ignored. Nothing is validated here: the route validates exactly as for HTTP.
 */
export function requestFor(operation: AnyOperation, args: Record<string, unknown>) {
  const path = fullPath(operation).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = args[name];
    if (value === undefined || value === null || typeof value === 'object') {
      throw new HearthError('missing_parameter', `Missing Parameter: ${name}`);
    }
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const name of propertiesOf(operation.query)) {
    const value = args[name];
    if (value !== undefined) query.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  let body: unknown;
  if (hasBody(operation.method)) {
    if (operation.bodyRoot) body = args[operation.bodyRoot];
    else body = Object.fromEntries(propertiesOf(operation.body).flatMap((name) => (name in args ? [[name, args[name]]] : [])));
    body ??= {};
  }
  const search = query.toString();
  return { method: operation.method, url: search ? `${path}?${search}` : path, body };
}

/** Runs an `api` call through the HTTP routes with the socket's token: the same validation, scopes and errors. */
export async function runApiCall(
  app: FastifyInstance,
  hubId: string,
  token: string,
  call: unknown,
): Promise<{ error: ErrorBody } | { result: unknown }> {
  try {
    const { operation, args } = resolveOperation(call);
    const request = requestFor(operation, args);
    const response = await app.inject({
      method: request.method,
      url: request.url,
      headers: {
        authorization: `Bearer ${token}`,
        'x-homey-id': hubId,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const payload: unknown = response.body ? JSON.parse(response.body) : undefined;
    if (response.statusCode >= 400) {
      return { error: isErrorBody(payload) ? payload : new HearthError('internal_error').toBody() };
    }
    return { result: payload };
  } catch (error) {
    return { error: (error instanceof HearthError ? error : new HearthError('internal_error')).toBody() };
  }
}
