import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { HearthError } from '../errors';
import { inputSchema } from '../limits';
import {
  type AnyOperation,
  fullPath,
  type OperationBody,
  type OperationParams,
  type OperationQuery,
  type OperationResult,
  operationGroup,
  operationId,
} from '../operation';
import { hasScope } from '../scopes';

/** Who is calling: the outcome of a server's authentication of a request. */
export interface Principal {
  /** Scopes granted to this session; `null` when the session has no scopes set (passes every scope check). */
  readonly scopes: readonly string[] | null;
  /** Internal sessions (the provider's own services) may call private operations. */
  readonly internal: boolean;
}

export interface HandlerInput<O extends AnyOperation, P extends Principal> {
  params: OperationParams<O>;
  query: OperationQuery<O>;
  body: OperationBody<O>;
  /** The authenticated caller; `null` only for operations declared with `auth: false` called without a token. */
  principal: O['auth'] extends false ? P | null : P;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * An answer already serialized to JSON, sent as it is: for hot reads a manager caches (the zone list of a
 * home changes rarely and is read often). The text must be what the response schema would have produced.
 */
export class SerializedJson<T = unknown> {
  declare readonly value?: T;
  constructor(readonly text: string) {}
}

/** Serializes `value` once, for an answer sent many times. */
export const serializedJson = <T>(value: T): SerializedJson<T> => new SerializedJson<T>(JSON.stringify(value));

type Answer<O extends AnyOperation> = OperationResult<O> | SerializedJson<OperationResult<O>>;

export type Handler<O extends AnyOperation, P extends Principal> = (input: HandlerInput<O, P>) => Promise<Answer<O>> | Answer<O>;

/** An operation bound to the function that serves it. */
export interface Implementation<P extends Principal = Principal> {
  readonly operation: AnyOperation;
  readonly handler: Handler<AnyOperation, P>;
}

/** The handlers of every operation of a group; a manager may build them from parts (`Pick<Handlers<…>, …>`). */
export type Handlers<G extends Record<string, AnyOperation>, P extends Principal> = { [K in keyof G]: Handler<G[K], P> };

/**
 * Binds each operation of a group to its handler. The handler map must cover the group exactly, so a
 * declared operation cannot be forgotten.
 */
export function implement<G extends Record<string, AnyOperation>, P extends Principal>(
  group: G,
  handlers: Handlers<G, P>,
): Implementation<P>[] {
  return Object.entries(group).map(([key, operation]) => {
    const handler = handlers[key as keyof G];
    if (typeof handler !== 'function') throw new Error(`No handler for ${operationId(operation)}`);
    return { operation, handler: handler as unknown as Handler<AnyOperation, P> };
  });
}

/**
 * Authenticates a request. Answers `null` when the request carries no credentials; throws a
 * `HearthError('invalid_token')` when it carries bad ones.
 */
export type Authenticate<P extends Principal> = (request: FastifyRequest) => Promise<P | null> | P | null;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Checks authentication, privacy and scope of `operation` for `principal`; throws the coded error. */
export function authorize(operation: AnyOperation, principal: Principal | null): void {
  if (!operation.auth && !operation.private) return;
  if (!principal) throw new HearthError('missing_token', 'Missing Token');
  if (operation.private && !principal.internal) throw new HearthError('private_operation', 'This operation is private');
  if (!hasScope(principal.scopes, operation.scope)) {
    throw new HearthError('missing_scopes', `Missing Scopes: ${operation.scope}`);
  }
}

const schemaOf = (schema: TSchema | undefined) => schema as Record<string, unknown> | undefined;

/**
 * A copy of `schema` carrying `example` as its JSON Schema `examples`, which the OpenAPI generator turns into the
 * media type's `example` (the request body or answer the reference shows). Schemas are shared between
 * operations, so they are copied, never changed.
 */
function withExample(schema: Record<string, unknown> | undefined, example: unknown): Record<string, unknown> | undefined {
  return schema && example !== undefined ? { ...schema, examples: [example] } : schema;
}

/** A copy of an object schema whose named properties carry their example value (a path or query parameter's). */
function withPropertyExamples(schema: Record<string, unknown>, values: Readonly<Record<string, unknown>> | undefined) {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!values || !properties) return schema;
  const withValues = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, withExample(property, values[name])]),
  );
  return { ...schema, properties: withValues };
}

function routeSchema(operation: AnyOperation): RouteOptions['schema'] {
  const tag = operationGroup(operation);
  const schema: Record<string, unknown> = {
    operationId: operationId(operation),
    summary: operation.summary || operation.name,
    tags: [tag],
  };
  if (operation.deprecated) schema.deprecated = true;
  // Inputs are validated and documented with the limits every input meets (free-form depth and length, integers).
  const examples = operation.examples ?? {};
  if (operation.params) schema.params = withPropertyExamples(inputSchema(operation.params), examples.params);
  if (operation.query) schema.querystring = withPropertyExamples(inputSchema(operation.query), examples.query);
  if (operation.body) schema.body = withExample(inputSchema(operation.body), examples.body);
  if (operation.consumes) schema.consumes = [...operation.consumes];
  if (operation.response)
    schema.response = { [operation.successStatus]: withExample(schemaOf(operation.response), examples.response) };
  const security = operation.auth || operation.private ? [{ bearer: [] }] : [];
  schema.security = security;
  const notes = [
    operation.scope ? `Scope: \`${operation.scope}\`.` : 'No scope required.',
    operation.description,
    operation.private ? 'Private: internal sessions only.' : '',
    operation.bodyRoot ? `The whole body is the \`${operation.bodyRoot}\` parameter.` : '',
  ].filter(Boolean);
  schema.description = notes.join(' ');
  return schema as RouteOptions['schema'];
}

/**
 * The caller of a request. A call that needs no session ignores a token that is no longer valid rather than
 * refusing it: a client whose session expired still sends its old token when it signs in again.
 */
async function principalFor<P extends Principal>(
  operation: AnyOperation,
  request: FastifyRequest,
  authenticate: Authenticate<P>,
): Promise<P | null> {
  try {
    return (await authenticate(request)) ?? null;
  } catch (error) {
    if (!operation.auth && !operation.private && error instanceof HearthError && error.code === 'invalid_token') return null;
    throw error;
  }
}

/**
 * Registers each implementation as a Fastify route: authentication, privacy and scope are checked on
 * request (before the body is parsed), then Fastify validates params, query and body against the declared
 * schemas, then the handler runs and its answer is serialized with the declared response schema.
 */
export function registerOperations<P extends Principal>(
  app: FastifyInstance,
  implementations: readonly Implementation<P>[],
  authenticate: Authenticate<P>,
): void {
  if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', null);
  const seen = new Set<string>();
  for (const { operation, handler } of implementations) {
    const key = `${operation.method} ${fullPath(operation)}`;
    if (seen.has(key)) throw new Error(`Route declared twice: ${key} (${operationId(operation)})`);
    seen.add(key);
    app.route({
      method: operation.method,
      url: fullPath(operation),
      schema: routeSchema(operation),
      onRequest: async (request) => {
        request.principal = await principalFor(operation, request, authenticate);
        authorize(operation, request.principal);
      },
      handler: async (request, reply) => {
        const result = await handler({
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
          principal: request.principal as never,
          request,
          reply,
        });
        // A handler that sent its answer itself (a stream still flowing) answers the reply.
        if (reply.sent || (result as unknown) === reply) return reply;
        if (result === undefined) return reply.status(operation.successStatus === 200 ? 204 : operation.successStatus).send();
        reply.status(operation.successStatus).type('application/json; charset=utf-8');
        if (result instanceof SerializedJson) return reply.send(result.text);
        // Fastify sends strings as they are; a bare string answer (e.g. a session token) must still be JSON.
        return reply.send(typeof result === 'string' ? JSON.stringify(result) : result);
      },
    });
  }
}
